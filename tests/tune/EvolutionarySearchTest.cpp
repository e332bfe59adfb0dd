// Evolutionary search: deterministic for a seed, and a candidate that fails to build or crashes is
// a failed trial it learns from, never the end of the tuning run.
#include "TuneTestSupport.h"

#include "tune/CostModel.h"
#include "tune/DiagnosticsJson.h"
#include "tune/EvolutionarySearch.h"
#include "tune/Features.h"
#include "tune/Schedule.h"

#include "support/Error.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace tessera::tune {
namespace {

EvolutionaryOptions smallOptions() {
  EvolutionaryOptions options;
  options.population = 48;
  options.initMinUnmeasured = 16;
  options.generations = 2;
  return options;
}

// A made-up latency that the features can explain: vectorised, register-tiled kernels are fast.
// Every seventh candidate "crashes".
TrialOutcome syntheticOutcome(const Compute& compute, const Trace& trace, int index) {
  const LoopNest nest = replaySchedule(compute, trace).nest();
  TrialOutcome outcome{trace, TrialStatus::Ok, 0};
  if (index % 7 == 6) {
    outcome.status = TrialStatus::Crashed;
    return outcome;
  }
  double width = 0;
  for (const Loop& loop : nest.loops)
    if (loop.annotation == LoopAnnotation::Vectorized) width = static_cast<double>(loop.extent);
  outcome.latencyMs = 10.0 / (1.0 + width) + (nest.registerTileAt >= 0 ? 0.5 : 2.0);
  return outcome;
}

// Three rounds of proposals, each answered with the synthetic outcomes.
std::vector<Trace> proposals(uint64_t seed) {
  const Compute compute = computeOf(parseWorkload("matmul:64x64x64,relu"));
  MultiLevelTilingSpace space;
  EvolutionaryOptions options = smallOptions();
  options.minSamplesToTrain = 4;
  EvolutionarySearch search(compute, space, makeXGBoostModel(seed), options, seed);
  std::vector<Trace> all;
  int index = 0;
  for (int round = 0; round < 3; ++round) {
    std::vector<Trace> batch = search.nextBatch(8);
    EXPECT_EQ(batch.size(), 8u);
    std::vector<TrialOutcome> outcomes;
    for (const Trace& trace : batch) outcomes.push_back(syntheticOutcome(compute, trace, index++));
    search.notify(outcomes);
    all.insert(all.end(), batch.begin(), batch.end());
  }
  EXPECT_TRUE(search.model().trained());
  return all;
}

TEST(EvolutionarySearch, DeterministicForASeed) {
  SKIP_WITHOUT_XGBOOST();
  const std::vector<Trace> first = proposals(5);
  EXPECT_EQ(first, proposals(5));
  EXPECT_NE(first, proposals(6));
}

// The micro-kernel is the innermost tile of each spatial axis, in the compute's axis order.
TEST(EvolutionarySearch, MicroKernelIsTheInnermostTileOfEachAxis) {
  const Compute compute = computeOf(parseWorkload("matmul:64x48x32"));
  const LoopNest nest = MultiLevelTilingSpace().sample(compute, 9).nest();
  auto extentOf = [&](const std::string& name) { return std::to_string(nest.loops[nest.loopIndex(name)].extent); };
  EXPECT_EQ(microKernelOf(nest), extentOf("i.3") + "x" + extentOf("j.3"));
  EXPECT_EQ(microKernelOf(initialNest(compute)), "64x48");
}

// A model sure of one micro-kernel still measures others: after the model is trained, no batch
// holds more than its share of one; with the share at 1 the model fills batches with the favourite.
TEST(EvolutionarySearch, ABatchHoldsAtMostItsShareOfOneMicroKernel) {
  SKIP_WITHOUT_XGBOOST();
  const Compute compute = computeOf(parseWorkload("matmul:64x64x64,relu"));
  MultiLevelTilingSpace space;
  auto largestShareOfABatch = [&](double share) {
    EvolutionaryOptions options = smallOptions();
    options.minSamplesToTrain = 4;
    options.epsilon = 0;
    options.maxShareOfOneMicroKernel = share;
    EvolutionarySearch search(compute, space, makeXGBoostModel(3), options, 3);
    std::string favourite;
    int largest = 0;
    for (int round = 0; round < 4; ++round) {
      std::map<std::string, int> inBatch;
      std::vector<TrialOutcome> outcomes;
      for (const Trace& trace : search.nextBatch(8)) {
        const std::string kernel = microKernelOf(replaySchedule(compute, trace).nest());
        if (favourite.empty()) favourite = kernel;
        if (round > 0) largest = std::max(largest, ++inBatch[kernel]);
        outcomes.push_back({trace, TrialStatus::Ok, kernel == favourite ? 1.0 : 5.0});
      }
      search.notify(outcomes);
    }
    return largest;
  };
  EXPECT_LE(largestShareOfABatch(0.25), 2);
  EXPECT_GT(largestShareOfABatch(1.0), 2);
}

TEST(EvolutionarySearch, NeverProposesAKernelTwice) {
  SKIP_WITHOUT_XGBOOST();
  const Compute compute = computeOf(parseWorkload("matmul:64x64x64,relu"));
  std::set<std::string> nests;
  for (const Trace& trace : proposals(7)) nests.insert(replaySchedule(compute, trace).nest().toString());
  EXPECT_EQ(nests.size(), 24u);
}

// Each round says what it proposed, what failed and how the model's ranking of the measured
// candidates compared with their measured throughput.
TEST(EvolutionarySearch, RoundsReportTheModelsRanking) {
  SKIP_WITHOUT_XGBOOST();
  const Compute compute = computeOf(parseWorkload("matmul:64x64x64,relu"));
  MultiLevelTilingSpace space;
  EvolutionaryOptions options = smallOptions();
  options.minSamplesToTrain = 8;
  EvolutionarySearch search(compute, space, makeXGBoostModel(3), options, 3);
  int index = 0;
  for (int round = 0; round < 4; ++round) {
    std::vector<TrialOutcome> outcomes;
    for (const Trace& trace : search.nextBatch(12)) outcomes.push_back(syntheticOutcome(compute, trace, index++));
    search.notify(outcomes);
  }
  const std::vector<SearchRound>& rounds = search.rounds();
  ASSERT_EQ(rounds.size(), 4u);
  EXPECT_FALSE(rounds[0].modelTrained);
  EXPECT_EQ(rounds[0].fromModel, 0);
  EXPECT_FALSE(rounds[0].spearman.has_value());
  int failed = 0;
  for (const SearchRound& round : rounds) {
    EXPECT_EQ(round.proposed, 12);
    EXPECT_EQ(round.measured, 12);
    EXPECT_GE(round.proposeSeconds, 0);
    failed += round.failed;
  }
  EXPECT_EQ(failed, 48 / 7); // every seventh "crashes"
  for (size_t r = 1; r < rounds.size(); ++r) {
    EXPECT_TRUE(rounds[r].modelTrained);
    EXPECT_GT(rounds[r].fromModel, 6);
    ASSERT_TRUE(rounds[r].spearman.has_value()) << r;
    // The evolved picks are the population's best predicted, above the fresh samples' average.
    EXPECT_GT(rounds[r].meanPredictedPicked, rounds[r].meanPredictedFresh) << r;
  }
  // The synthetic latency is a function of the vector width and the register tile, both features:
  // by the last round the model ranks what it picked better than chance.
  EXPECT_GT(*rounds.back().spearman, 0.3) << "the model learned nothing of the synthetic latency";
  // As `tune --json` reports them.
  const nlohmann::json json = searchRoundsJson(rounds);
  ASSERT_EQ(json.size(), 4u);
  EXPECT_TRUE(json[0]["spearman"].is_null());
  EXPECT_EQ(json[0]["model_trained"], false);
  EXPECT_DOUBLE_EQ(json[2]["spearman"].get<double>(), *rounds[2].spearman);
  EXPECT_EQ(json[3]["from_model"].get<int>(), rounds[3].fromModel);
  EXPECT_EQ(json[1]["proposed"].get<int>(), 12);
}

TEST(EvolutionarySearch, FailedCandidatesAreRecordedTrials) {
  SKIP_WITHOUT_XGBOOST();
  CpuTuneSettings settings = test::quickSettings();
  settings.search = "evolutionary";
  settings.evolutionary = smallOptions();
  settings.evolutionary.minSamplesToTrain = 2;
  auto context = makeCpuTuneContext(parseWorkload("matmul:16x16x16,relu"), settings);
  context->builder = std::make_unique<test::BreakingBuilder>(std::move(context->builder));
  TuningDatabase database(":memory:");
  context->database = &database;
  TuneOptions options;
  options.trials = 12;
  options.batchSize = 4;
  TuneResult result = tune(*context, options);
  EXPECT_EQ(result.trials, 12);
  EXPECT_EQ(result.failed, 6);
  EXPECT_EQ(result.verified, 6);
  ASSERT_TRUE(result.best.has_value());
  int compileErrors = 0;
  for (const TuningRecord& record : database.records()) {
    EXPECT_EQ(record.search, "evolutionary");
    compileErrors += record.status == TrialStatus::CompileError;
  }
  EXPECT_EQ(compileErrors, 6);
  // Where the time went: every phase ran, and together they are the run.
  const TuneTimes& t = result.times;
  EXPECT_GT(t.build, 0);
  EXPECT_GT(t.run, 0);
  EXPECT_GT(t.propose, 0);
  EXPECT_GT(t.learn, 0);
  EXPECT_LE(t.propose + t.lower + t.build + t.run + t.learn, result.seconds);
  const nlohmann::json json = timeBreakdownJson(t);
  EXPECT_DOUBLE_EQ(json["build"].get<double>(), t.build);
  EXPECT_DOUBLE_EQ(json["run"].get<double>(), t.run);
  EXPECT_EQ(json.size(), 5u);
  // The search went on past the failures with a model trained on them.
  auto& search = dynamic_cast<EvolutionarySearch&>(*context->strategy);
  EXPECT_TRUE(search.model().trained());
}

TEST(EvolutionarySearch, UnavailableWithoutXGBoostSaysSo) {
  if (xgboostAvailable()) GTEST_SKIP() << "this build has XGBoost";
  CpuTuneSettings settings = test::quickSettings();
  settings.search = "evolutionary";
  try {
    makeCpuTuneContext(parseWorkload("matmul:8x8x8"), settings);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("libxgboost-dev"), std::string::npos) << error.what();
  }
}

} // namespace
} // namespace tessera::tune
