// `bench --launcher local|slurm --session F`: each launched cell records its run in a session of its own,
// and the driver merges them into F, which then holds what a bench in one process records (the
// same runs with the same results, event logs and candidates); a driver started again on the same
// work directory adds nothing.
#include "CliForTests.h"
#include "ShardsForTests.h"
#include "SlurmCluster.h"

#include "session/Session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

namespace tessera::launch {
namespace {

using testing::runCli;

// Searches that saturate (no time limit reached), so both benches make the same graphs.
std::vector<std::string> bench(const std::string& session) {
  return {"bench", "--models", "squeezenet", "--strategies", "greedy,eqsat", "--seeds", "2", "--session", session};
}

// A run as the comparison sees it: what it was and what it found, and how much it logged.
using RunKey = std::tuple<std::string, uint64_t, std::string, double, double, size_t, size_t>;

std::vector<RunKey> runsOf(const std::string& path) {
  Session session = Session::open(path);
  std::vector<RunKey> keys;
  for (const RunRecord& run : session.runs()) {
    EXPECT_TRUE(run.summary.has_value()) << "run " << run.id << " of " << path << " did not finish";
    if (!run.summary) continue;
    keys.emplace_back(run.info.strategy, run.info.seed, run.summary->stopReason, run.summary->originalCostMs, run.summary->bestCostMs,
                      session.eventCount(run.id), session.candidates(run.id).size());
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

class BenchSessionOnLaunchersTest : public testing::ScratchDirTest {
protected:
  // A bench here, then the same bench on `launcher` twice with one work directory.
  void expectTheMergedSessionOfOneProcess(const std::vector<std::string>& launcher) {
    const CapturedRun here = runCli(bench(dir + "/here.tsession"));
    ASSERT_TRUE(here.exit.succeeded()) << here.output;
    std::vector<std::string> launched = bench(dir + "/launched.tsession");
    launched.insert(launched.end(), launcher.begin(), launcher.end());
    const CapturedRun run = runCli(launched);
    ASSERT_TRUE(run.exit.succeeded()) << run.output;
    EXPECT_NE(run.output.find("merged 4 run(s)"), std::string::npos) << run.output;

    const std::vector<RunKey> expected = runsOf(dir + "/here.tsession");
    ASSERT_EQ(expected.size(), 4u);
    EXPECT_EQ(runsOf(dir + "/launched.tsession"), expected);
    EXPECT_EQ(Session::open(dir + "/launched.tsession").models().size(), 1u) << "the cells' copies of the model are one model";

    // The driver again on the same work directory: every cell is done, and nothing is merged twice.
    const CapturedRun again = runCli(launched);
    ASSERT_TRUE(again.exit.succeeded()) << again.output;
    EXPECT_NE(again.output.find("merged 0 run(s)"), std::string::npos) << again.output;
    EXPECT_EQ(runsOf(dir + "/launched.tsession"), expected);
  }
};

TEST_F(BenchSessionOnLaunchersTest, LocalShardsSessionsMergeIntoTheOneABenchHereRecords) {
  expectTheMergedSessionOfOneProcess({"--launcher", "local", "--work-dir", dir + "/work"});
}

TEST_F(BenchSessionOnLaunchersTest, SlurmShardsSessionsMergeIntoTheOneABenchHereRecords) {
  if (std::string why = testing::SlurmCluster::whyUnavailable(); !why.empty()) GTEST_SKIP() << why;
  testing::SlurmCluster cluster;
  expectTheMergedSessionOfOneProcess({"--launcher", "slurm", "--work-dir", cluster.scratch("bench-session")});
}

} // namespace
} // namespace tessera::launch
