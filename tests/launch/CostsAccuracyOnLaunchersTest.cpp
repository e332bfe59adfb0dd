// `costs accuracy --launcher local|slurm`: a shard per model samples and times its candidates; the
// report built from the shards' pairs names the same candidates, with the same ops and predictions,
// as a run in this process (the timings themselves are the machine's, and differ run to run).
#include "CliForTests.h"
#include "ShardsForTests.h"
#include "SlurmCluster.h"

#include "launch/ShardBoard.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>


namespace tessera::launch {
namespace {

using testing::readText;
using testing::runCli;

// Two small models, three candidates each from e-graphs bounded by nodes (not time), timed briefly.
std::vector<std::string> accuracy(const std::string& dir, const std::string& name) {
  return {"costs", "--cache", dir + "/costs.sqlite", "--json", dir + "/" + name + ".json", "accuracy",
          TESSERA_SOURCE_DIR "/samples/nasrnn.onnx", TESSERA_SOURCE_DIR "/samples/teaching/phase_ordering.onnx", "--cost",
          "analytic:h200", "--executor", "cpu", "--candidates", "3", "--node-limit", "400", "--time-limit", "60", "--warmup", "0",
          "--rounds", "1", "--runs", "1"};
}

void expectTheSamePairs(const nlohmann::json& here, const nlohmann::json& launched) {
  ASSERT_EQ(here.at("pairs").size(), launched.at("pairs").size());
  EXPECT_GE(here.at("pairs").size(), 4u);
  for (size_t i = 0; i < here.at("pairs").size(); ++i)
    for (const char* key : {"model", "candidate", "ops", "predicted_ms", "matches_interpreter"})
      EXPECT_EQ(here["pairs"][i].at(key), launched["pairs"][i].at(key)) << key << " of pair " << i;
  ASSERT_EQ(here.at("models").size(), launched.at("models").size());
  for (size_t m = 0; m < here.at("models").size(); ++m) EXPECT_EQ(here["models"][m].at("model"), launched["models"][m].at("model"));
  EXPECT_EQ(here.at("cost"), launched.at("cost"));
  for (const nlohmann::json& pair : launched.at("pairs")) EXPECT_GT(pair.at("measured_ms").get<double>(), 0.0);
}

class CostsAccuracyOnLaunchersTest : public testing::ScratchDirTest {
protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    const CapturedRun run = runCli(accuracy(dir, "here"));
    ASSERT_TRUE(run.exit.succeeded()) << run.output;
    here = nlohmann::json::parse(readText(dir + "/here.json"));
  }
  nlohmann::json here;
};

TEST_F(CostsAccuracyOnLaunchersTest, LocalShardsGiveTheReportOfOneProcess) {
  std::vector<std::string> args = accuracy(dir, "local");
  args.insert(args.end(), {"--launcher", "local", "--work-dir", dir + "/work"});
  const CapturedRun run = runCli(args);
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_NE(run.output.find("2 of 2 shard(s) done"), std::string::npos) << run.output;
  expectTheSamePairs(here, nlohmann::json::parse(readText(dir + "/local.json")));
  EXPECT_EQ(readShardBoard(dir + "/work").command, "costs-accuracy");
}

TEST_F(CostsAccuracyOnLaunchersTest, AShardReportThatIsNotOneIsAnErrorNamingIt) {
  // A work directory whose first model's report is already there, but is not a report.
  const std::string work = dir + "/work-bad";
  std::filesystem::create_directories(work);
  std::ofstream(work + "/accuracy-0.json") << "{\"pairs\": [{\"model\": 3}]}";
  std::vector<std::string> args = accuracy(dir, "bad");
  args.insert(args.end(), {"--launcher", "local", "--work-dir", work});
  const CapturedRun run = runCli(args);
  EXPECT_FALSE(run.exit.succeeded());
  EXPECT_NE(run.output.find(work + "/accuracy-0.json"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("not a costs accuracy report"), std::string::npos) << run.output;
}

TEST_F(CostsAccuracyOnLaunchersTest, SlurmShardsGiveTheReportOfOneProcess) {
  if (std::string why = testing::SlurmCluster::whyUnavailable(); !why.empty()) GTEST_SKIP() << why;
  testing::SlurmCluster cluster;
  std::vector<std::string> args = accuracy(dir, "slurm");
  args.insert(args.end(), {"--launcher", "slurm", "--work-dir", cluster.scratch("accuracy")});
  const CapturedRun run = runCli(args);
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_NE(run.output.find("2 of 2 shard(s) done"), std::string::npos) << run.output;
  expectTheSamePairs(here, nlohmann::json::parse(readText(dir + "/slurm.json")));
}

} // namespace
} // namespace tessera::launch
