// Child processes: a timeout kills what the child started too (a compiler driver's cc1 left
// running would slow every later build and timing).
#include "tune/Subprocess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace tessera::tune {
namespace {

// Running, not gone or a zombie waiting for whoever adopted it.
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pidText, name, state;
  if (!(stat >> pidText >> name >> state)) return false;
  return state != "Z" && state != "X";
}

TEST(Subprocess, TimeoutKillsTheChildsChildrenToo) {
  const std::string dir = std::filesystem::temp_directory_path() / ("tessera-subprocess-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pidFile = dir + "/grandchild.pid";
  Command command{{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"}, {}, dir + "/out.txt"};
  const ProcessResult result = runCommands({command}, 1, 1.0).at(0);
  EXPECT_TRUE(result.timedOut);
  EXPECT_FALSE(result.succeeded());
  pid_t grandchild = 0;
  std::ifstream(pidFile) >> grandchild;
  ASSERT_GT(grandchild, 0);
  bool alive = true;
  for (int i = 0; i < 100 && alive; ++i) {
    alive = running(grandchild);
    if (alive) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(alive) << "sleep " << grandchild << " outlived its timed-out parent";
  std::filesystem::remove_all(dir);
}

TEST(Subprocess, ExitStatusAndOutputComeBack) {
  const std::string out = std::filesystem::temp_directory_path() / ("tessera-subprocess-out-" + std::to_string(::getpid()));
  const ProcessResult result = runCommands({{{"sh", "-c", "echo hello; exit 3"}, {}, out}}, 1, 30).at(0);
  EXPECT_FALSE(result.timedOut);
  EXPECT_EQ(result.exitCode, 3);
  EXPECT_EQ(result.output, "hello\n");
  EXPECT_EQ(result.describe(), "exit status 3");
}

} // namespace
} // namespace tessera::tune
