// libFuzzer target for the RL training reports the explorer's Training tab reads (rl/TrainingReport,
// RealStepCurve, StrengthCurve); see CheckTrainingReport.h for what an input goes through.
#include "CheckTrainingReport.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("report.json");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkTrainingReport(std::string(reinterpret_cast<const char*>(data), size), scratch);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
