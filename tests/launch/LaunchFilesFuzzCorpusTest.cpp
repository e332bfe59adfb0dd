// Regression for fuzz_launch_files: every input in tests/fuzz/corpus/launch_files (boards and launch
// states as the drivers write them, broken ones and what the fuzzer kept), as shards.json and as
// launch.json, reads and round-trips or is a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckLaunchFiles.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

using namespace tessera;

TEST(LaunchFilesFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string workDir = (std::filesystem::temp_directory_path() / ("tessera-launch-corpus-" + std::to_string(::getpid()))).string();
  fuzz::expectCorpusReplaysCleanly("launch_files", [&](const std::filesystem::path& file) {
    return fuzz::checkLaunchFiles(fuzz::fileBytes(file.string()), workDir);
  });
}
