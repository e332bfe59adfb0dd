// The XGBoost cost model: it ranks candidates it has not seen better than chance, on a synthetic
// latency and on measured tuning records, and it reports bad input as an error.
#include "TuneTestSupport.h"

#include "tune/CostModel.h"
#include "tune/DesignSpace.h"
#include "tune/Features.h"
#include "tune/RankCorrelation.h"
#include "tune/Schedule.h"
#include "tune/Trace.h"
#include "tune/XGBoostModel.h"

#include "support/Error.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

namespace tessera::tune {
namespace {

struct Sample {
  std::vector<float> features;
  float score = 0;
};

// Trains on every sample but each fifth, and returns the Spearman correlation of the predicted
// and the true scores of the held-out fifth.
double heldOutSpearman(const std::vector<Sample>& samples) {
  FeatureRows train, test;
  std::vector<float> trainScores;
  std::vector<double> testScores;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i % 5 == 4) {
      test.push_back(samples[i].features);
      testScores.push_back(samples[i].score);
      continue;
    }
    train.push_back(samples[i].features);
    trainScores.push_back(samples[i].score);
  }
  auto model = makeXGBoostModel(1);
  model->fit(train, trainScores);
  const std::vector<float> predicted = model->predict(test);
  return spearman(std::vector<double>(predicted.begin(), predicted.end()), testScores).value_or(0);
}

// A latency the features do not contain directly: a roofline over the innermost loop's
// vectorisation and the traffic of the block that fits 32 KiB.
double syntheticLatency(const LoopNest& nest) {
  double vectorWidth = 1, traffic = 0;
  for (const Loop& loop : nest.loops)
    if (loop.annotation == LoopAnnotation::Vectorized) vectorWidth = std::min<double>(static_cast<double>(loop.extent), 16);
  const Compute& c = nest.compute;
  const Access* accesses[] = {&c.lhs, &c.rhs, &c.output};
  double inner = 1, bytes = 0;
  for (size_t i = nest.loops.size(); i-- > 0;) {
    double elements[3] = {1, 1, 1};
    double iterations = 1;
    for (size_t j = i; j < nest.loops.size(); ++j) {
      iterations *= static_cast<double>(nest.loops[j].extent);
      for (int b = 0; b < 3; ++b)
        if (accesses[b]->coeff[nest.loops[j].axis] != 0) elements[b] *= static_cast<double>(nest.loops[j].extent);
    }
    const double blockBytes = 4 * (elements[0] + elements[1] + elements[2]);
    if (blockBytes > 32768) break;
    inner = iterations;
    bytes = blockBytes;
  }
  traffic = bytes * c.workload.flops() / 2 / inner;
  return c.workload.flops() / (vectorWidth * 1e9) + traffic / 1e10;
}

TEST(CostModel, RanksUnseenCandidatesOfASyntheticLatency) {
  SKIP_WITHOUT_XGBOOST();
  const Compute compute = computeOf(parseWorkload("matmul:512x512x512"));
  MultiLevelTilingSpace space;
  std::vector<Sample> samples;
  std::vector<double> latencies;
  for (uint64_t seed = 0; seed < 250; ++seed) {
    const LoopNest nest = space.sample(compute, seed).nest();
    samples.push_back({extractFeatures(nest), 0});
    latencies.push_back(syntheticLatency(nest));
  }
  const double best = *std::min_element(latencies.begin(), latencies.end());
  for (size_t i = 0; i < samples.size(); ++i) samples[i].score = static_cast<float>(best / latencies[i]);
  const double rho = heldOutSpearman(samples);
  RecordProperty("spearman", std::to_string(rho));
  EXPECT_GT(rho, 0.7);
}

// tests/tune/data/: the records of `tessera-cli tune ... --search random --records F` runs, each
// reduced to its trace's decisions and its outcome (compact_records.py); the design space's
// program gives the instructions back.
std::vector<Sample> recordedSamples(const std::string& file) {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/tests/tune/data/" + file);
  EXPECT_TRUE(in) << file;
  MultiLevelTilingSpace space;
  std::vector<std::pair<LoopNest, double>> measured;
  std::string line;
  double best = 0;
  while (std::getline(in, line)) {
    const nlohmann::json record = nlohmann::json::parse(line);
    const Compute compute = computeOf(parseWorkload(record.at("workload").get<std::string>()));
    Trace trace = space.sample(compute, 0).trace();
    const std::vector<size_t> sampling = trace.samplingInstructions();
    const auto decisions = record.at("decisions").get<std::vector<std::vector<int64_t>>>();
    EXPECT_EQ(decisions.size(), sampling.size()) << line;
    for (size_t i = 0; i < sampling.size() && i < decisions.size(); ++i) trace.instructions[sampling[i]].decision = decisions[i];
    const double latency = record.at("status") == "ok" ? record.at("latency_ms").get<double>() : 0;
    measured.emplace_back(replaySchedule(compute, trace).nest(), latency);
    if (latency > 0 && (best == 0 || latency < best)) best = latency;
  }
  std::vector<Sample> samples;
  for (const auto& [nest, latency] : measured)
    samples.push_back({extractFeatures(nest), latency > 0 ? static_cast<float>(best / latency) : 0.0f});
  return samples;
}

TEST(CostModel, RanksUnseenMeasuredCandidates) {
  SKIP_WITHOUT_XGBOOST();
  for (const char* file : {"matmul_512x512x512_random.jsonl", "conv2d_1x64x56x56_random.jsonl"}) {
    const std::vector<Sample> samples = recordedSamples(file);
    ASSERT_GE(samples.size(), 100u) << file;
    const double rho = heldOutSpearman(samples);
    RecordProperty(std::string("spearman_") + file, std::to_string(rho));
    // 40 held out: chance exceeds 0.37 once in a hundred. The timings are noisy (two threads on a
    // shared machine), which caps what any model can reach: 0.52 and 0.55 when recorded.
    EXPECT_GT(rho, 0.4) << file;
  }
}

// MetaSchedule's objective weights each sample by its score: a failure (score 0) then says nothing
// about its features. Off by default (see XGBoostOptions).
TEST(CostModel, WeightingByScoreIgnoresFailures) {
  SKIP_WITHOUT_XGBOOST();
  const FeatureRows rows{{1}, {1}, {1}, {1}, {0}, {0}};
  const std::vector<float> scores{1, 0, 0, 0, 0.5f, 0.5f};
  XGBoostOptions weighted;
  weighted.weightByScore = true;
  XGBoostModel byScore(weighted);
  byScore.fit(rows, scores);
  EXPECT_NEAR(byScore.predict({{1}})[0], 1.0, 0.05);
  XGBoostModel plain{XGBoostOptions{}};
  plain.fit(rows, scores);
  EXPECT_NEAR(plain.predict({{1}})[0], 0.25, 0.05);
}

// Boosting stops once the training rmse has not improved for earlyStoppingRounds.
TEST(CostModel, BoostingStopsEarly) {
  SKIP_WITHOUT_XGBOOST();
  XGBoostOptions options;
  options.maxRounds = 5000;
  options.earlyStoppingRounds = 20;
  XGBoostModel model(options);
  model.fit({{0}, {1}, {2}, {3}}, {0.1f, 0.4f, 0.7f, 1.0f});
  EXPECT_GT(model.lastRounds(), 20);
  EXPECT_LT(model.lastRounds(), 5000);
  options.maxRounds = 7;
  XGBoostModel capped(options);
  capped.fit({{0}, {1}, {2}, {3}}, {0.1f, 0.4f, 0.7f, 1.0f});
  EXPECT_EQ(capped.lastRounds(), 7);
}

TEST(CostModel, BadInputIsAnError) {
  SKIP_WITHOUT_XGBOOST();
  auto model = makeXGBoostModel(1);
  EXPECT_FALSE(model->trained());
  EXPECT_EQ(model->predict({{1, 2}, {3, 4}}), (std::vector<float>{0, 0}));
  EXPECT_THROW(model->fit({{1, 2}, {3}}, {0.5f, 1}), Error);
  EXPECT_THROW(model->fit({{1, 2}}, {0.5f, 1}), Error);
  model->fit({{1, 2}, {3, 4}, {5, 6}}, {0.1f, 0.5f, 1});
  EXPECT_TRUE(model->trained());
  EXPECT_THROW(model->predict({{1, 2, 3}}), Error);
}

} // namespace
} // namespace tessera::tune
