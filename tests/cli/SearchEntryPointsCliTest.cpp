// optimize and bench run a model through the same core facade (run/RunModel.h): the same model,
// strategy, seed and cost spec give the same recorded run and the same returned graph from both,
// and a run that fails after its session row began is marked failed from either.
#include "CliRunner.h"

#include "ir/GraphHash.h"
#include "session/Session.h"

#include <gtest/gtest.h>

using tessera::test::makeTempDir;
using tessera::test::runCli;

namespace {

const std::string kSqueezenet = std::string(TESSERA_SOURCE_DIR) + "/samples/squeezenet.onnx";

tessera::RunRecord onlyRun(tessera::Session& session) {
  std::vector<tessera::RunRecord> runs = session.runs();
  EXPECT_EQ(runs.size(), 1u);
  return runs.empty() ? tessera::RunRecord{} : runs.front();
}

// The graph a recorded run returned: its best candidate, or the model when none beat it.
tessera::Graph returnedGraph(tessera::Session& session, const tessera::RunRecord& run) {
  std::vector<tessera::CandidateRecord> candidates = session.candidates(run.id);
  const tessera::CandidateRecord* best = nullptr;
  for (const tessera::CandidateRecord& candidate : candidates)
    if (!best || candidate.costMs < best->costMs) best = &candidate;
  EXPECT_TRUE(best) << "run " << run.id << " recorded no candidate";
  return best ? session.loadCandidate(best->id) : tessera::Graph{};
}

} // namespace

TEST(SearchEntryPoints, OptimizeAndBenchRecordTheSameRunAndReturnTheSameGraph) {
  const std::string dir = makeTempDir("entry-points");
  const std::string common = " --strategy greedy --seed 3 --cost analytic:a100 --time-limit 30 --session ";
  auto optimize = runCli("optimize " + kSqueezenet + common + dir + "/optimize.tsession");
  ASSERT_EQ(optimize.exitCode, 0) << optimize.output;
  auto bench = runCli("bench --models " + kSqueezenet + " --strategies greedy --seed 3 --cost analytic:a100 --time-limit 30 --session " + dir +
                      "/bench.tsession");
  ASSERT_EQ(bench.exitCode, 0) << bench.output;

  tessera::Session fromOptimize = tessera::Session::open(dir + "/optimize.tsession");
  tessera::Session fromBench = tessera::Session::open(dir + "/bench.tsession");
  const tessera::RunRecord a = onlyRun(fromOptimize), b = onlyRun(fromBench);
  EXPECT_EQ(a.info.strategy, b.info.strategy);
  EXPECT_EQ(a.info.seed, 3u);
  EXPECT_EQ(a.info.seed, b.info.seed);
  EXPECT_EQ(a.info.costSpec, "analytic:a100");
  EXPECT_EQ(a.info.costSpec, b.info.costSpec);
  EXPECT_EQ(a.info.parameters, b.info.parameters) << "every setting of the run, the defaults included";
  ASSERT_EQ(fromOptimize.models().size(), 1u);
  ASSERT_EQ(fromBench.models().size(), 1u);
  EXPECT_EQ(fromOptimize.models()[0].name, fromBench.models()[0].name);
  EXPECT_EQ(fromOptimize.models()[0].sourcePath, fromBench.models()[0].sourcePath);
  ASSERT_TRUE(a.summary && b.summary);
  EXPECT_EQ(a.summary->stopReason, b.summary->stopReason);
  EXPECT_DOUBLE_EQ(a.summary->bestCostMs, b.summary->bestCostMs);
  EXPECT_GT(a.summary->speedupPct, 10) << "greedy fuses squeezenet's conv-relu pairs";
  EXPECT_DOUBLE_EQ(a.summary->speedupPct, b.summary->speedupPct);
  EXPECT_EQ(a.summary->verified, std::optional<bool>(true));
  EXPECT_EQ(a.summary->verified, b.summary->verified);
  EXPECT_EQ(fromOptimize.candidates(a.id).size(), fromBench.candidates(b.id).size());
  EXPECT_TRUE(tessera::structurallyEqual(returnedGraph(fromOptimize, a), returnedGraph(fromBench, b)));
}

// Writing eqsat's e-graph where no file can be made fails after the run began: both commands
// leave the run finished and failed in the session, with why.
TEST(SearchEntryPoints, AFailedRunIsMarkedFailedFromOptimizeAndFromBench) {
  const std::string dir = makeTempDir("entry-failed");
  auto optimize = runCli("optimize " + kSqueezenet + " --strategy eqsat --time-limit 5 --egraph-json /dev/null/e.json --session " + dir +
                         "/optimize.tsession");
  EXPECT_NE(optimize.exitCode, 0) << optimize.output;
  auto bench = runCli("bench --models " + kSqueezenet + " --strategies eqsat --time-limit 5 --param eqsat.egraph_json=/dev/null/e.json --session " +
                      dir + "/bench.tsession");
  EXPECT_NE(bench.exitCode, 0) << bench.output;
  for (const char* file : {"/optimize.tsession", "/bench.tsession"}) {
    tessera::Session session = tessera::Session::open(dir + file);
    const tessera::RunRecord run = onlyRun(session);
    ASSERT_TRUE(run.finishedAt && run.summary) << file;
    EXPECT_EQ(run.summary->stopReason.rfind("failed: ", 0), 0u) << file << ": " << run.summary->stopReason;
    EXPECT_NE(run.summary->stopReason.find("/dev/null/e.json"), std::string::npos) << run.summary->stopReason;
  }
}
