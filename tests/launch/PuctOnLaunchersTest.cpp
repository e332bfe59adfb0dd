// `rl train --agent puct --launcher local|slurm`: self-play games played by launched shards are the
// games a training in one process plays with the same seed (each game's random streams come from
// the seed and its number), so the generations' strengths and losses, every game, the final round
// and the checkpoint's bytes are the same; a restart with the same work directory plays nothing
// again; a shard's file that is damaged or of another generation is refused naming it.
#include "CliForTests.h"
#include "ShardsForTests.h"
#include "SlurmCluster.h"

#include "launch/ShardBoard.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace tessera::launch {
namespace {

using testing::readText;
using testing::runCli;

// Two generations of two short games on two small models, with root noise (a stream of each game's
// own), then the final round: three launches of two one-game shards.
std::vector<std::string> training(const std::string& dir, const std::string& name) {
  return {"rl", "train", "--agent", "puct", "--models", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx",
          TESSERA_SOURCE_DIR "/samples/teaching/phase_ordering.onnx", "--cost", "analytic:h200", "--seed", "7", "--games", "4",
          "--simulations", "2", "--param", "games_per_generation=2", "--param", "max_steps=2", "--param", "updates=2", "--param", "batch=4",
          "--param", "root_noise=0.25", "--out", dir + "/" + name + ".ckpt", "--json", dir + "/" + name + ".json"};
}

std::vector<std::string> launched(const std::string& dir, const std::string& name, const std::string& launcher, const std::string& work) {
  std::vector<std::string> args = training(dir, name);
  args.insert(args.end(), {"--launcher", launcher, "--work-dir", work, "--games-per-shard", "1"});
  return args;
}

// The report without its wall times.
nlohmann::json withoutSeconds(nlohmann::json report) {
  report.erase("seconds");
  report.erase("checkpoint");
  for (const char* list : {"generations", "games_played"})
    for (nlohmann::json& entry : report.at(list)) entry.erase("seconds");
  return report;
}

void expectTheSameTraining(const std::string& dir, const std::string& name) {
  const nlohmann::json here = nlohmann::json::parse(readText(dir + "/here.json"));
  const nlohmann::json there = nlohmann::json::parse(readText(dir + "/" + name + ".json"));
  EXPECT_EQ(withoutSeconds(here), withoutSeconds(there));
  EXPECT_EQ(here.at("generations").size(), 2u);
  EXPECT_EQ(here.at("games_played").size(), 6u);
  EXPECT_TRUE(readText(dir + "/here.ckpt") == readText(dir + "/" + name + ".ckpt")) << "the checkpoints differ";
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

class PuctOnLaunchersTest : public testing::ScratchDirTest {
protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    const CapturedRun run = runCli(training(dir, "here"));
    ASSERT_TRUE(run.exit.succeeded()) << run.output;
  }
};

TEST_F(PuctOnLaunchersTest, LocalShardsPlayTheGamesOfOneProcess) {
  const std::string work = dir + "/work";
  const CapturedRun run = runCli(launched(dir, "local", "local", work));
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_EQ(occurrences(run.output, "2 of 2 shard(s) done"), 3u) << run.output;
  EXPECT_NE(run.output.find("generation 2 games 3-3: DONE"), std::string::npos) << run.output;
  expectTheSameTraining(dir, "local");
  const ShardBoard board = readShardBoard(work + "/generation-1");
  EXPECT_EQ(board.command, "rl-train");
  EXPECT_TRUE(board.finished);

  // A restart with the same work directory plays no game again, and trains the same agent.
  const CapturedRun again = runCli(launched(dir, "again", "local", work));
  ASSERT_TRUE(again.exit.succeeded()) << again.output;
  EXPECT_EQ(occurrences(again.output, "already done"), 6u) << again.output;
  EXPECT_EQ(again.output.find("RUNNING"), std::string::npos) << again.output;
  expectTheSameTraining(dir, "again");

  // A damaged shard file is refused naming it.
  const std::string second = work + "/generation-2/games-2-1.cbor";
  ASSERT_TRUE(std::filesystem::exists(second));
  std::filesystem::copy_file(second, dir + "/second.cbor");
  std::filesystem::resize_file(second, std::filesystem::file_size(second) / 2);
  const CapturedRun damaged = runCli(launched(dir, "damaged", "local", work));
  EXPECT_FALSE(damaged.exit.succeeded());
  EXPECT_NE(damaged.output.find(second + ": not a file of puct self-play games"), std::string::npos) << damaged.output;

  // So is a file of another generation's games, played by another network.
  std::filesystem::copy_file(work + "/generation-1/games-0-1.cbor", second, std::filesystem::copy_options::overwrite_existing);
  const CapturedRun otherGeneration = runCli(launched(dir, "other", "local", work));
  EXPECT_FALSE(otherGeneration.exit.succeeded());
  EXPECT_NE(otherGeneration.output.find(second + ": holds games 1-1 of seed 7"), std::string::npos) << otherGeneration.output;
  EXPECT_NE(otherGeneration.output.find("(a shard of another generation or run"), std::string::npos) << otherGeneration.output;
}

TEST_F(PuctOnLaunchersTest, SlurmShardsPlayTheGamesOfOneProcess) {
  if (std::string why = testing::SlurmCluster::whyUnavailable(); !why.empty()) GTEST_SKIP() << why;
  testing::SlurmCluster cluster;
  const CapturedRun run = runCli(launched(dir, "slurm", "slurm", cluster.scratch("puct")));
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_EQ(occurrences(run.output, "2 of 2 shard(s) done"), 3u) << run.output;
  expectTheSameTraining(dir, "slurm");
}

TEST(PuctLaunchErrors, AShardNeedsItsNetwork) {
  const CapturedRun run = runCli({"rl", "train", "--agent", "puct", "--models", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx", "--cost",
                                  "analytic:h200", "--game-shard", "0:1", "--out", "/nonexistent/games.cbor"});
  EXPECT_FALSE(run.exit.succeeded());
  EXPECT_NE(run.output.find("--game-shard needs --shard-network"), std::string::npos) << run.output;
}

TEST(PuctLaunchErrors, AShardOfNoGamesIsRefused) {
  const CapturedRun run = runCli({"rl", "train", "--agent", "puct", "--models", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx", "--cost",
                                  "analytic:h200", "--launcher", "local", "--games-per-shard", "0", "--out", "/nonexistent/puct.ckpt"});
  EXPECT_FALSE(run.exit.succeeded());
  EXPECT_NE(run.output.find("--games-per-shard must be at least 1"), std::string::npos) << run.output;
}

} // namespace
} // namespace tessera::launch
