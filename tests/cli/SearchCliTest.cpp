// The search commands as a user meets them: every strategy through `optimize`, pins and vetoes,
// `bench` rows, and sessions written by `optimize --session` and listed by `session`.
#include "CliRunner.h"

#include "session/Session.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

using tessera::test::makeTempDir;
using tessera::test::runCli;
using tessera::test::readJson;
using tessera::test::expectCleanError;

namespace {

const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST(SearchCli, EveryStrategyOptimisesAndVerifies) {
  std::string dir = makeTempDir("strategies");
  // Small budgets keep this quick; the benchmark figures come from `bench`.
  // Each must reach a floor a little below what it reached on 2026-11-28 (greedy, eqsat and mcts
  // 47.73 %, taso with 20 graphs 30.23 %), so a strategy that stops rewriting fails here.
  struct Run {
    const char* strategy;
    const char* parameters;
    double floorPct;
  };
  const Run runs[] = {{"greedy", "", 40.0}, {"taso", " --param budget=20", 25.0}, {"eqsat", "", 45.0}, {"mcts", " --param simulations=8", 45.0}};
  for (const auto& [strategy, parameters, floorPct] : runs) {
    std::string json = dir + "/" + strategy + ".json";
    auto result = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy " + strategy + " --time-limit 20" +
                         parameters + " --json " + json);
    ASSERT_EQ(result.exitCode, 0) << strategy << "\n" << result.output;
    nlohmann::json report = readJson(json);
    EXPECT_EQ(report["strategy"], strategy);
    EXPECT_TRUE(report["verified"].get<bool>()) << strategy;
    EXPECT_GE(report["speedup_pct"].get<double>(), floorPct) << strategy;
    EXPECT_FALSE(report["rules_applied"].empty()) << strategy;
  }
  // A parameter the strategy does not know is refused before any work.
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --strategy eqsat --param simulations=8"), "simulations");
}

TEST(SearchCli, VetoedRuleIsNeverAppliedAndUnknownRulesAreRefused) {
  std::string dir = makeTempDir("veto");
  auto plain = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy eqsat --no-verify --json " + dir + "/plain.json");
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  nlohmann::json applied = readJson(dir + "/plain.json")["rules_applied"];
  ASSERT_FALSE(applied.empty());
  const std::string rule = applied.begin().key();
  auto vetoed = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy eqsat --no-verify --veto " + rule + " --json " +
                       dir + "/vetoed.json");
  ASSERT_EQ(vetoed.exitCode, 0) << vetoed.output;
  nlohmann::json report = readJson(dir + "/vetoed.json");
  EXPECT_FALSE(report["rules_applied"].contains(rule)) << rule;
  EXPECT_EQ(report["vetoed"][0], rule);

  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --veto no-such-rule"), "no-such-rule");
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --pin no-such-rule"), "no-such-rule");
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --pin " + rule + " --veto " + rule), rule);
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --strategy annealing"), "annealing");
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --param simulations"), "NAME=VALUE");
}

TEST(SearchCli, BenchWritesOneRowPerModelAndStrategy) {
  std::string dir = makeTempDir("bench");
  auto result = runCli("bench --models squeezenet " + kSamples + "/vgg19.onnx --strategies greedy,eqsat --time-limit 10 --json " +
                       dir + "/bench.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("mean"), std::string::npos) << result.output;
  nlohmann::json rows = readJson(dir + "/bench.json");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    for (const char* key : {"model", "strategy", "speedup_pct", "optimize_seconds", "enodes", "verified"})
      EXPECT_TRUE(row.contains(key)) << key;
    EXPECT_TRUE(row["verified"].get<bool>()) << row.dump();
  }
  EXPECT_EQ(rows[0]["model"], "squeezenet");
  EXPECT_EQ(rows[2]["model"], "vgg19");
  expectCleanError(runCli("bench --models no-such-model"), "no-such-model");
}

// Two model files with one stem (TENSAT's vgg19 is another graph than samples/vgg19.onnx) are two
// rows, each with its own figures, labelled by folder; the published figures are vgg19's for both.
TEST(SearchCli, BenchTellsApartModelsThatShareAStem) {
  std::string dir = makeTempDir("bench-stems");
  auto result = runCli("bench --models " + kSamples + "/vgg19.onnx " + kSamples + "/tensat/vgg19.onnx --strategies greedy --json " +
                       dir + "/bench.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  nlohmann::json rows = readJson(dir + "/bench.json");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["model"], "samples/vgg19");
  EXPECT_EQ(rows[1]["model"], "tensat/vgg19");
  EXPECT_NE(result.output.find("samples/vgg19"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("tensat/vgg19"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("12.48%"), std::string::npos) << "PACT'24's vgg19 figure, found for a folder label: " << result.output;
}

// --suite real: the exported models of samples/real at their documented shapes; --models picks some.
TEST(SearchCli, BenchRunsTheRealSuiteAtItsDocumentedShapes) {
  std::string dir = makeTempDir("bench-real");
  auto result = runCli("bench --suite real --models ppocr_mobile_v2_cls gpt2_block --strategies greedy --json " + dir + "/bench.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  nlohmann::json rows = readJson(dir + "/bench.json");
  ASSERT_EQ(rows.size(), 2u) << rows.dump();
  for (const auto& row : rows) {
    EXPECT_TRUE(row["verified"].get<bool>()) << row.dump();
    EXPECT_GT(row["speedup_pct"].get<double>(), 0.0) << "no rule rewrote " << row["model"];
    EXPECT_LT(row["noise_to_signal"].get<double>(), 1e-3) << row.dump();
  }
  EXPECT_EQ(rows[0]["model"], "ppocr_mobile_v2_cls");
  EXPECT_EQ(rows[1]["model"], "gpt2_block");
  expectCleanError(runCli("bench --suite real --models no-such-model"), "has no model 'no-such-model'");
  expectCleanError(runCli("bench --suite real --dim N=2"), "do not apply to --suite real");
}

// --k-multi: TENSAT's iterations of multi-pattern rules, as its run script sweeps them. On NasRNN
// the second iteration merges the matmuls the first one created, so the e-graph grows.
TEST(SearchCli, BenchKMultiSetsTheMultiPatternIterationsOfEqsat) {
  std::string dir = makeTempDir("bench-kmulti");
  std::map<int, int64_t> enodes;
  for (int k : {1, 2}) {
    const std::string json = dir + "/k" + std::to_string(k) + ".json";
    auto result = runCli("bench --models nasrnn --strategies eqsat --k-multi " + std::to_string(k) + " --time-limit 20 --json " + json);
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("k_multi " + std::to_string(k)), std::string::npos) << result.output;
    const nlohmann::json rows = readJson(json);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_TRUE(rows[0]["verified"].get<bool>()) << rows[0].dump();
    enodes[k] = rows[0]["enodes"].get<int64_t>();
  }
  EXPECT_GT(enodes[2], enodes[1]);
  tessera::test::CliResult refused = runCli("bench --models nasrnn --strategies eqsat --k-multi -1");
  EXPECT_NE(refused.exitCode, 0);
  EXPECT_NE(refused.output.find("--k-multi"), std::string::npos) << refused.output;
}

// --seeds N: one row per model and strategy with the mean, the spread and each seed's speedup;
// the paper suite's models get PACT'24's published speedups beside them.
TEST(SearchCli, BenchWithSeedsReportsTheMeanAndSpreadBesidePact24) {
  std::string dir = makeTempDir("bench-seeds");
  auto result = runCli("bench --suite tensat --models nasrnn --strategies greedy --seeds 2 --time-limit 10 --json " + dir +
                       "/bench.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("PACT'24"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("10.22%"), std::string::npos) << result.output; // TENSAT's NASRNN in the paper
  EXPECT_NE(result.output.find("±"), std::string::npos) << result.output;
  nlohmann::json rows = readJson(dir + "/bench.json");
  ASSERT_EQ(rows.size(), 1u);
  const nlohmann::json& row = rows[0];
  EXPECT_EQ(row["seeds"], 2);
  ASSERT_EQ(row["speedup_pct_per_seed"].size(), 2u);
  const double first = row["speedup_pct_per_seed"][0], second = row["speedup_pct_per_seed"][1];
  EXPECT_NEAR(row["speedup_pct"].get<double>(), (first + second) / 2, 1e-9);
  EXPECT_NEAR(row["speedup_pct_std"].get<double>(), std::abs(first - second) / std::sqrt(2.0), 1e-9);
  EXPECT_TRUE(row["verified"].get<bool>()) << row.dump();
  tessera::test::CliResult refused = runCli("bench --models nasrnn --strategies greedy --seeds 0");
  EXPECT_NE(refused.exitCode, 0);
  EXPECT_NE(refused.output.find("--seeds"), std::string::npos) << refused.output;
}

TEST(SearchCli, SessionRecordsRunsWhereAVetoedRuleNeverAppears) {
  std::string dir = makeTempDir("session");
  const std::string session = dir + "/runs.tsession";
  const std::string vetoed = "fuse-conv-relu";
  for (const char* strategy : {"mcts", "greedy"}) {
    auto result = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy " + strategy +
                         " --param simulations=4 --param rollout_depth=1 --time-limit 20 --veto " + vetoed + " --session " + session);
    if (std::string(strategy) == "greedy") // greedy has no simulations: refused, and the session is untouched
      expectCleanError(result, "has no parameter");
    else
      ASSERT_EQ(result.exitCode, 0) << result.output;
  }
  auto greedy = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --session " + session);
  ASSERT_EQ(greedy.exitCode, 0) << greedy.output;

  tessera::Session store = tessera::Session::open(session);
  ASSERT_EQ(store.models().size(), 1u); // the same model is stored once
  std::vector<tessera::RunRecord> runs = store.runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].info.strategy, "mcts");
  EXPECT_EQ(runs[1].info.strategy, "greedy");
  size_t decisions = 0;
  for (const tessera::Event& event : store.events(runs[0].id)) {
    if (auto* applied = std::get_if<tessera::RuleApplied>(&event.payload)) {
      EXPECT_NE(applied->rule, vetoed);
    }
    if (auto* decision = std::get_if<tessera::UserDecision>(&event.payload)) {
      EXPECT_EQ(decision->kind, tessera::DecisionKind::Veto);
      EXPECT_EQ(decision->rule, vetoed);
      ++decisions;
    }
  }
  EXPECT_EQ(decisions, 1u);
  std::vector<tessera::CandidateRecord> candidates = store.candidates(runs[0].id);
  ASSERT_FALSE(candidates.empty());
  for (const tessera::CandidateRecord& candidate : candidates)
    for (const tessera::ProvenanceRecord& origin : store.provenance(candidate.id)) EXPECT_NE(origin.rule, vetoed);

  // `session` lists both runs; a file that is not a session is refused and left as it was.
  auto listing = runCli("session " + session + " --json " + dir + "/session.json");
  ASSERT_EQ(listing.exitCode, 0) << listing.output;
  EXPECT_EQ(readJson(dir + "/session.json")["runs"].size(), 2u);
  std::string bogus = dir + "/bogus.tsession";
  std::ofstream(bogus) << "not a session";
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --session " + bogus), "bogus.tsession");
  EXPECT_EQ(readBytes(bogus), "not a session");
}

// A run that fails after its session row was begun (here: the optimised model cannot be written)
// is marked failed in the session with the error, never left without a finish.
TEST(SearchCli, AFailedRunIsMarkedFailedInItsSession) {
  const std::string dir = makeTempDir("failed-run");
  const std::string session = dir + "/runs.tsession";
  auto optimize = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy greedy --session " + session + " --out /dev/null/opt.onnx");
  EXPECT_NE(optimize.exitCode, 0) << optimize.output;
  tessera::Session store = tessera::Session::open(session);
  const std::vector<tessera::RunRecord> runs = store.runs();
  ASSERT_EQ(runs.size(), 1u);
  for (const tessera::RunRecord& run : runs) {
    ASSERT_TRUE(run.finishedAt.has_value()) << "run " << run.id << " has no finish";
    ASSERT_TRUE(run.summary.has_value());
    EXPECT_EQ(run.summary->stopReason.rfind("failed: ", 0), 0u) << run.summary->stopReason;
  }
  EXPECT_NE(runs[0].summary->stopReason.find("/dev/null/opt.onnx"), std::string::npos) << runs[0].summary->stopReason;
}
