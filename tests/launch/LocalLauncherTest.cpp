// The local launcher: every shard's result, retries of failures, giving up after them, resuming
// from what exists, and a result that appears only complete.
#include "ShardsForTests.h"

#include "launch/ChildProcess.h"
#include "launch/Launcher.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <signal.h>
#include <sys/wait.h>

namespace tessera::launch {
namespace {

using testing::countedShard;
using testing::countedShards;
using testing::readText;
using testing::runsOf;

class LocalLauncherTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/tessera-launch-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir = pattern;
    options.workDir = dir + "/work";
    options.maxParallel = 2;
    options.retries = 1;
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  LaunchResult run(const std::vector<Shard>& shards) {
    auto launcher = makeLocalLauncher(options);
    launcher->check();
    return launcher->run(shards, [&](const ShardProgress& p) { lines.push_back(describe(p, shards.size())); });
  }

  std::string dir;
  LaunchOptions options;
  std::vector<std::string> lines;
};

TEST_F(LocalLauncherTest, RunsEveryShardOnceAndPublishesItsResult) {
  const LaunchResult result = run(countedShards(dir, 5, 0.05));
  EXPECT_TRUE(result.allDone());
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(readText(dir + "/row-" + std::to_string(i) + ".txt"), "row " + std::to_string(i));
    EXPECT_EQ(runsOf(dir, i), 1);
  }
  // No temporary file is left beside the results.
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".part-"), std::string::npos) << entry.path();
}

TEST_F(LocalLauncherTest, RunsAFailedShardAgainAndSaysWhy) {
  // Fails on its first run only.
  std::vector<Shard> shards{countedShard(dir, 0, 0,
                                         "if [ $(wc -l < '" + dir + "/runs-0') -eq 1 ]; then exit 7; fi; printf 'row 0' > \"$1\"")};
  const LaunchResult result = run(shards);
  ASSERT_TRUE(result.allDone());
  EXPECT_EQ(result.shards[0].retries, 1);
  EXPECT_EQ(runsOf(dir, 0), 2);
  bool toldWhy = false;
  for (const std::string& line : lines) toldWhy = toldWhy || line.find("exit status 7; running it again") != std::string::npos;
  EXPECT_TRUE(toldWhy);
}

TEST_F(LocalLauncherTest, GivesUpAfterItsRetriesAndFinishesTheOthers) {
  std::vector<Shard> shards = countedShards(dir, 3);
  shards[1] = countedShard(dir, 1, 0, "echo broken >&2; exit 1");
  const LaunchResult result = run(shards);
  EXPECT_FALSE(result.allDone());
  EXPECT_EQ(result.failed(), std::vector<size_t>{1});
  EXPECT_EQ(result.shards[1].state, ShardState::Failed);
  EXPECT_EQ(runsOf(dir, 1), 2); // the first run and its one retry
  EXPECT_FALSE(std::filesystem::exists(shards[1].output));
  EXPECT_TRUE(std::filesystem::exists(shards[2].output));
  // The shard's log holds what it printed.
  EXPECT_NE(readText(options.workDir + "/logs/shard-1.log").find("broken"), std::string::npos);
}

TEST_F(LocalLauncherTest, AShardThatWritesNothingFails) {
  options.retries = 0;
  const LaunchResult result = run({countedShard(dir, 0, 0, "true")});
  ASSERT_EQ(result.shards[0].state, ShardState::Failed);
  EXPECT_NE(result.shards[0].note.find("without writing its result"), std::string::npos);
}

TEST_F(LocalLauncherTest, ResumesWithoutRedoingFinishedShards) {
  const std::vector<Shard> shards = countedShards(dir, 4);
  run(shards);
  // As if the launch had stopped before shards 1 and 3 finished.
  std::filesystem::remove(shards[1].output);
  std::filesystem::remove(shards[3].output);
  const LaunchResult result = run(shards);
  EXPECT_TRUE(result.allDone());
  EXPECT_EQ(runsOf(dir, 0), 1);
  EXPECT_EQ(runsOf(dir, 2), 1);
  EXPECT_EQ(runsOf(dir, 1), 2);
  EXPECT_EQ(runsOf(dir, 3), 2);
  EXPECT_NE(result.shards[0].note.find("already done"), std::string::npos);
}

TEST_F(LocalLauncherTest, AWorkDirOfAnotherLaunchIsAnError) {
  run(countedShards(dir, 2));
  std::vector<Shard> other = countedShards(dir, 2);
  other[1].argv.push_back("--trials=64"); // the same outputs from another command: not this launch's results
  try {
    run(other);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds another launch"), std::string::npos) << e.what();
  }
}

TEST_F(LocalLauncherTest, RunsAtMostMaxParallelAtOnce) {
  // Each shard notes the most shards it saw running together.
  std::vector<Shard> shards;
  for (size_t i = 0; i < 6; ++i)
    shards.push_back(countedShard(dir, i, 0,
                                  "touch '" + dir + "/live-" + std::to_string(i) + "'; sleep 0.2; ls '" + dir +
                                      "' | grep -c '^live-' > \"$1\"; rm '" + dir + "/live-" + std::to_string(i) + "'"));
  ASSERT_TRUE(run(shards).allDone());
  for (const Shard& shard : shards) EXPECT_LE(std::stoi(readText(shard.output)), 2);
}

TEST_F(LocalLauncherTest, ShardsEndWithTheirDriver) {
  // A driver killed mid-launch takes its running shards with it (they are in groups of their own,
  // out of a terminal's reach). What a shard started itself (here its sleep) runs out on its own.
  const std::vector<Shard> shards = countedShards(dir, 2, 5);
  const pid_t driver = ::fork();
  ASSERT_GE(driver, 0);
  if (driver == 0) {
    run(shards);
    ::_exit(0);
  }
  while (runsOf(dir, 0) + runsOf(dir, 1) < 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(driver, SIGKILL);
  ::waitpid(driver, nullptr, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const CapturedRun shells = runCaptured({"pgrep", "-f", dir + "/runs-"}, 10);
  EXPECT_FALSE(shells.exit.succeeded()) << "still running: " << shells.output;
}

TEST_F(LocalLauncherTest, AWorkDirThatCannotBeCreatedIsAnErrorNamingIt) {
  std::ofstream(dir + "/file") << "x";
  options.workDir = dir + "/file/work";
  auto launcher = makeLocalLauncher(options);
  try {
    launcher->check();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/file/work"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace tessera::launch
