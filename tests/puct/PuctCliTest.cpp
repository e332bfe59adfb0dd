// `rl train --agent puct` and `optimize --strategy mcts --param prior=CKPT` as a user meets them: the
// help lists the new options, a tiny self-play run writes a checkpoint that guides a search, and a
// missing or foreign checkpoint is a clear error naming it.
#include "../cli/CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using tessera::test::expectCleanError;
using tessera::test::makeTempDir;
using tessera::test::readJson;
using tessera::test::runCli;

namespace {
const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";
} // namespace

TEST(PuctCli, TheHelpListsTheNewOptions) {
  auto help = runCli("rl train --help");
  ASSERT_EQ(help.exitCode, 0) << help.output;
  for (const char* option : {"--games", "--simulations", "puct"}) EXPECT_NE(help.output.find(option), std::string::npos) << option;
}

TEST(PuctCli, AMissingPriorIsAClearError) {
  auto run = runCli("optimize " + kSamples + "/nasrnn.onnx --strategy mcts --cost analytic:h200 --param prior=/nonexistent/puct.ckpt");
  expectCleanError(run, "/nonexistent/puct.ckpt");
}

TEST(PuctCli, AnotherAgentsCheckpointIsRefusedAsAPrior) {
  const std::string xrlflow = std::string(TESSERA_SOURCE_DIR) + "/resources/agents/xrlflow.ckpt";
  auto run = runCli("optimize " + kSamples + "/nasrnn.onnx --strategy mcts --cost analytic:h200 --param prior=" + xrlflow);
  expectCleanError(run, "xrlflow");
}

// The prior's target reaches training: the same games (the untrained network plays generation 1
// alike) teach another policy loss with visit-share targets than with the default completed-Q
// ones; an unknown target is refused by name.
TEST(PuctCli, ThePolicyTargetIsWhatTheFirstGenerationIsTrainedOn) {
  const std::string dir = makeTempDir("puct-target");
  const std::string tiny = "rl train --agent puct --models " + kSamples + "/nasrnn.onnx --games 2 --simulations 4 " +
                           "--param games_per_generation=1 --param max_steps=2 --param updates=2 --param batch=4 --out " + dir + "/p.ckpt";
  ASSERT_EQ(runCli(tiny + " --param policy_target=visits --json " + dir + "/visits.json").exitCode, 0);
  auto completed = runCli(tiny + " --json " + dir + "/completed.json"); // the default
  ASSERT_EQ(completed.exitCode, 0) << completed.output;
  EXPECT_NE(completed.output.find("policy target completed_q"), std::string::npos) << "the log names the default it trains on";
  const nlohmann::json visits = readJson(dir + "/visits.json"), completedQ = readJson(dir + "/completed.json");
  EXPECT_EQ(visits["policy_target"], "visits");
  EXPECT_EQ(completedQ["policy_target"], "completed_q");
  EXPECT_EQ(visits["generations"][0]["mean_speedup_pct"], completedQ["generations"][0]["mean_speedup_pct"]) << "the same games";
  EXPECT_NE(visits["generations"][0]["policy_loss"], completedQ["generations"][0]["policy_loss"]) << "other targets";
  expectCleanError(runCli(tiny + " --param policy_target=gumbel"), "policy_target=gumbel: expected visits or completed_q");
}

TEST(PuctCli, ATinySelfPlayRunWritesACheckpointThatGuidesMcts) {
  const std::string dir = makeTempDir("puct");
  const std::string checkpoint = dir + "/puct.ckpt", trainJson = dir + "/train.json", runJson = dir + "/run.json";
  auto train = runCli("rl train --agent puct --models " + kSamples + "/nasrnn.onnx --games 2 --simulations 3 --param games_per_generation=1 "
                      "--param max_steps=2 --param updates=2 --param batch=4 --out " + checkpoint + " --json " + trainJson);
  ASSERT_EQ(train.exitCode, 0) << train.output;
  EXPECT_NE(train.output.find("generation 2, game 2/2 nasrnn"), std::string::npos) << train.output;
  nlohmann::json report = readJson(trainJson);
  ASSERT_EQ(report["generations"].size(), 2u);
  for (const auto& generation : report["generations"]) EXPECT_GT(generation["mean_speedup_pct"].get<double>(), 0.0);
  EXPECT_TRUE(report["final_speedup_pct"].contains("nasrnn"));
  EXPECT_EQ(report["checkpoint"], "puct.ckpt") << "the file's name, not the scratch folder it was written to";

  auto run = runCli("optimize " + kSamples + "/nasrnn.onnx --strategy mcts --cost analytic:h200 --param simulations=4 --param max_steps=2 "
                    "--param prior=" + checkpoint + " --json " + runJson);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  nlohmann::json optimized = readJson(runJson);
  EXPECT_TRUE(optimized["verified"].get<bool>());
  EXPECT_GT(optimized["speedup_pct"].get<double>(), 0.0);
}
