// MaxPool, AveragePool and GlobalAveragePool: hand-computed windows with padding, ceil_mode and
// dilation (values from the ONNX backend tests where one exists).
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <limits>

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

Attributes window(std::vector<int64_t> kernel, std::vector<int64_t> strides, std::vector<int64_t> pads) {
  return {{"kernel_shape", kernel}, {"strides", strides}, {"pads", pads}};
}

TEST(MaxPoolTest, CeilModeKeepsThePartialLastWindow) {
  // ONNX backend test maxpool_2d_ceil.
  Attributes attrs = window({3, 3}, {2, 2}, {0, 0, 0, 0});
  attrs.set("ceil_mode", int64_t{1});
  Tensor y = runOp(OpKind::MaxPool, {iota({1, 1, 4, 4})}, attrs);
  EXPECT_EQ(y.shape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{11, 12, 15, 16}));
  // Without ceil_mode the partial window is dropped.
  EXPECT_EQ(valuesOf(runOp(OpKind::MaxPool, {iota({1, 1, 4, 4})}, window({3, 3}, {2, 2}, {0, 0, 0, 0}))), (std::vector<float>{11}));
}

TEST(MaxPoolTest, CeilModeWindowOverhangingOnlyTheInputEdge) {
  // Width 5, kernel 2, stride 2: windows [0,1], [2,3] and, with ceil_mode, [4] alone.
  Attributes attrs = window({1, 2}, {1, 2}, {0, 0, 0, 0});
  attrs.set("ceil_mode", int64_t{1});
  Tensor x = Tensor::fromFloats({1, 1, 1, 5}, {5, -1, -7, -3, -2});
  EXPECT_EQ(valuesOf(runOp(OpKind::MaxPool, {x}, attrs)), (std::vector<float>{5, -3, -2}));
  attrs.set("count_include_pad", int64_t{1});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {x}, attrs)), (std::vector<float>{2, -5, -2}));
}

TEST(MaxPoolTest, PaddingIsMinusInfinity) {
  Tensor x = Tensor::fromFloats({1, 1, 3, 3}, {-1, -2, -3, -4, -5, -6, -7, -8, -9});
  Tensor y = runOp(OpKind::MaxPool, {x}, window({2, 2}, {1, 1}, {1, 1, 1, 1}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{-1, -1, -2, -3, -1, -1, -2, -3, -4, -4, -5, -6, -7, -7, -8, -9}));
}

TEST(MaxPoolTest, Dilation) {
  // ONNX backend test maxpool_2d_dilations.
  Attributes attrs = window({2, 2}, {1, 1}, {0, 0, 0, 0});
  attrs.set("dilations", std::vector<int64_t>{2, 2});
  EXPECT_EQ(valuesOf(runOp(OpKind::MaxPool, {iota({1, 1, 4, 4})}, attrs)), (std::vector<float>{11, 12, 15, 16}));
}

TEST(AveragePoolTest, PaddingCountedOnlyWhenAsked) {
  Tensor x = iota({1, 1, 3, 3});
  Attributes attrs = window({2, 2}, {1, 1}, {1, 1, 1, 1});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {x}, attrs)),
            (std::vector<float>{1, 1.5, 2.5, 3, 2.5, 3, 4, 4.5, 5.5, 6, 7, 7.5, 7, 7.5, 8.5, 9}));
  attrs.set("count_include_pad", int64_t{1});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {x}, attrs)),
            (std::vector<float>{0.25, 0.75, 1.25, 0.75, 1.25, 3, 4, 2.25, 2.75, 6, 7, 3.75, 1.75, 3.75, 4.25, 2.25}));
}

TEST(AveragePoolTest, CeilModeWithPaddingCountsOnlyThePaddedInput) {
  // ONNX backend test averagepool_2d_ceil: 4x4, kernel 3, stride 2, ceil.
  Attributes attrs = window({3, 3}, {2, 2}, {0, 0, 0, 0});
  attrs.set("ceil_mode", int64_t{1});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {iota({1, 1, 4, 4})}, attrs)), (std::vector<float>{6, 7.5, 12, 13.5}));
  // Width 4, kernel 3, stride 2, pads 1 both sides, ceil: windows start at -1, 1, 3; the last
  // covers input 3, the pad at 4 and 5 beyond the padded input, so it averages over 2 taps.
  Attributes padded = window({1, 3}, {1, 2}, {0, 1, 0, 1});
  padded.set("ceil_mode", int64_t{1});
  padded.set("count_include_pad", int64_t{1});
  Tensor x = Tensor::fromFloats({1, 1, 1, 4}, {2, 4, 6, 8});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {x}, padded)), (std::vector<float>{2, 6, 4}));
  padded.set("count_include_pad", int64_t{0});
  EXPECT_EQ(valuesOf(runOp(OpKind::AveragePool, {x}, padded)), (std::vector<float>{3, 6, 8}));
}

TEST(GlobalAveragePoolTest, MeansEveryPlane) {
  Tensor x = iota({2, 3, 2, 2});
  EXPECT_EQ(runOp(OpKind::GlobalAveragePool, {x}).shape(), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(valuesOf(runOp(OpKind::GlobalAveragePool, {x})), (std::vector<float>{2.5, 6.5, 10.5, 14.5, 18.5, 22.5}));
}

TEST(PoolTest, StridedPaddedPoolsMatchNaiveWindows) {
  Tensor x = testTensor({2, 3, 9, 8}, 7);
  const int64_t kh = 3, kw = 2, sh = 2, sw = 3, pt = 1, pl = 1, pb = 2, pr = 0;
  Attributes attrs = window({kh, kw}, {sh, sw}, {pt, pl, pb, pr});
  Tensor maxY = runOp(OpKind::MaxPool, {x}, attrs);
  Tensor avgY = runOp(OpKind::AveragePool, {x}, attrs);
  const int64_t oh = (9 + pt + pb - kh) / sh + 1, ow = (8 + pl + pr - kw) / sw + 1;
  ASSERT_EQ(maxY.shape(), (Shape{2, 3, oh, ow}));
  std::vector<float> expectedMax, expectedAvg;
  for (int64_t p = 0; p < 6; ++p)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float maximum = -std::numeric_limits<float>::infinity();
        double sum = 0;
        int taps = 0;
        for (int64_t a = i * sh - pt; a < i * sh - pt + kh; ++a)
          for (int64_t b = j * sw - pl; b < j * sw - pl + kw; ++b) {
            if (a < 0 || a >= 9 || b < 0 || b >= 8) continue;
            const float v = x.floatAt((p * 9 + a) * 8 + b);
            maximum = std::max(maximum, v);
            sum += v;
            ++taps;
          }
        expectedMax.push_back(maximum);
        expectedAvg.push_back(static_cast<float>(sum / taps));
      }
  EXPECT_TRUE(allClose(maxY, expectedMax, 0, 0));
  EXPECT_TRUE(allClose(avgY, expectedAvg, 1e-6, 1e-7));
}

} // namespace
} // namespace tessera
