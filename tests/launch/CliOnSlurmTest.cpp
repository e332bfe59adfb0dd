// tessera-cli's launched commands on the one-node test cluster: `tune MODEL --launcher slurm` sends
// its signatures to both placeholder GPUs, merges every shard's records into one database and, run
// again with the same work directory, redoes nothing; `costs profile --launcher slurm` measures
// what the cache lacks in shards and then reports it all as cache hits; `bench --launcher slurm`
// gives the rows a bench in this process gives.
#include "ShardsForTests.h"
#include "SlurmCluster.h"

#include "launch/ChildProcess.h"
#include "tune/TuningDatabase.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <set>

namespace tessera::launch {
namespace {

using testing::readText;
using testing::SlurmCluster;

class CliOnSlurmTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (std::string why = SlurmCluster::whyUnavailable(); !why.empty()) GTEST_SKIP() << why;
    cluster = std::make_unique<SlurmCluster>();
    dir = cluster->scratch("cli");
    setenv("TESSERA_HOST_LOAD", "0", 1); // a quiet host, so the shards' timings are cached whatever the node's load
  }

  CapturedRun cli(std::vector<std::string> args) {
    args.insert(args.begin(), TESSERA_CLI);
    return runCaptured(args, 600);
  }

  std::unique_ptr<SlurmCluster> cluster;
  std::string dir;
};

TEST_F(CliOnSlurmTest, TuneSendsSignaturesToBothGpuSlotsAndMergesTheirRecords) {
  const std::string model = TESSERA_SOURCE_DIR "/samples/transformers/gpt2_block.onnx";
  // One thread per shard, so that the two-core node runs two shards at once, one per GPU.
  const std::vector<std::string> args{"tune", model, "--trials", "1", "--threads", "1", "--launcher", "slurm",
                                      "--work-dir", dir + "/work", "--slurm-args", "--gres=gpu:1",
                                      "--db", dir + "/tuning.sqlite", "--json", dir + "/tune.json"};
  const CapturedRun first = cli(args);
  ASSERT_TRUE(first.exit.succeeded()) << first.output;
  const nlohmann::json report = nlohmann::json::parse(readText(dir + "/tune.json"));
  const size_t signatures = report.at("signatures").size();
  ASSERT_GE(signatures, 2u);
  EXPECT_TRUE(report.at("launch").at("failed").empty());

  std::string logs;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/work/logs")) logs += readText(entry.path().string());
  EXPECT_NE(logs.find("CUDA_VISIBLE_DEVICES=0"), std::string::npos) << logs;
  EXPECT_NE(logs.find("CUDA_VISIBLE_DEVICES=1"), std::string::npos) << logs;

  std::set<std::string> workloads;
  for (const nlohmann::json& signature : report.at("signatures")) workloads.insert(signature.at("workload").get<std::string>());
  const tune::TuningDatabase database(dir + "/tuning.sqlite");
  const std::vector<std::string> stored = database.workloads();
  EXPECT_EQ(std::set<std::string>(stored.begin(), stored.end()), workloads);

  // Again with the same work directory: every shard is found done, nothing is submitted or merged twice.
  const CapturedRun second = cli(args);
  ASSERT_TRUE(second.exit.succeeded()) << second.output;
  EXPECT_EQ(second.output.find("submitted as job"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("merged 0 new record(s)"), std::string::npos) << second.output;
}

TEST_F(CliOnSlurmTest, CostsProfileMeasuresInShardsThenReportsCacheHits) {
  const CapturedRun run = cli({"costs", "--cache", dir + "/costs.sqlite", "profile", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx",
                               TESSERA_SOURCE_DIR "/samples/teaching/phase_ordering.onnx", "--launcher", "slurm", "--work-dir",
                               dir + "/work", "--slurm-max-parallel", "2", "--json", dir + "/costs.json"});
  ASSERT_TRUE(run.exit.succeeded()) << run.output;
  EXPECT_NE(run.output.find("2 shard(s) on slurm"), std::string::npos) << run.output;
  const nlohmann::json report = nlohmann::json::parse(readText(dir + "/costs.json"));
  EXPECT_EQ(report.at("measured").get<int>(), 0);
  EXPECT_EQ(report.at("cache_hits").get<size_t>(), report.at("distinct_signatures").get<size_t>());
}

TEST_F(CliOnSlurmTest, BenchOnSlurmGivesTheRowsOfABenchInThisProcess) {
  // Searches that saturate (no time limit reached), so both runs make the same graphs.
  const std::vector<std::string> bench{"bench", "--models", "squeezenet", "--strategies", "greedy,eqsat", "--seeds", "2"};
  std::vector<std::string> here = bench, launched = bench;
  here.insert(here.end(), {"--json", dir + "/here.json"});
  launched.insert(launched.end(), {"--json", dir + "/slurm.json", "--launcher", "slurm", "--work-dir", dir + "/work"});
  const CapturedRun inProcess = cli(here);
  ASSERT_TRUE(inProcess.exit.succeeded()) << inProcess.output;
  const CapturedRun onSlurm = cli(launched);
  ASSERT_TRUE(onSlurm.exit.succeeded()) << onSlurm.output;
  EXPECT_NE(onSlurm.output.find("4 of 4 shard(s) done"), std::string::npos) << onSlurm.output;
  const nlohmann::json a = nlohmann::json::parse(readText(dir + "/here.json"));
  const nlohmann::json b = nlohmann::json::parse(readText(dir + "/slurm.json"));
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    for (const char* key : {"model", "strategy", "speedup_pct_per_seed", "original_cost_ms", "optimized_cost_ms", "enodes", "verified", "stop_reason"})
      EXPECT_EQ(a[i].at(key), b[i].at(key)) << key << " of row " << i;
  }
}

TEST_F(CliOnSlurmTest, SlurmWithoutAWorkDirIsAnError) {
  const CapturedRun run = cli({"tune", TESSERA_SOURCE_DIR "/samples/nasrnn.onnx", "--launcher", "slurm"});
  EXPECT_FALSE(run.exit.succeeded());
  EXPECT_NE(run.output.find("--launcher slurm needs --work-dir"), std::string::npos) << run.output;
}

} // namespace
} // namespace tessera::launch
