// libFuzzer target for a launch's work-directory files (launch/ShardBoard: shards.json,
// launch/LaunchState: launch.json); see CheckLaunchFiles.h for what an input goes through and the
// contract it checks.
#include "CheckLaunchFiles.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string workDir = tessera::fuzz::fuzzScratchPath("launch");
  tessera::fuzz::FuzzOutcome outcome =
      tessera::fuzz::checkLaunchFiles(std::string(tessera::fuzz::inputBytes(data, size)), workDir);
  return tessera::fuzz::endOfInput(outcome);
}
