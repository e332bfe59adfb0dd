// Running tessera-cli (TESSERA_CLI) from the launched-command tests, each in a scratch directory
// of its own that is removed afterwards.
#pragma once

#include "launch/ChildProcess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace tessera::testing {

inline launch::CapturedRun runCli(std::vector<std::string> args) {
  args.insert(args.begin(), TESSERA_CLI);
  return launch::runCaptured(args, 600);
}

class ScratchDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir = (std::filesystem::temp_directory_path() / ("tessera-" + name + "-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::string dir;
};

} // namespace tessera::testing
