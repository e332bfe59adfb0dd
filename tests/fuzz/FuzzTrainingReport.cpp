// libFuzzer target for the RL training reports the explorer's Training tab reads (rl/TrainingReport,
// RealStepCurve, StrengthCurve); see CheckTrainingReport.h for what an input goes through.
#include "CheckTrainingReport.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = tessera::fuzz::fuzzScratchPath("report.json");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkTrainingReport(std::string(tessera::fuzz::inputBytes(data, size)), scratch);
  return tessera::fuzz::endOfInput(outcome);
}
