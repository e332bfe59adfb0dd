// BatchNorm, LayerNorm, LRN, Softmax and ReduceMean against hand values and naive formulas.
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera {
namespace {

using testing::allClose;
using testing::runOp;
using testing::testTensor;
using testing::valuesOf;

Tensor iota(Shape shape) {
  std::vector<float> values(static_cast<size_t>(numelOf(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i + 1);
  return Tensor::fromFloats(std::move(shape), values);
}

TEST(BatchNormTest, InferenceFormulaPerChannel) {
  Tensor x = Tensor::fromFloats({1, 2, 1, 2}, {1, 2, 3, 4});
  Tensor scale = Tensor::fromFloats({2}, {1, 2}), bias = Tensor::fromFloats({2}, {0, 1});
  Tensor mean = Tensor::fromFloats({2}, {1, 2}), var = Tensor::fromFloats({2}, {4, 0.25});
  EXPECT_TRUE(allClose(runOp(OpKind::BatchNorm, {x, scale, bias, mean, var}), {0, 0.5, 5, 9}, 1e-4));
  // An explicit epsilon counts.
  EXPECT_TRUE(allClose(runOp(OpKind::BatchNorm, {x, scale, bias, mean, var}, {{"epsilon", 0.75f}}),
                       {0, 1 / std::sqrt(4.75f), 1 + 2 / 1.0f, 1 + 4 / 1.0f}, 1e-6));
}

TEST(BatchNormFoldTest, HandComputedWeightAndBias) {
  Tensor w = Tensor::fromFloats({2, 1, 1, 2}, {1, 2, 3, 4});
  Tensor scale = Tensor::fromFloats({2}, {3, -1}), shift = Tensor::fromFloats({2}, {0.5, 1});
  Tensor mean = Tensor::fromFloats({2}, {1, 2}), var = Tensor::fromFloats({2}, {4, 0.25});
  Tensor convBias = Tensor::fromFloats({2}, {5, -2});
  Attributes noEpsilon{{"epsilon", 0.0f}};
  // factors 3 / 2 and -1 / 0.5.
  EXPECT_EQ(valuesOf(runOp(OpKind::FoldBatchNormWeight, {w, scale, var}, noEpsilon)), (std::vector<float>{1.5, 3, -6, -8}));
  EXPECT_EQ(valuesOf(runOp(OpKind::FoldBatchNormBias, {scale, shift, mean, var, convBias}, noEpsilon)),
            (std::vector<float>{(5 - 1) * 1.5f + 0.5f, (-2 - 2) * -2.0f + 1}));
  EXPECT_EQ(valuesOf(runOp(OpKind::FoldBatchNormBias, {scale, shift, mean, var}, noEpsilon)),
            (std::vector<float>{-1 * 1.5f + 0.5f, -2 * -2.0f + 1}));
}

TEST(LayerNormTest, HandComputedRow) {
  Tensor x = Tensor::fromFloats({1, 4}, {1, 2, 3, 4});
  Tensor scale = Tensor::fromFloats({4}, {1, 1, 1, 1});
  const float s = 1 / std::sqrt(1.25f + 1e-5f);
  EXPECT_TRUE(allClose(runOp(OpKind::LayerNorm, {x, scale}), {-1.5f * s, -0.5f * s, 0.5f * s, 1.5f * s}, 1e-6));
}

TEST(LayerNormTest, MatchesNaiveOverTrailingAxesWithBroadcastParameters) {
  Tensor x = testTensor({2, 3, 4}, 1, -3, 5);
  Tensor scale = testTensor({3, 4}, 2), bias = testTensor({4}, 3);
  std::vector<float> expected;
  for (int64_t n = 0; n < 2; ++n) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < 12; ++i) mean += x.floatAt(n * 12 + i) / 12.0;
    for (int64_t i = 0; i < 12; ++i) var += std::pow(x.floatAt(n * 12 + i) - mean, 2) / 12.0;
    for (int64_t i = 0; i < 12; ++i)
      expected.push_back(static_cast<float>((x.floatAt(n * 12 + i) - mean) / std::sqrt(var + 1e-3) * scale.floatAt(i) + bias.floatAt(i % 4)));
  }
  EXPECT_TRUE(allClose(runOp(OpKind::LayerNorm, {x, scale, bias}, {{"axis", int64_t{1}}, {"epsilon", 1e-3f}}), expected, 1e-5, 1e-6));
}

TEST(LrnTest, HandComputedEvenSize) {
  // size 2: the window is [c, c+1]; square sums 1+4, 4+9, 9.
  Tensor x = Tensor::fromFloats({1, 3, 1, 1}, {1, 2, 3});
  Tensor y = runOp(OpKind::LRN, {x}, {{"size", int64_t{2}}, {"alpha", 1.0f}, {"beta", 1.0f}, {"bias", 1.0f}});
  EXPECT_TRUE(allClose(y, {1 / 3.5f, 2 / 7.5f, 3 / 5.5f}, 1e-6));
}

TEST(LrnTest, MatchesOnnxFormula) {
  Tensor x = testTensor({2, 7, 3, 2}, 4, -2, 2);
  const int64_t size = 5;
  const float alpha = 2e-2f, beta = 0.6f, bias = 1.5f;
  std::vector<float> expected;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t c = 0; c < 7; ++c)
      for (int64_t i = 0; i < 6; ++i) {
        double sum = 0;
        for (int64_t k = c - (size - 1) / 2; k <= c + (size - 1 + 1) / 2; ++k)
          if (k >= 0 && k < 7) sum += std::pow(x.floatAt((n * 7 + k) * 6 + i), 2);
        expected.push_back(static_cast<float>(x.floatAt((n * 7 + c) * 6 + i) / std::pow(bias + alpha / size * sum, beta)));
      }
  Tensor y = runOp(OpKind::LRN, {x}, {{"size", size}, {"alpha", alpha}, {"beta", beta}, {"bias", bias}});
  EXPECT_TRUE(allClose(y, expected, 1e-5, 1e-6));
  // The ONNX defaults (alpha 1e-4, beta 0.75, bias 1) apply when the attributes are absent.
  std::vector<float> defaults;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t c = 0; c < 7; ++c)
      for (int64_t i = 0; i < 6; ++i) {
        double sum = 0;
        for (int64_t k = std::max<int64_t>(0, c - 1); k <= std::min<int64_t>(6, c + 1); ++k) sum += std::pow(x.floatAt((n * 7 + k) * 6 + i), 2);
        defaults.push_back(static_cast<float>(x.floatAt((n * 7 + c) * 6 + i) / std::pow(1 + 1e-4 / 3 * sum, 0.75)));
      }
  EXPECT_TRUE(allClose(runOp(OpKind::LRN, {x}, {{"size", int64_t{3}}}), defaults, 1e-5, 1e-6));
}

// LrnDenominator(x * x) is what LRN divides x by (the rule lrn-as-channel-conv), for windows that
// reach as far up as down (odd size) or one further up (even size), and a size wider than C.
TEST(LrnTest, DenominatorOfTheSquaresIsWhatLrnDividesBy) {
  Tensor x = testTensor({2, 5, 3, 2}, 6, -2, 2);
  std::vector<float> squares = valuesOf(x);
  for (float& v : squares) v *= v;
  const Tensor squared = Tensor::fromFloats(x.shape(), squares);
  for (int64_t size : {1, 2, 4, 5, 9}) {
    SCOPED_TRACE("size " + std::to_string(size));
    const Attributes attrs{{"size", size}, {"alpha", 0.7f}, {"beta", 0.6f}, {"bias", 1.5f}};
    const std::vector<float> lrn = valuesOf(runOp(OpKind::LRN, {x}, attrs));
    const std::vector<float> denominator = valuesOf(runOp(OpKind::LrnDenominator, {squared}, attrs));
    std::vector<float> divided(lrn.size());
    for (size_t i = 0; i < divided.size(); ++i) divided[i] = x.floatAt(static_cast<int64_t>(i)) / denominator[i];
    EXPECT_TRUE(allClose(Tensor::fromFloats(x.shape(), divided), lrn, 1e-6, 1e-7));
  }
  // By hand, size 2 (window [c, c+1]), alpha 1, beta 1, bias 1: 1 + (s_c + s_c+1) / 2.
  Tensor s = Tensor::fromFloats({1, 3, 1, 1}, {1, 4, 9});
  EXPECT_TRUE(allClose(runOp(OpKind::LrnDenominator, {s}, {{"size", int64_t{2}}, {"alpha", 1.0f}, {"beta", 1.0f}, {"bias", 1.0f}}),
                       {3.5f, 7.5f, 5.5f}, 1e-6));
}

TEST(SoftmaxTest, AlongTheGivenAxis) {
  Tensor x = Tensor::fromFloats({2, 3}, {1, 2, 3, 1001, 1002, 1003}); // large values must not overflow
  const std::vector<float> row = {0.09003057f, 0.24472847f, 0.66524096f};
  std::vector<float> expected = row;
  expected.insert(expected.end(), row.begin(), row.end());
  EXPECT_TRUE(allClose(runOp(OpKind::Softmax, {x}), expected, 1e-6));
  // axis 0: each column pairs v with v + 1000.
  Tensor columns = runOp(OpKind::Softmax, {x}, {{"axis", int64_t{0}}});
  EXPECT_TRUE(allClose(columns, {0, 0, 0, 1, 1, 1}, 0, 1e-6));
  // A middle axis of a rank-3 tensor: every (outer, inner) line sums to 1.
  Tensor y = runOp(OpKind::Softmax, {testTensor({2, 5, 3}, 9, -4, 4)}, {{"axis", int64_t{1}}});
  for (int64_t outer = 0; outer < 2; ++outer)
    for (int64_t inner = 0; inner < 3; ++inner) {
      double sum = 0;
      for (int64_t i = 0; i < 5; ++i) sum += y.floatAt((outer * 5 + i) * 3 + inner);
      EXPECT_NEAR(sum, 1.0, 1e-6);
    }
}

TEST(ReduceMeanTest, AxesAndKeepdims) {
  Tensor x = iota({2, 3, 4}); // x[n][j][k] = 1 + 12n + 4j + k
  Tensor middle = runOp(OpKind::ReduceMean, {x}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}});
  EXPECT_EQ(middle.shape(), (Shape{2, 4}));
  EXPECT_EQ(valuesOf(middle), (std::vector<float>{5, 6, 7, 8, 17, 18, 19, 20}));
  Tensor outer = runOp(OpKind::ReduceMean, {x}, {{"axes", std::vector<int64_t>{0, -1}}});
  EXPECT_EQ(outer.shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(valuesOf(outer), (std::vector<float>{8.5, 12.5, 16.5}));
  Tensor all = runOp(OpKind::ReduceMean, {x});
  EXPECT_EQ(all.shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(valuesOf(all), (std::vector<float>{12.5}));
}

} // namespace
} // namespace tessera
