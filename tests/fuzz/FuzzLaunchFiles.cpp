// libFuzzer target for a launch's work-directory files (launch/ShardBoard: shards.json,
// launch/LaunchState: launch.json); see CheckLaunchFiles.h for what an input goes through and the
// contract it checks.
#include "CheckLaunchFiles.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string workDir =
      ((std::filesystem::is_directory("/dev/shm") ? std::filesystem::path("/dev/shm") : std::filesystem::temp_directory_path()) /
       ("tessera-fuzz-launch-" + std::to_string(getpid())))
          .string();
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkLaunchFiles(std::string(reinterpret_cast<const char*>(data), size), workDir);
  if (outcome.defect.empty()) return 0;
  std::fprintf(stderr, "%s\n", outcome.defect.c_str());
  std::abort();
}
