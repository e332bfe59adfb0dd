// The shard board (shards.json): what the driver writes is what the Jobs panel reads, and a
// missing or malformed board is an error naming its file.
#include "ShardsForTests.h"

#include "launch/ShardBoard.h"
#include "launch/WorkDir.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace tessera::launch {
namespace {

class ShardBoardTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = (std::filesystem::temp_directory_path() / ("tessera-board-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string dir;
};

TEST_F(ShardBoardTest, ReadsBackWhatTheDriverWrote) {
  ShardBoard board{"slurm", "bench", {}, false, {}};
  board.shards.push_back({0, "squeezenet greedy seed 1", ShardState::Done, "node1", 0, {}});
  board.shards.push_back({1, "squeezenet eqsat seed 1", ShardState::Running, "node2", 1, "job 12_1 ended CANCELLED (exit 0:15); resubmitting"});
  board.shards.push_back({2, "squeezenet mcts seed 1", ShardState::Failed, {}, 2, "exited 1"});
  writeShardBoard(dir, board);
  EXPECT_FALSE(board.updated.empty());

  const ShardBoard read = readShardBoard(dir);
  EXPECT_EQ(read.launcher, "slurm");
  EXPECT_EQ(read.command, "bench");
  EXPECT_EQ(read.updated, board.updated);
  EXPECT_FALSE(read.finished);
  ASSERT_EQ(read.shards.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(read.shards[i].index, board.shards[i].index);
    EXPECT_EQ(read.shards[i].name, board.shards[i].name);
    EXPECT_EQ(read.shards[i].state, board.shards[i].state);
    EXPECT_EQ(read.shards[i].node, board.shards[i].node);
    EXPECT_EQ(read.shards[i].retries, board.shards[i].retries);
    EXPECT_EQ(read.shards[i].note, board.shards[i].note);
  }
}

// A work directory of several launches in a row (rl train --agent puct: one per generation) is
// shown by the launch whose board was written last; a launch's own directory by itself.
TEST_F(ShardBoardTest, LaunchesInARowAreShownByTheOneWrittenLast) {
  namespace fs = std::filesystem;
  EXPECT_EQ(launchToShow(dir), dir) << "no board anywhere: the directory itself, whose missing board readShardBoard names";
  ShardBoard board{"local", "rl train", {}, true, {}};
  for (const char* name : {"generation-1", "generation-2", "final"}) fs::create_directories(fs::path(dir) / name);
  writeShardBoard(dir + "/generation-2", board);
  writeShardBoard(dir + "/generation-1", board);
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(fs::path(dir) / "generation-2" / kShardBoardFile, now - std::chrono::seconds(5));
  fs::last_write_time(fs::path(dir) / "generation-1" / kShardBoardFile, now - std::chrono::seconds(10));
  EXPECT_EQ(launchToShow(dir), dir + "/generation-2");
  writeShardBoard(dir + "/final", board);
  EXPECT_EQ(launchToShow(dir), dir + "/final");
  EXPECT_EQ(launchToShow(dir + "/generation-1"), dir + "/generation-1") << "a launch's own directory shows itself";
}

TEST_F(ShardBoardTest, AMissingOrMalformedBoardNamesItsFile) {
  const std::string path = dir + "/" + kShardBoardFile;
  try {
    readShardBoard(dir);
    FAIL() << "a directory without a board was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::ofstream(path) << R"({"launcher": "slurm", "command": "bench", "updated": "now", "finished": false,
                            "shards": [{"index": 0, "name": "a", "state": "SLEEPING", "node": "", "retries": 0, "note": ""}]})";
  try {
    readShardBoard(dir);
    FAIL() << "an unknown state was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("SLEEPING"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "{ not json";
  EXPECT_THROW(readShardBoard(dir), Error);
}

} // namespace
} // namespace tessera::launch
