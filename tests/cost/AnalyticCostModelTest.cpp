#include "cost/AnalyticCostModel.h"
#include "cost/GraphCost.h"
#include "cost/OpWork.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;
} // namespace

TEST(OpWork, ConvAndMatMulFlops) {
  OpSignature conv{OpKind::Conv, {f32({1, 64, 56, 56}), f32({64, 64, 3, 3})}, {f32({1, 64, 56, 56})}, {}};
  EXPECT_DOUBLE_EQ(opWork(conv).flops, 2.0 * 64 * 56 * 56 * 64 * 9);
  EXPECT_DOUBLE_EQ(opWork(conv).bytes, 4.0 * (64 * 56 * 56 * 2 + 64 * 64 * 9));
  OpSignature matmul{OpKind::MatMul, {f32({16, 64, 64}), f32({16, 64, 32})}, {f32({16, 64, 32})}, {}};
  EXPECT_DOUBLE_EQ(opWork(matmul).flops, 2.0 * 16 * 64 * 32 * 64);
  OpSignature reshape{OpKind::Reshape, {f32({4, 4})}, {f32({16})}, {}};
  EXPECT_TRUE(opWork(reshape).isFree);
}

TEST(AnalyticCostModel, RooflinePlusLaunchOverhead) {
  auto model = makeCostModel("analytic:v100");
  EXPECT_EQ(model->spec(), "analytic:v100");
  const DeviceProfile& v100 = *findDeviceProfile("v100");
  // A big conv is compute bound.
  OpSignature conv{OpKind::Conv, {f32({1, 256, 56, 56}), f32({256, 256, 3, 3})}, {f32({1, 256, 56, 56})}, {}};
  double flops = 2.0 * 256 * 56 * 56 * 256 * 9;
  EXPECT_NEAR(model->costMs(conv), (flops / (v100.peakGflops * 1e9 * 0.7) + 4e-6) * 1e3, 1e-9);
  // A relu is memory bound.
  OpSignature relu{OpKind::Relu, {f32({1, 256, 56, 56})}, {f32({1, 256, 56, 56})}, {}};
  EXPECT_NEAR(model->costMs(relu), (2.0 * 4 * 256 * 56 * 56 / (v100.bandwidthGBs * 1e9 * 0.8) + 4e-6) * 1e3, 1e-9);
  // Fusing the relu into the conv is free, so the fused conv costs the same as the plain one.
  OpSignature fused = conv;
  fused.attrs.set("activation", int64_t{2});
  EXPECT_DOUBLE_EQ(model->costMs(fused), model->costMs(conv));
  // Faster hardware is cheaper.
  EXPECT_LT(makeCostModel("analytic:h200")->costMs(conv), model->costMs(conv));
}

TEST(AnalyticCostModel, SpecErrors) {
  EXPECT_EQ(makeCostModel("analytic")->spec(), "analytic:h200");
  EXPECT_THROW(makeCostModel("analytic:tpu"), Error);
  EXPECT_THROW(makeCostModel("quantum"), Error);
}

TEST(GraphCost, SumsOpsAndSkipsPrecomputableWeightChains) {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 4, 8, 8}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({4, 4, 3, 3}), 0.1));
  NodeId scale = g.addWeight("s", Tensor::splat(f32({4, 4, 3, 3}), 2.0));
  NodeId scaled = g.addNode(OpKind::Mul, {{w}, {scale}}); // weights only: precomputable
  NodeId conv = g.addNode(OpKind::Conv, {{x}, {scaled}}, {{"pads", Ints{1, 1, 1, 1}}});
  NodeId relu = g.addNode(OpKind::Relu, {{conv}});
  g.addOutput({relu});
  auto model = makeCostModel("analytic:h200");
  GraphCost cost = graphCost(g, *model);
  EXPECT_EQ(cost.nodeMs[scaled], 0.0);
  EXPECT_GT(cost.nodeMs[conv], 0.0);
  EXPECT_NEAR(cost.totalMs, cost.nodeMs[conv] + cost.nodeMs[relu], 1e-12);
}

#include "cost/CostCache.h"
#include "support/Database.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {
// Counts how often it is asked, so tests can see the cache answer instead.
class CountingModel final : public CostModel {
public:
  explicit CountingModel(int* calls) : calls_(calls) {}
  double costMs(const OpSignature& signature) override {
    ++*calls_;
    return static_cast<double>(signature.key().size());
  }
  std::string spec() const override { return "counting"; }

private:
  int* calls_;
};

std::string tempPath(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / ("tessera-cost-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove(path);
  return path.string();
}
} // namespace

TEST(CostCache, MeasuresEachSignatureOncePerDeviceAcrossRuns) {
  std::string path = tempPath("cache.sqlite");
  OpSignature relu{OpKind::Relu, {f32({8})}, {f32({8})}, {}};
  OpSignature tanh{OpKind::Tanh, {f32({8})}, {f32({8})}, {}};
  int calls = 0;
  {
    CachedCostModel model(std::make_unique<CountingModel>(&calls), std::make_shared<CostCache>(path), "dev-a");
    double first = model.costMs(relu);
    EXPECT_EQ(model.costMs(relu), first);
    model.costMs(tanh);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(model.hits(), 1u);
    EXPECT_EQ(model.misses(), 2u);
  }
  {
    // A second run (a new process in real life) measures nothing for the same device...
    CachedCostModel model(std::make_unique<CountingModel>(&calls), std::make_shared<CostCache>(path), "dev-a");
    model.costMs(relu);
    model.costMs(tanh);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(model.hits(), 2u);
    // ...but another device is measured afresh.
    CachedCostModel other(std::make_unique<CountingModel>(&calls), std::make_shared<CostCache>(path), "dev-b");
    other.costMs(relu);
    EXPECT_EQ(calls, 3);
  }
  EXPECT_EQ(CostCache(path).size("dev-a"), 2u);
}

TEST(CostCache, RefusesForeignAndNewerFiles) {
  std::string foreign = tempPath("foreign.sqlite");
  std::ofstream(foreign) << "this is not sqlite at all, just text that is long enough to look like a header............";
  EXPECT_THROW(CostCache{foreign}, Error);
  std::string newer = tempPath("newer.sqlite");
  { CostCache cache(newer); }
  {
    sql::Database db(newer, sql::Database::Mode::ReadWrite);
    db.execute("PRAGMA user_version=99");
  }
  try {
    CostCache cache(newer);
    FAIL() << "a newer cache must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("newer"), std::string::npos) << e.what();
  }
}
