// `rl train --agent rlflow --launcher local|slurm`: the world model's data collected by launched
// shards is the data a training in one process collects with the same seed, so the training curve
// (each world-model episode's model, reward and steps), the world model's losses and the count of
// real steps are the same; a shard file of another seed is refused naming it.
#include "CliForTests.h"
#include "ShardsForTests.h"
#include "SlurmCluster.h"

#include "launch/ShardBoard.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace tessera::launch {
namespace {

using testing::readText;
using testing::runCli;

// A short training: 5 world-model episodes of a few steps on two small models, no dreams.
std::vector<std::string> training(const std::string& dir, const std::string& name) {
  return {"rl", "train", "--agent", "rlflow", "--models", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx",
          TESSERA_SOURCE_DIR "/samples/teaching/phase_ordering.onnx", "--cost", "analytic:h200", "--seed", "7",
          "--horizon", "6", "--world-model-episodes", "5", "--dream-episodes", "0", "--param", "world_model_updates=3",
          "--param", "evaluate_every=0", "--out", dir + "/" + name + ".ckpt", "--json", dir + "/" + name + ".json"};
}

void expectTheSameWorldModelData(const nlohmann::json& here, const nlohmann::json& launched) {
  EXPECT_EQ(here.at("curve"), launched.at("curve"));
  EXPECT_EQ(here.at("world_model_losses"), launched.at("world_model_losses"));
  EXPECT_EQ(here.at("real_env_steps"), launched.at("real_env_steps"));
  EXPECT_EQ(here.at("curve").size(), 5u);
}

class RlflowOnLaunchersTest : public testing::ScratchDirTest {
protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    const CapturedRun run = runCli(training(dir, "here"));
    ASSERT_TRUE(run.exit.succeeded()) << run.output;
    here = nlohmann::json::parse(readText(dir + "/here.json"));
  }
  nlohmann::json here;
};

TEST_F(RlflowOnLaunchersTest, LocalShardsCollectTheDataOfOneProcess) {
  std::vector<std::string> args = training(dir, "local");
  args.insert(args.end(), {"--launcher", "local", "--work-dir", dir + "/work", "--episodes-per-shard", "2"});
  const CapturedRun run = runCli(args);
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_NE(run.output.find("3 of 3 shard(s) done"), std::string::npos) << run.output;
  expectTheSameWorldModelData(here, nlohmann::json::parse(readText(dir + "/local.json")));
  // The report names the networks' layout (the newest, 3, by default) and the controller's prior.
  EXPECT_EQ(here.at("agent_format"), 3);
  EXPECT_EQ(here.at("greedy_prior"), 8.0);
  // The driver's shard board, what the explorer's Jobs panel shows: every shard done.
  const ShardBoard board = readShardBoard(dir + "/work");
  EXPECT_EQ(board.launcher, "local");
  EXPECT_EQ(board.command, "rl-train");
  EXPECT_TRUE(board.finished);
  ASSERT_EQ(board.shards.size(), 3u);
  for (const ShardProgress& shard : board.shards) EXPECT_EQ(shard.state, ShardState::Done) << shard.name;

  // A shard's file from another seed, where this launch expects its own, is refused naming the file.
  const std::string shardFile = dir + "/work/episodes-0-2.cbor";
  ASSERT_TRUE(std::filesystem::exists(shardFile));
  std::vector<std::string> otherSeed = training(dir, "other");
  *std::find(otherSeed.begin(), otherSeed.end(), "7") = "8";
  otherSeed.insert(otherSeed.end(), {"--launcher", "local", "--work-dir", dir + "/work-8", "--episodes-per-shard", "2"});
  std::filesystem::create_directories(dir + "/work-8");
  std::filesystem::copy_file(shardFile, dir + "/work-8/episodes-0-2.cbor");
  const CapturedRun refused = runCli(otherSeed);
  EXPECT_FALSE(refused.exit.succeeded());
  EXPECT_NE(refused.output.find(dir + "/work-8/episodes-0-2.cbor"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("of seed 7, not 0+2 of seed 8"), std::string::npos) << refused.output;
}

TEST_F(RlflowOnLaunchersTest, SlurmShardsCollectTheDataOfOneProcess) {
  if (std::string why = testing::SlurmCluster::whyUnavailable(); !why.empty()) GTEST_SKIP() << why;
  testing::SlurmCluster cluster;
  const std::string work = cluster.scratch("rlflow");
  std::vector<std::string> args = training(dir, "slurm");
  args.insert(args.end(), {"--launcher", "slurm", "--work-dir", work, "--episodes-per-shard", "3"});
  const CapturedRun run = runCli(args);
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_NE(run.output.find("2 of 2 shard(s) done"), std::string::npos) << run.output;
  expectTheSameWorldModelData(here, nlohmann::json::parse(readText(dir + "/slurm.json")));
}

TEST(RlflowLaunchErrors, XrlflowRefusesALauncher) {
  const CapturedRun run = runCli({"rl", "train", "--agent", "xrlflow", "--models", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx", "--out",
                               "/nonexistent/x.ckpt", "--launcher", "local"});
  EXPECT_FALSE(run.exit.succeeded());
  EXPECT_NE(run.output.find("only rlflow's world-model episodes are launched"), std::string::npos) << run.output;
}

} // namespace
} // namespace tessera::launch
