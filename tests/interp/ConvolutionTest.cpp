// Conv against hand-computed values and a direct 7-loop convolution written here; Enlarge and
// MergeGroups by hand and by the conv identities TENSAT's rules rely on.
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace tessera {
namespace {

using testing::allClose;
using testing::runOp;
using testing::testTensor;
using testing::valuesOf;

struct ConvParams {
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  int64_t activation = 0;
};

Attributes attributesOf(const ConvParams& p) {
  return {{"strides", std::vector<int64_t>{p.strideH, p.strideW}},
          {"pads", std::vector<int64_t>{p.padTop, p.padLeft, p.padBottom, p.padRight}},
          {"dilations", std::vector<int64_t>{p.dilationH, p.dilationW}},
          {"activation", p.activation}};
}

// The textbook definition, one output element at a time, accumulated in double.
std::vector<float> directConv(const Tensor& x, const Tensor& w, const Tensor* bias, const ConvParams& p) {
  const int64_t N = x.shape()[0], C = x.shape()[1], H = x.shape()[2], W = x.shape()[3];
  const int64_t M = w.shape()[0], Cg = w.shape()[1], KH = w.shape()[2], KW = w.shape()[3];
  const int64_t groups = C / Cg, Mg = M / groups;
  const int64_t OH = (H + p.padTop + p.padBottom - (p.dilationH * (KH - 1) + 1)) / p.strideH + 1;
  const int64_t OW = (W + p.padLeft + p.padRight - (p.dilationW * (KW - 1) + 1)) / p.strideW + 1;
  std::vector<float> out;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          double sum = bias ? bias->floatAt(m) : 0.0;
          const int64_t group = m / Mg;
          for (int64_t c = 0; c < Cg; ++c)
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j) {
                const int64_t ih = oh * p.strideH - p.padTop + i * p.dilationH;
                const int64_t iw = ow * p.strideW - p.padLeft + j * p.dilationW;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                sum += static_cast<double>(x.floatAt(((n * C + group * Cg + c) * H + ih) * W + iw)) *
                       w.floatAt(((m * Cg + c) * KH + i) * KW + j);
              }
          switch (p.activation) {
          case 1: sum = 1.0 / (1.0 + std::exp(-sum)); break;
          case 2: sum = std::max(sum, 0.0); break;
          case 3: sum = std::tanh(sum); break;
          default: break;
          }
          out.push_back(static_cast<float>(sum));
        }
  return out;
}

TEST(ConvolutionTest, HandComputedDiagonalKernel) {
  Tensor x = Tensor::fromFloats({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = Tensor::fromFloats({1, 1, 2, 2}, {1, 0, 0, 1});
  EXPECT_EQ(valuesOf(runOp(OpKind::Conv, {x, w})), (std::vector<float>{6, 8, 12, 14}));
  // Padding 1 and stride 2: the windows start at padded (0,0), (0,2), (2,0), (2,2).
  Tensor padded = runOp(OpKind::Conv, {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"strides", std::vector<int64_t>{2, 2}}});
  EXPECT_EQ(padded.shape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(valuesOf(padded), (std::vector<float>{1, 3, 7, 14}));
  // Bias and fused ReLU.
  Tensor bias = Tensor::fromFloats({1}, {-10});
  EXPECT_EQ(valuesOf(runOp(OpKind::Conv, {x, w, bias}, {{"activation", int64_t{2}}})), (std::vector<float>{0, 0, 2, 4}));
}

struct ConvCase {
  const char* name;
  Shape x, w;
  ConvParams params;
  bool bias;
};

TEST(ConvolutionTest, MatchesDirectConvolution) {
  const std::vector<ConvCase> cases = {
      {"plain 3x3", {1, 3, 8, 8}, {4, 3, 3, 3}, {}, false},
      {"stride 2, asymmetric pads, bias", {2, 3, 9, 7}, {5, 3, 3, 3}, {2, 2, 1, 0, 2, 1}, true},
      {"dilation 2, relu", {1, 4, 10, 10}, {6, 4, 3, 3}, {1, 1, 2, 2, 2, 2, 2, 2, 2}, true},
      {"dilation (2,1), stride (1,3), sigmoid", {1, 2, 9, 11}, {3, 2, 2, 3}, {1, 3, 0, 1, 1, 0, 2, 1, 1}, true},
      {"2 groups, tanh", {2, 4, 6, 6}, {6, 2, 3, 3}, {1, 1, 1, 1, 1, 1, 1, 1, 3}, true},
      {"4 groups, stride 2", {1, 8, 7, 7}, {8, 2, 3, 3}, {2, 2, 1, 1, 1, 1}, false},
      {"depthwise", {2, 6, 7, 5}, {6, 1, 3, 3}, {1, 1, 1, 1, 1, 1}, true},
      {"depthwise, multiplier 2, dilation 2", {1, 3, 9, 9}, {6, 1, 3, 3}, {2, 1, 2, 2, 2, 2, 2, 2, 2}, true},
      {"pointwise", {2, 16, 5, 6}, {7, 16, 1, 1}, {}, true},
      {"1x1 with padding", {1, 3, 4, 4}, {2, 3, 1, 1}, {1, 1, 1, 1, 1, 1}, false},
      {"kernel wider than input row with padding", {1, 2, 3, 2}, {3, 2, 3, 5}, {1, 1, 1, 2, 1, 2}, true},
      {"im2col in several bands", {1, 64, 130, 130}, {2, 64, 3, 3}, {}, true},
  };
  uint32_t seed = 10;
  for (const ConvCase& c : cases) {
    SCOPED_TRACE(c.name);
    Tensor x = testTensor(c.x, seed++);
    Tensor w = testTensor(c.w, seed++);
    Tensor b = testTensor({c.w[0]}, seed++);
    std::vector<Tensor> inputs = {x, w};
    if (c.bias) inputs.push_back(b);
    Tensor y = runOp(OpKind::Conv, inputs, attributesOf(c.params));
    EXPECT_TRUE(allClose(y, directConv(x, w, c.bias ? &b : nullptr, c.params), 1e-4, 1e-5));
  }
}

TEST(ConvolutionTest, SplatWeightsComputeLikeDenseOnes) {
  Tensor x = testTensor({1, 3, 5, 5}, 1);
  Tensor splat = Tensor::splat({DType::Float32, {2, 3, 3, 3}}, 0.25);
  Tensor dense = splat.materialized();
  EXPECT_TRUE(allClose(runOp(OpKind::Conv, {x, splat}), valuesOf(runOp(OpKind::Conv, {x, dense})), 0, 0));
}

TEST(EnlargeTest, CentresTheKernelInZeros) {
  Tensor w = Tensor::fromFloats({1, 1, 1, 3}, {1, 2, 3});
  Tensor reference = Tensor::zeros({DType::Float32, {4, 4, 3, 5}});
  Tensor y = runOp(OpKind::Enlarge, {w, reference});
  EXPECT_EQ(y.shape(), (Shape{1, 1, 3, 5}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{0, 0, 0, 0, 0, /**/ 0, 1, 2, 3, 0, /**/ 0, 0, 0, 0, 0}));
}

TEST(EnlargeTest, EnlargedKernelWithMatchingPaddingGivesTheSameConv) {
  Tensor x = testTensor({1, 3, 6, 6}, 1);
  Tensor w = testTensor({4, 3, 1, 1}, 2);
  Tensor reference = Tensor::zeros({DType::Float32, {4, 3, 3, 3}});
  Tensor big = runOp(OpKind::Enlarge, {w, reference});
  Tensor y1 = runOp(OpKind::Conv, {x, w});
  Tensor y3 = runOp(OpKind::Conv, {x, big}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  EXPECT_TRUE(allClose(y3, valuesOf(y1), 1e-5, 1e-6));
}

TEST(MergeGroupsTest, PlacesEachChannelInItsGroupsBlock) {
  // 4 groups of one output and one input channel each, merged in pairs: channel o keeps its
  // weight in block (o / 1) % 2 of the two input channels its merged group sees.
  Tensor w = Tensor::fromFloats({4, 1, 1, 1}, {1, 2, 3, 4});
  Tensor y = runOp(OpKind::MergeGroups, {w}, {{"count", int64_t{2}}, {"groups", int64_t{4}}});
  EXPECT_EQ(y.shape(), (Shape{4, 2, 1, 1}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{1, 0, /**/ 0, 2, /**/ 3, 0, /**/ 0, 4}));
}

TEST(MergeGroupsTest, MergedWeightComputesTheSameConvWithFewerGroups) {
  // x: 8 channels; w: 8 outputs in 4 groups of 2 input channels each.
  Tensor x = testTensor({2, 8, 5, 5}, 3);
  Tensor w = testTensor({8, 2, 3, 3}, 4);
  Attributes pads{{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  Tensor grouped = runOp(OpKind::Conv, {x, w}, pads);
  for (int64_t count : {1, 2, 4}) {
    SCOPED_TRACE("count " + std::to_string(count));
    Tensor merged = runOp(OpKind::MergeGroups, {w}, {{"count", count}, {"groups", int64_t{4}}});
    ASSERT_EQ(merged.shape(), (Shape{8, 2 * count, 3, 3}));
    Tensor y = runOp(OpKind::Conv, {x, merged}, pads); // 8 / (2 * count) = 4 / count groups
    EXPECT_TRUE(allClose(y, valuesOf(grouped), 1e-5, 1e-5));
  }
}

} // namespace
} // namespace tessera
