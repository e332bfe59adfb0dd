// libFuzzer target for the RL training reports the explorer's Training tab reads (rl/TrainingReport,
// RealStepCurve, StrengthCurve); see CheckTrainingReport.h for what an input goes through.
#include "CheckTrainingReport.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch =
      ((std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm") : std::filesystem::temp_directory_path()) /
       ("tessera-fuzz-report-" + std::to_string(getpid()) + ".json"))
          .string();
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkTrainingReport(std::string(reinterpret_cast<const char*>(data), size), scratch);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
