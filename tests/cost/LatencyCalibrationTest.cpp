#include "cost/CostCache.h"
#include "cost/GraphCost.h"
#include "cost/LatencyCalibration.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include <unistd.h>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Graphs of various sizes with latencies made by known coefficients (and optional noise).
std::vector<LatencySample> synthetic(double opScale, double perOpMs, double perMiBMs, double noise, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> opMs(1.0, 40.0), ops(10, 900), mib(5, 400);
  std::normal_distribution<double> jitter(0.0, noise);
  std::vector<LatencySample> graphs;
  for (int i = 0; i < 40; ++i) {
    LatencyFeatures f{opMs(rng), std::round(ops(rng)), mib(rng)};
    const double truth = opScale * f.opMs + perOpMs * f.ops + perMiBMs * f.movedMiB;
    graphs.push_back({f, truth * (1.0 + jitter(rng))});
  }
  return graphs;
}

} // namespace

TEST(LatencyCalibration, TheFitRecoversKnownCoefficientsFromExactTimings) {
  const LatencyCalibration fit = fitLatencyCalibration(synthetic(1.3, 0.012, 0.02, 0.0, 1));
  EXPECT_NEAR(fit.opScale, 1.3, 1e-9);
  EXPECT_NEAR(fit.perOpMs, 0.012, 1e-9);
  EXPECT_NEAR(fit.perMiBMs, 0.02, 1e-9);
  EXPECT_EQ(fit.graphs, 40u);
  EXPECT_NEAR(fit.mapePct, 0.0, 1e-6);
}

TEST(LatencyCalibration, TheFitStaysCloseUnderTwoPercentNoise) {
  const LatencyCalibration fit = fitLatencyCalibration(synthetic(0.9, 0.02, 0.01, 0.02, 2));
  EXPECT_NEAR(fit.opScale, 0.9, 0.05);
  EXPECT_NEAR(fit.perOpMs, 0.02, 0.004);
  EXPECT_NEAR(fit.mapePct, 1.6, 1.0); // about the noise's mean absolute value
}

TEST(LatencyCalibration, ATermThatWouldFitNegativeIsLeftOut) {
  // Latency below the op sum for graphs with many ops: a negative per-op term would fit best, but
  // an op never makes a graph faster, so the fit drops the term instead.
  std::vector<LatencySample> graphs = synthetic(1.0, 0.0, 0.0, 0.0, 3);
  for (LatencySample& g : graphs) g.measuredMs -= 0.001 * g.features.ops;
  const LatencyCalibration fit = fitLatencyCalibration(graphs);
  EXPECT_GE(fit.perOpMs, 0.0);
  EXPECT_GE(fit.perMiBMs, 0.0);
  EXPECT_GT(fit.opScale, 0.0);
}

TEST(LatencyCalibration, NoTimedGraphIsAnError) {
  EXPECT_THROW(fitLatencyCalibration(std::vector<LatencySample>{}), Error);
  EXPECT_THROW(fitLatencyCalibration(std::vector<LatencySample>{{{1, 1, 1}, 0.0}}), Error);
}

namespace {

// Half a millisecond an op, on a runtime that slices contiguous splits or copies them.
class HalfMsModel final : public CostModel {
public:
  explicit HalfMsModel(bool slices) : slices_(slices) {}
  double costMs(const OpSignature&) override { return 0.5; }
  std::string spec() const override { return "test:half-ms"; }
  bool slicesContiguousSplits() const override { return slices_; }

private:
  bool slices_;
};

} // namespace

TEST(LatencyCalibration, PerOpCostsSumToTheGraphPrediction) {
  // relu(x) -> reshape (a view: not executed) -> tanh; the weight-only add is precomputed.
  Graph g;
  const NodeId x = g.addInput("x", f32({64, 64}));
  const NodeId w = g.addWeight("w", Tensor::splat(f32({64, 64}), 1.0));
  const NodeId folded = g.addNode(OpKind::Add, {{w}, {w}});
  const NodeId relu = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Add, {{x}, {folded}})}});
  const NodeId flat = g.addNode(OpKind::Reshape, {{relu}}, {{"shape", std::vector<int64_t>{4096}}});
  g.addOutput({g.addNode(OpKind::Tanh, {{flat}})});
  HalfMsModel model(false);
  EXPECT_EQ(executedOps(g, model).size(), 3u); // add, relu, tanh

  const LatencyFeatures f = latencyFeatures(g, model, [](const OpSignature&) { return 0.5; });
  EXPECT_DOUBLE_EQ(f.opMs, 1.5);
  EXPECT_DOUBLE_EQ(f.ops, 3.0);
  const double mib = 4.0 * 4096 / (1024.0 * 1024.0);
  EXPECT_DOUBLE_EQ(f.movedMiB, 7 * mib); // add reads two tensors, relu and tanh one each; each writes one

  const LatencyCalibration c{2.0, 0.01, 0.5, 10, 3.0};
  double sum = 0;
  for (NodeId id : executedOps(g, model)) sum += c.opCostMs(0.5, signatureOf(g, id));
  EXPECT_NEAR(sum, c.predictMs(f), 1e-12);
}

// A runtime that slices contiguous splits neither runs nor prices them; one along an inner axis of
// a batch of two is copied everywhere, and so is every split where the runtime copies.
TEST(LatencyCalibration, ContiguousSplitsAreViewsWhereTheRuntimeSlicesThem) {
  Graph g;
  const NodeId x = g.addInput("x", f32({1, 8, 4}));
  const NodeId rows = g.addNode(OpKind::Split, {{x}}, {{"axis", int64_t{1}}, {"split", std::vector<int64_t>{3, 5}}});
  const NodeId y = g.addInput("y", f32({2, 8}));
  const NodeId columns = g.addNode(OpKind::Split, {{y}}, {{"axis", int64_t{-1}}, {"split", std::vector<int64_t>{4, 4}}});
  g.addOutput({g.addNode(OpKind::Relu, {{rows, 1}})});
  g.addOutput({g.addNode(OpKind::Tanh, {{columns, 0}})});

  HalfMsModel slicing(true), copying(false);
  EXPECT_TRUE(runsAsView(slicing, signatureOf(g, rows)));
  EXPECT_FALSE(runsAsView(slicing, signatureOf(g, columns))) << "the batch of two puts each piece in two places";
  EXPECT_FALSE(runsAsView(copying, signatureOf(g, rows)));
  EXPECT_EQ(executedOps(g, slicing).size(), 3u); // the column split, relu, tanh
  EXPECT_EQ(executedOps(g, copying).size(), 4u);
  EXPECT_DOUBLE_EQ(latencyFeatures(g, slicing, [](const OpSignature&) { return 0.5; }).ops, 3.0);
}

TEST(LatencyCalibration, TheCostCacheKeepsOneCalibrationPerDevice) {
  const auto path = (std::filesystem::temp_directory_path() / ("tessera-calibration-" + std::to_string(::getpid()) + ".sqlite")).string();
  std::filesystem::remove(path);
  {
    CostCache cache(path);
    EXPECT_FALSE(cache.calibration("cpu:x").has_value());
    cache.storeCalibration("cpu:x", {1.1, 0.02, 0.003, 12, 4.5});
    cache.storeCalibration("cpu:x", {1.2, 0.03, 0.004, 13, 5.5}); // replaces
  }
  CostCache reopened(path);
  const std::optional<LatencyCalibration> c = reopened.calibration("cpu:x");
  ASSERT_TRUE(c.has_value());
  EXPECT_DOUBLE_EQ(c->opScale, 1.2);
  EXPECT_DOUBLE_EQ(c->perOpMs, 0.03);
  EXPECT_DOUBLE_EQ(c->perMiBMs, 0.004);
  EXPECT_EQ(c->graphs, 13u);
  EXPECT_FALSE(reopened.calibration("cpu:y").has_value());
  std::filesystem::remove(path);
}
