// verifyEquivalent accepts rewrites TENSAT makes (fused activation, matmuls merged through a
// concatenated weight) and rejects subtly wrong ones: a weight used transposed under the same
// name and shape, which only random weights by name can expose.
#include "interp/Verify.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

namespace tessera {
namespace {

// conv(x, w) with an optional fused activation, or followed by a separate Relu node.
Graph convGraph(bool fusedRelu, const std::vector<int64_t>& weightPerm = {}) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {1, 3, 8, 8}});
  NodeId w = g.addWeight("w", Tensor::splat({DType::Float32, {4, 3, 3, 3}}, 0.1));
  NodeId b = g.addWeight("b", Tensor::splat({DType::Float32, {4}}, 0.0));
  ValueRef weight{w, 0};
  if (!weightPerm.empty()) weight = {g.addNode(OpKind::Transpose, {weight}, {{"perm", weightPerm}}), 0};
  Attributes attrs{{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  if (fusedRelu) attrs.set("activation", int64_t{2});
  NodeId conv = g.addNode(OpKind::Conv, {{x, 0}, weight, {b, 0}}, attrs);
  NodeId out = fusedRelu ? conv : g.addNode(OpKind::Relu, {{conv, 0}});
  g.addOutput({out, 0}, "y");
  return g;
}

TEST(VerifyTest, FusedActivationIsEquivalentToSeparateRelu) {
  VerifyResult result = verifyEquivalent(convGraph(false), convGraph(true));
  EXPECT_TRUE(result.equivalent) << result.worst;
  EXPECT_LT(result.maxAbsError, 1e-6);
}

// Two matmuls of one input, concatenated, against one matmul with the weights concatenated; the
// weights concatenated in the wrong order have the same shape and must be caught.
enum class MatmulVariant { Separate, Merged, MergedSwapped };

Graph matmulGraph(MatmulVariant variant) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {5, 6}});
  NodeId w1 = g.addWeight("w1", Tensor::zeros({DType::Float32, {6, 3}}));
  NodeId w2 = g.addWeight("w2", Tensor::zeros({DType::Float32, {6, 4}}));
  NodeId out;
  if (variant == MatmulVariant::Separate) {
    NodeId m1 = g.addNode(OpKind::MatMul, {{x, 0}, {w1, 0}});
    NodeId m2 = g.addNode(OpKind::MatMul, {{x, 0}, {w2, 0}});
    out = g.addNode(OpKind::Concat, {{m1, 0}, {m2, 0}}, {{"axis", int64_t{1}}});
  } else {
    std::vector<ValueRef> parts = {{w1, 0}, {w2, 0}};
    if (variant == MatmulVariant::MergedSwapped) std::swap(parts[0], parts[1]);
    NodeId w = g.addNode(OpKind::Concat, parts, {{"axis", int64_t{1}}});
    out = g.addNode(OpKind::MatMul, {{x, 0}, {w, 0}});
  }
  g.addOutput({out, 0}, "y");
  return g;
}

TEST(VerifyTest, ConcatOfMatmulsEqualsMatmulWithConcatenatedWeights) {
  VerifyOptions options;
  options.trials = 4;
  VerifyResult result = verifyEquivalent(matmulGraph(MatmulVariant::Separate), matmulGraph(MatmulVariant::Merged), options);
  EXPECT_TRUE(result.equivalent) << result.worst;
  EXPECT_LT(result.maxAbsError, 1e-5);
  VerifyResult swapped = verifyEquivalent(matmulGraph(MatmulVariant::Separate), matmulGraph(MatmulVariant::MergedSwapped), options);
  EXPECT_FALSE(swapped.equivalent);
}

TEST(VerifyTest, TransposedWeightWithTheSameNameAndShapeIsRejected) {
  // The graphs' own weights are splats, symmetric under any transpose: only random weights by
  // name tell the two apart.
  Graph original = convGraph(true);
  Graph wrong = convGraph(true, {0, 1, 3, 2}); // kernel transposed in space: same shape
  VerifyOptions ownWeights;
  ownWeights.randomizeWeights = false;
  EXPECT_TRUE(verifyEquivalent(original, wrong, ownWeights).equivalent);
  VerifyResult result = verifyEquivalent(original, wrong);
  EXPECT_FALSE(result.equivalent);
  EXPECT_EQ(result.worst.rfind("output 0 (y) element [0,", 0), 0u) << result.worst;
  EXPECT_NE(result.worst.find(" vs "), std::string::npos) << result.worst;
  EXPECT_GT(result.maxAbsError, 1e-3);
}

// conv + BatchNorm against the conv with the BatchNorm folded into its weight and bias.
Graph batchNormGraph(bool folded, float epsilon) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {2, 3, 6, 6}});
  NodeId w = g.addWeight("w", Tensor::zeros({DType::Float32, {5, 3, 3, 3}}));
  NodeId b = g.addWeight("b", Tensor::zeros({DType::Float32, {5}}));
  std::vector<ValueRef> bn;
  for (const char* name : {"scale", "shift", "mean", "var"}) bn.push_back({g.addWeight(name, Tensor::zeros({DType::Float32, {5}})), 0});
  Attributes eps{{"epsilon", epsilon}};
  NodeId out;
  if (folded) {
    NodeId weight = g.addNode(OpKind::FoldBatchNormWeight, {{w, 0}, bn[0], bn[3]}, eps);
    NodeId bias = g.addNode(OpKind::FoldBatchNormBias, {bn[0], bn[1], bn[2], bn[3], {b, 0}}, eps);
    out = g.addNode(OpKind::Conv, {{x, 0}, {weight, 0}, {bias, 0}});
  } else {
    NodeId conv = g.addNode(OpKind::Conv, {{x, 0}, {w, 0}, {b, 0}});
    std::vector<ValueRef> inputs = {{conv, 0}};
    inputs.insert(inputs.end(), bn.begin(), bn.end());
    out = g.addNode(OpKind::BatchNorm, inputs, eps);
  }
  g.addOutput({out, 0}, "y");
  return g;
}

TEST(VerifyTest, BatchNormFoldedIntoTheConvIsEquivalent) {
  VerifyResult result = verifyEquivalent(batchNormGraph(false, 1e-3f), batchNormGraph(true, 1e-3f));
  EXPECT_TRUE(result.equivalent) << result.worst;
  // A different epsilon in the fold is a (small but real) error.
  VerifyOptions strict;
  strict.rtol = 1e-6;
  strict.atol = 1e-7;
  EXPECT_FALSE(verifyEquivalent(batchNormGraph(false, 1e-3f), batchNormGraph(true, 1e-1f), strict).equivalent);
}

TEST(VerifyTest, ToleranceIsRelativeToTheOriginal) {
  auto scaled = [](float factor) {
    Graph g;
    NodeId x = g.addInput("x", {DType::Float32, {100}});
    NodeId s = g.addWeight("s", Tensor::fromFloats({}, {factor}));
    g.addOutput({g.addNode(OpKind::ScalarMul, {{x, 0}, {s, 0}}), 0}, "y");
    return g;
  };
  VerifyResult loose = verifyEquivalent(scaled(1.0f), scaled(1.0001f));
  EXPECT_TRUE(loose.equivalent) << loose.worst;
  EXPECT_NEAR(loose.maxRelError, 1e-4, 1e-5);
  VerifyOptions strict;
  strict.rtol = 1e-5;
  strict.atol = 0;
  strict.metric = VerifyMetric::Elementwise;
  VerifyResult tight = verifyEquivalent(scaled(1.0f), scaled(1.0001f), strict);
  EXPECT_FALSE(tight.equivalent);
  EXPECT_NEAR(tight.maxRelError, 1e-4, 1e-5);
}

// A chain of matmuls, x·W1·…·Wn, grouped from the left or from the right (TENSAT's matmul
// associativity); `wrong` transposes one square weight or scales it by 1.01.
enum class ChainFault { None, Transposed, Scaled };

Graph matmulChain(int length, bool fromTheRight, ChainFault fault = ChainFault::None) {
  const int64_t rows = 64, width = 256;
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {rows, width}});
  std::vector<ValueRef> weights;
  for (int i = 0; i < length; ++i) {
    ValueRef w{g.addWeight("w" + std::to_string(i), Tensor::zeros({DType::Float32, {width, width}})), 0};
    if (i == length / 2 && fault == ChainFault::Transposed) w = {g.addNode(OpKind::Transpose, {w}, {{"perm", std::vector<int64_t>{1, 0}}}), 0};
    if (i == length / 2 && fault == ChainFault::Scaled)
      w = {g.addNode(OpKind::ScalarMul, {w, {g.addWeight("s", Tensor::fromFloats({}, {1.01f})), 0}}), 0};
    weights.push_back(w);
  }
  ValueRef out{x, 0};
  if (fromTheRight) {
    ValueRef product = weights.back();
    for (int i = length - 2; i >= 0; --i) product = {g.addNode(OpKind::MatMul, {weights[i], product}), 0};
    out = {g.addNode(OpKind::MatMul, {out, product}), 0};
  } else {
    for (const ValueRef& w : weights) out = {g.addNode(OpKind::MatMul, {out, w}), 0};
  }
  // Outputs in the hundreds, as an attention stack without softmax makes them: float32 rounding then
  // exceeds the absolute tolerance, and elements near zero fail the relative one.
  NodeId scale = g.addWeight("scale", Tensor::fromFloats({}, {1000.0f}));
  g.addOutput({g.addNode(OpKind::ScalarMul, {out, {scale, 0}}), 0}, "y");
  return g;
}

TEST(VerifyTest, DeepReassociatedChainVerifiesWithTheNoiseScaledMetric) {
  const Graph original = matmulChain(12, false);
  const Graph regrouped = matmulChain(12, true);
  VerifyResult result = verifyEquivalent(original, regrouped);
  EXPECT_TRUE(result.equivalent) << result.worst << " under " << result.metric;
  EXPECT_GT(result.maxAbsError, 0) << "regrouping changes the rounding";
  EXPECT_LT(result.noiseToSignal, 1e-3) << "the chain is well conditioned: the check stays sharp";
  EXPECT_EQ(result.metric.rfind("noise-scaled: ", 0), 0u) << result.metric;
  // The fixed elementwise tolerance mistakes that rounding for an error where terms cancel.
  VerifyOptions elementwise;
  elementwise.metric = VerifyMetric::Elementwise;
  VerifyResult strict = verifyEquivalent(original, regrouped, elementwise);
  EXPECT_FALSE(strict.equivalent) << "no cancellation left in the test chain: it no longer shows the problem";
  EXPECT_EQ(strict.metric.rfind("elementwise: ", 0), 0u) << strict.metric;
}

TEST(VerifyTest, NoiseScaledMetricStillCatchesAWrongWeightInADeepChain) {
  const Graph original = matmulChain(12, false);
  for (ChainFault fault : {ChainFault::Transposed, ChainFault::Scaled}) {
    VerifyResult result = verifyEquivalent(original, matmulChain(12, true, fault));
    EXPECT_FALSE(result.equivalent) << "fault " << static_cast<int>(fault) << " passed under " << result.metric;
  }
}

// y = sin(10^6 x): float32 noise in x alone moves y by as much as y itself, so the noise allowance
// would pass any candidate of the same range. `wrong` computes -y instead.
Graph noiseDominatedGraph(bool wrong) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {4, 8}});
  NodeId scale = g.addWeight("scale", Tensor::fromFloats({}, {1.0e6f}));
  NodeId sine = g.addNode(OpKind::Sin, {{g.addNode(OpKind::ScalarMul, {{x, 0}, {scale, 0}}), 0}});
  g.addOutput({wrong ? g.addNode(OpKind::Neg, {{sine, 0}}) : sine, 0}, "y");
  return g;
}

TEST(VerifyTest, ANoiseDominatedModelIsNeverCalledVerified) {
  VerifyResult wrong = verifyEquivalent(noiseDominatedGraph(false), noiseDominatedGraph(true));
  EXPECT_FALSE(wrong.equivalent) << "a graph computing 2x passed as x under " << wrong.metric;
  EXPECT_TRUE(wrong.tooNoisy);
  EXPECT_GT(wrong.noiseToSignal, VerifyOptions{}.maxNoiseToSignal);
  EXPECT_NE(wrong.worst.find("cannot tell"), std::string::npos) << wrong.worst;
  // Without the cap the allowance swallows the error: the cap is what refuses it.
  VerifyOptions uncapped;
  uncapped.maxNoiseToSignal = 1e30;
  EXPECT_TRUE(verifyEquivalent(noiseDominatedGraph(false), noiseDominatedGraph(true), uncapped).equivalent)
      << "the test graph is no longer noise-dominated: it shows nothing";
  // The same graph against itself is refused too: not verified, not wrong.
  EXPECT_FALSE(verifyEquivalent(noiseDominatedGraph(false), noiseDominatedGraph(false)).equivalent);
}

// Two weights may share a name (an export renames one); with each graph's own weights the noise
// estimate perturbs neither rather than giving both the first one's values, which had made the
// "noise" half the output and the check blind.
TEST(VerifyTest, WeightsSharingANameKeepTheirOwnValuesInTheNoiseEstimate) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {2, 3}});
  NodeId w1 = g.addWeight("w", Tensor::splat({DType::Float32, {3, 3}}, 0.1));
  NodeId w2 = g.addWeight("w", Tensor::splat({DType::Float32, {3, 3}}, 0.2));
  NodeId first = g.addNode(OpKind::MatMul, {{x, 0}, {w1, 0}});
  g.addOutput({g.addNode(OpKind::MatMul, {{first, 0}, {w2, 0}}), 0}, "y");
  VerifyOptions own;
  own.randomizeWeights = false;
  VerifyResult result = verifyEquivalent(g, g, own);
  EXPECT_TRUE(result.equivalent) << result.worst;
  EXPECT_LT(result.noiseToSignal, 1e-3);
}

TEST(VerifyTest, OutputsOfDifferentElementTypesDoNotMatch) {
  Graph a;
  NodeId x = a.addInput("x", {DType::Float32, {2, 3}});
  a.addOutput({a.addNode(OpKind::Relu, {{x, 0}}), 0}, "y");
  Graph b;
  NodeId bx = b.addInput("x", {DType::Float32, {2, 3}});
  NodeId relu = b.addNode(OpKind::Relu, {{bx, 0}});
  b.addOutput({b.addNode(OpKind::Cast, {{relu, 0}}, {{"to", std::string("i64")}}), 0}, "y");
  VerifyResult result = verifyEquivalent(a, b);
  EXPECT_FALSE(result.equivalent);
  EXPECT_NE(result.worst.find("but the candidate's is"), std::string::npos) << result.worst;
}

TEST(VerifyTest, NoiseScaledMetricHonoursTheGraphsOwnWeights) {
  // With each graph's own weights, the perturbation reaches them too (a splat is materialised).
  VerifyOptions own;
  own.randomizeWeights = false;
  VerifyResult result = verifyEquivalent(matmulChain(4, false), matmulChain(4, true), own);
  EXPECT_TRUE(result.equivalent) << result.worst;
}

TEST(VerifyTest, MetricNamesRoundTrip) {
  for (VerifyMetric metric : {VerifyMetric::Elementwise, VerifyMetric::NoiseScaled}) EXPECT_EQ(parseMetric(metricName(metric)), metric);
  EXPECT_FALSE(parseMetric("loose").has_value());
}

TEST(VerifyTest, NanOnOneSideOnlyIsAMismatch) {
  auto root = [](bool reluFirst) {
    Graph g;
    NodeId x = g.addInput("x", {DType::Float32, {64}});
    NodeId in = reluFirst ? g.addNode(OpKind::Relu, {{x, 0}}) : g.addNode(OpKind::Identity, {{x, 0}});
    g.addOutput({g.addNode(OpKind::Sqrt, {{in, 0}}), 0}, "root");
    return g;
  };
  VerifyResult same = verifyEquivalent(root(false), root(false));
  EXPECT_TRUE(same.equivalent) << "NaN on both sides matches: " << same.worst;
  VerifyResult different = verifyEquivalent(root(false), root(true));
  EXPECT_FALSE(different.equivalent);
  EXPECT_NE(different.worst.find("0 vs nan"), std::string::npos) << different.worst;
}

TEST(VerifyTest, InterfaceMismatchesAreReasonsNotErrors) {
  auto graph = [](const std::string& inputName, Shape outputShape) {
    Graph g;
    NodeId x = g.addInput(inputName, {DType::Float32, {2, 3}});
    NodeId y = g.addNode(OpKind::Reshape, {{x, 0}}, {{"shape", outputShape}});
    g.addOutput({y, 0}, "y");
    return g;
  };
  VerifyResult shape = verifyEquivalent(graph("x", {6}), graph("x", {3, 2}));
  EXPECT_FALSE(shape.equivalent);
  EXPECT_NE(shape.worst.find("shape [6]"), std::string::npos) << shape.worst;
  VerifyResult inputs = verifyEquivalent(graph("x", {6}), graph("z", {6}));
  EXPECT_FALSE(inputs.equivalent);
  EXPECT_NE(inputs.worst.find("input 'x'"), std::string::npos) << inputs.worst;
}

} // namespace
} // namespace tessera
