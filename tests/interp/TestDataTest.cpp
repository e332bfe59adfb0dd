// Dummy data is arange(n)/n; random data depends only on (seed, name) and stays in range; random
// weights skip scalars, keep variances positive and scale by fan-in.
#include "interp/TestData.h"

#include "InterpTestSupport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace tessera {
namespace {

using testing::valuesOf;

std::vector<int64_t> valuesOfInts(const Tensor& t) { return {t.ints().begin(), t.ints().end()}; }

TEST(TestDataTest, DummyIsArangeOverCount) {
  EXPECT_EQ(valuesOf(dummyTensor({DType::Float32, {2, 2}})), (std::vector<float>{0, 0.25, 0.5, 0.75}));
  Tensor t = dummyTensor({DType::Float32, {1, 3, 7}});
  for (int64_t i = 0; i < 21; ++i) EXPECT_EQ(t.floatAt(i), static_cast<float>(i / 21.0));
  EXPECT_THROW(dummyTensor({DType::Int64, {2}}), Error);
}

TEST(TestDataTest, RandomDependsOnlyOnSeedAndName) {
  const TensorType type{DType::Float32, {4, 8}};
  Tensor a = randomTensor(type, 7, "w");
  EXPECT_EQ(valuesOf(a), valuesOf(randomTensor(type, 7, "w")));
  EXPECT_NE(valuesOf(a), valuesOf(randomTensor(type, 8, "w")));
  EXPECT_NE(valuesOf(a), valuesOf(randomTensor(type, 7, "v")));
  // The values run in one stream per (seed, name): a longer tensor extends a shorter one.
  Tensor longer = randomTensor({DType::Float32, {64}}, 7, "w");
  for (int64_t i = 0; i < 32; ++i) EXPECT_EQ(longer.floatAt(i), a.floatAt(i));
  // Range and spread.
  Tensor big = randomTensor({DType::Float32, {10000}}, 1, "x", 2.0f, 3.0f);
  double sum = 0;
  for (float v : valuesOf(big)) {
    ASSERT_GE(v, 2.0f);
    ASSERT_LT(v, 3.0f);
    sum += v;
  }
  EXPECT_NEAR(sum / 10000, 2.5, 0.02);
}

TEST(TestDataTest, InputsOfTwoGraphsAgreeByName) {
  Graph g1, g2;
  g1.addInput("x", {DType::Float32, {3, 5}});
  g2.addInput("other", {DType::Float32, {2}});
  g2.addInput("x", {DType::Float32, {3, 5}});
  EXPECT_EQ(valuesOf(randomInputs(g1, 3).at("x")), valuesOf(randomInputs(g2, 3).at("x")));
  EXPECT_EQ(dummyInputs(g2).size(), 2u);
}

TEST(TestDataTest, IntegerInputsStayInTheRangeTheirReadersAccept) {
  // Token ids reach a Gather over 5 rows through a Reshape; a mask feeds a Cast only.
  Graph g;
  NodeId ids = g.addInput("ids", {DType::Int64, {64}});
  NodeId mask = g.addInput("mask", {DType::Int64, {64}});
  NodeId flag = g.addInput("flag", {DType::Bool, {8}});
  NodeId table = g.addWeight("table", Tensor::splat({DType::Float32, {5, 3}}, 1.0));
  NodeId reshaped = g.addNode(OpKind::Reshape, {{ids, 0}}, {{"shape", Shape{8, 8}}});
  g.addOutput({g.addNode(OpKind::Gather, {{table, 0}, {reshaped, 0}}), 0});
  g.addOutput({g.addNode(OpKind::Cast, {{mask, 0}}, {{"to", std::string("f32")}}), 0});
  g.addOutput({g.addNode(OpKind::Not, {{flag, 0}}), 0});

  for (const TensorMap& inputs : {randomInputs(g, 1), randomInputs(g, 2), dummyInputs(g)}) {
    std::set<int64_t> idValues(inputs.at("ids").ints().begin(), inputs.at("ids").ints().end());
    EXPECT_GE(*idValues.begin(), 0);
    EXPECT_LT(*idValues.rbegin(), 5);
    std::set<int64_t> maskValues(inputs.at("mask").ints().begin(), inputs.at("mask").ints().end());
    EXPECT_EQ(maskValues, (std::set<int64_t>{0, 1}));
    EXPECT_EQ(inputs.at("flag").dtype(), DType::Bool);
    EXPECT_NO_THROW(runGraph(g, inputs));
  }
  // 64 draws from [0, 5) hit every value; the seeds give different draws.
  const std::vector<int64_t> first = valuesOfInts(randomInputs(g, 1).at("ids"));
  EXPECT_EQ(std::set<int64_t>(first.begin(), first.end()).size(), 5u);
  EXPECT_NE(first, valuesOfInts(randomInputs(g, 2).at("ids")));
  EXPECT_THROW(randomIntegerTensor({DType::Float32, {2}}, 1, "x", 0, 2), Error);
}

TEST(TestDataTest, RandomWeightsFollowTheDocumentedRules) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {1, 4, 3, 3}});
  NodeId w = g.addWeight("w", Tensor::splat({DType::Float32, {8, 4, 3, 3}}, 0.5));
  NodeId conv = g.addNode(OpKind::Conv, {{x, 0}, {w, 0}});
  std::vector<ValueRef> bn = {{conv, 0}};
  for (const char* name : {"scale", "bias", "mean", "var"}) bn.push_back({g.addWeight(name, Tensor::splat({DType::Float32, {8}}, 1.0)), 0});
  NodeId norm = g.addNode(OpKind::BatchNorm, bn);
  NodeId exponent = g.addWeight("exponent", Tensor::fromFloats({}, {2}));
  g.addWeight("indices", Tensor::fromInts({DType::Int64, {3}}, {0, 1, 2}));
  g.addOutput({g.addNode(OpKind::Pow, {{norm, 0}, {exponent, 0}}), 0});

  TensorMap weights = randomWeights(g, 5);
  EXPECT_EQ(weights.count("exponent"), 0u) << "scalars keep their values";
  EXPECT_EQ(weights.count("indices"), 0u) << "integer weights are not data";
  ASSERT_EQ(weights.count("w"), 1u);
  const float bound = std::sqrt(3.0f / 36.0f); // fan-in 4*3*3
  float largest = 0;
  for (float v : valuesOf(weights.at("w"))) largest = std::max(largest, std::fabs(v));
  EXPECT_LE(largest, bound);
  EXPECT_GT(largest, 0.8f * bound);
  for (float v : valuesOf(weights.at("var"))) {
    EXPECT_GE(v, 0.5f);
    EXPECT_LT(v, 1.5f);
  }
  bool negative = false;
  for (float v : valuesOf(weights.at("mean"))) negative |= v < 0;
  EXPECT_TRUE(negative) << "non-variance vectors span [-1, 1)";
  EXPECT_EQ(valuesOf(weights.at("w")), valuesOf(randomWeights(g, 5).at("w")));
  EXPECT_NE(valuesOf(weights.at("w")), valuesOf(randomWeights(g, 6).at("w")));
}

TEST(TestDataTest, SharedWeightsRejectConflictingTypes) {
  Graph g1, g2;
  g1.addWeight("w", Tensor::zeros({DType::Float32, {2, 3}}));
  g2.addWeight("w", Tensor::zeros({DType::Float32, {3, 2}}));
  const Graph* both[] = {&g1, &g2};
  EXPECT_THROW(randomWeights(both, 1), Error);
}

} // namespace
} // namespace tessera
