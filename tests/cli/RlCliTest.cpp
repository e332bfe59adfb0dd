// `rl train` and `optimize --strategy xrlflow` as a user meets them: a short training run with its
// curve, the agent it writes run as a strategy, and bad checkpoints refused by name. A build
// without libtorch says so for both commands.
#include "CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using tessera::test::makeTempDir;
using tessera::test::runCli;
using tessera::test::readJson;
using tessera::test::expectCleanError;

namespace {

const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";

} // namespace

#if TESSERA_HAVE_TORCH

TEST(RlCli, TrainsAnAgentAndRunsItAsAStrategy) {
  const std::string dir = makeTempDir("rl");
  const std::string checkpoint = dir + "/agent.ckpt", trainJson = dir + "/train.json";
  auto train = runCli("rl train --agent xrlflow --models " + kSamples + "/vgg19.onnx --episodes 3 --horizon 4 --seed 2 --out " +
                      checkpoint + " --json " + trainJson);
  ASSERT_EQ(train.exitCode, 0) << train.output;
  EXPECT_NE(train.output.find("episode 3/3 vgg19"), std::string::npos) << train.output;
  EXPECT_NE(train.output.find("update 1"), std::string::npos) << train.output;
  nlohmann::json report = readJson(trainJson);
  EXPECT_EQ(report["checkpoint"], "agent.ckpt") << "the file's name, not the scratch folder it was written to";
  ASSERT_EQ(report["curve"].size(), 3u);
  for (const auto& point : report["curve"]) {
    EXPECT_EQ(point["model"], "vgg19");
    EXPECT_LE(point["steps"].get<int>(), 4);
  }
  EXPECT_EQ(report["updates"].size(), 1u);
  EXPECT_TRUE(report["argmax_speedup_pct"].contains("vgg19"));

  const std::string runJson = dir + "/run.json";
  const std::string optimize =
      "optimize " + kSamples + "/vgg19.onnx --strategy xrlflow --param max_steps=5 --param checkpoint=" + checkpoint + " --json " + runJson;
  auto run = runCli(optimize);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  nlohmann::json optimized = readJson(runJson);
  EXPECT_EQ(optimized["strategy"], "xrlflow");
  EXPECT_TRUE(optimized["verified"].get<bool>());
  EXPECT_GE(optimized["speedup_pct"].get<double>(), 0.0);
  EXPECT_LE(optimized["steps"].get<int>(), 5);
  EXPECT_EQ(optimized["in_sample"], true) << "the agent trained on vgg19";

  // bench marks an agent's rows on the models it trained on, and says what the mark means.
  const std::string benchJson = dir + "/bench.json";
  auto bench = runCli("bench --models " + kSamples + "/vgg19.onnx " + kSamples + "/squeezenet.onnx --strategies xrlflow " +
                      "--param xrlflow.max_steps=2 --param xrlflow.checkpoint=" + checkpoint + " --cost analytic:h200 --json " + benchJson);
  ASSERT_EQ(bench.exitCode, 0) << bench.output;
  EXPECT_NE(bench.output.find("i: in-sample"), std::string::npos) << bench.output;
  for (const nlohmann::json& row : readJson(benchJson)) {
    ASSERT_TRUE(row.contains("in_sample")) << row.dump();
    EXPECT_EQ(row["in_sample"].get<bool>(), row["model"] == "vgg19") << row.dump();
  }

  // The same run again gives the same graph, and a session keeps whether it is in-sample.
  const std::string session = dir + "/runs.tsession", listing = dir + "/listing.json";
  auto again = runCli(optimize + " --session " + session);
  ASSERT_EQ(again.exitCode, 0) << again.output;
  EXPECT_EQ(readJson(runJson)["optimized_cost_ms"], optimized["optimized_cost_ms"]);
  auto heldOut = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy xrlflow --param max_steps=2 --param checkpoint=" +
                        checkpoint + " --session " + session);
  ASSERT_EQ(heldOut.exitCode, 0) << heldOut.output;
  auto listed = runCli("session " + session + " --json " + listing);
  ASSERT_EQ(listed.exitCode, 0) << listed.output;
  EXPECT_NE(listed.output.find("i: in-sample"), std::string::npos) << listed.output;
  const nlohmann::json runs = readJson(listing)["runs"];
  ASSERT_EQ(runs.size(), 2u) << runs.dump();
  EXPECT_EQ(runs[0]["in_sample"], true) << "vgg19: " << runs.dump();
  EXPECT_EQ(runs[1]["in_sample"], false) << "squeezenet: " << runs.dump();
}

// An RLFlow agent's world model scored on fresh episodes (the reward over every listed rewrite
// too: format 3), and its dream trace played by another policy: greedy takes only rewrites that
// save, and an X-RLflow checkpoint is the only other agent a trace takes.
TEST(RlCli, TheWorldModelIsScoredAndTracedUnderAnotherPolicy) {
  const std::string dir = makeTempDir("rl-world-model");
  const std::string checkpoint = dir + "/rlflow.ckpt", scores = dir + "/scores.json", trace = dir + "/trace.json";
  auto train = runCli("rl train --agent rlflow --models " + kSamples + "/nasrnn.onnx --cost analytic:h200 --horizon 6 --seed 3 "
                      "--world-model-episodes 4 --dream-episodes 0 --param world_model_updates=3 --param evaluate_every=0 --out " + checkpoint);
  ASSERT_EQ(train.exitCode, 0) << train.output;
  auto eval = runCli("rl world-model eval " + checkpoint + " --models " + kSamples + "/nasrnn.onnx --cost analytic:h200 --episodes 2 --json " +
                     scores + " --dream-trace " + trace + " --dream-policy greedy --dream-steps 4");
  ASSERT_EQ(eval.exitCode, 0) << eval.output;
  EXPECT_NE(eval.output.find("over every rewrite the states list"), std::string::npos) << eval.output;
  const nlohmann::json scored = readJson(scores);
  EXPECT_GT(scored["listed_rewrites"].get<int>(), scored["transitions"].get<int>());
  EXPECT_GT(scored["mean_abs_listed_reward"].get<double>(), 0.0);
  const nlohmann::json traced = readJson(trace);
  EXPECT_EQ(traced["policy"], "greedy");
  const nlohmann::json& steps = traced["traces"].at(0)["steps"];
  ASSERT_FALSE(steps.empty());
  for (const auto& step : steps) EXPECT_GT(step["real_reward"].get<double>(), 0.0) << step.dump();

  // The policy must be an X-RLflow agent: the RLFlow checkpoint is refused, naming the file.
  expectCleanError(runCli("rl world-model eval " + checkpoint + " --models " + kSamples + "/nasrnn.onnx --episodes 1 --dream-trace " + trace +
                          " --dream-policy " + checkpoint),
                   "'rlflow' agent");
}

TEST(RlCli, BadCheckpointsAreRefusedByName) {
  const std::string dir = makeTempDir("rl-bad");
  const std::string checkpoint = dir + "/agent.ckpt";
  ASSERT_EQ(runCli("rl train --models " + kSamples + "/vgg19.onnx --episodes 1 --horizon 2 --out " + checkpoint).exitCode, 0);

  const std::string truncated = dir + "/truncated.ckpt";
  std::filesystem::copy_file(checkpoint, truncated);
  std::filesystem::resize_file(truncated, std::filesystem::file_size(truncated) / 2);
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --strategy xrlflow --param checkpoint=" + truncated), "truncated.ckpt");

  const std::string garbage = dir + "/garbage.ckpt";
  std::ofstream(garbage) << "not a checkpoint at all";
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --strategy xrlflow --param checkpoint=" + garbage), "not an agent checkpoint");

  // A pack of one rule is another pack.
  const std::string rules = dir + "/one.rules";
  std::ofstream(rules) << "fuse-conv-relu [fusion]: (Relu (Conv@c{activation=0} ?x ?w)) => (Conv@c{activation=2} ?x ?w)\n";
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --rules " + rules + " --strategy xrlflow --param checkpoint=" + checkpoint),
                   "another rule pack");
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --strategy xrlflow --param checkpoint=" + dir + "/missing.ckpt"),
                   "missing.ckpt");
  expectCleanError(runCli("rl train --agent nosuch --models " + kSamples + "/vgg19.onnx --out " + dir + "/x.ckpt"), "unknown agent");

  // The other agent's checkpoint: RLFlow's strategy and world-model evaluation name the file and what it holds.
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --strategy rlflow --param checkpoint=" + checkpoint), "'xrlflow' agent");
  expectCleanError(runCli("rl world-model eval " + checkpoint + " --models " + kSamples + "/vgg19.onnx"), "'xrlflow' agent");
  expectCleanError(runCli("rl train --agent rlflow --param dream=sometimes --models " + kSamples + "/vgg19.onnx --out " + dir + "/x.ckpt"),
                   "unknown dream mode");
  // A networks' layout this build does not have, and a greedy prior that would not start greedy.
  expectCleanError(runCli("rl train --agent rlflow --param format=4 --models " + kSamples + "/vgg19.onnx --out " + dir + "/x.ckpt"),
                   "--param format=4: must be a number in [1");
  expectCleanError(runCli("rl train --agent rlflow --param greedy_prior=0 --models " + kSamples + "/vgg19.onnx --out " + dir + "/x.ckpt"),
                   "--param greedy_prior=0: must be a number in");
}

#else

TEST(RlCli, ABuildWithoutLibtorchSaysSo) {
  const std::string dir = makeTempDir("rl-none");
  expectCleanError(runCli("optimize " + kSamples + "/vgg19.onnx --strategy xrlflow"), "libtorch");
  expectCleanError(runCli("rl train --models " + kSamples + "/vgg19.onnx --out " + dir + "/agent.ckpt"), "libtorch");
}

#endif
