#include "ir/ShapeInference.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
Shape infer(OpKind kind, const Attributes& attrs, std::vector<TensorType> inputs, size_t output = 0) {
  return inferOutputTypes(kind, attrs, inputs).at(output).shape;
}
using Ints = std::vector<int64_t>;
} // namespace

TEST(ShapeInference, ConvWithStridePadDilationAndGroups) {
  EXPECT_EQ(infer(OpKind::Conv, {{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}},
                  {f32({1, 3, 224, 224}), f32({64, 3, 7, 7})}),
            (Shape{1, 64, 112, 112}));
  EXPECT_EQ(infer(OpKind::Conv, {{"dilations", Ints{2, 2}}}, {f32({1, 8, 10, 10}), f32({8, 1, 3, 3})}),
            (Shape{1, 8, 6, 6})); // depthwise: 8 groups
  EXPECT_THROW(infer(OpKind::Conv, {{"group", int64_t{2}}}, {f32({1, 8, 10, 10}), f32({8, 8, 3, 3})}), Error);
  EXPECT_THROW(infer(OpKind::Conv, {}, {f32({1, 6, 10, 10}), f32({8, 4, 3, 3})}), Error);
  EXPECT_THROW(infer(OpKind::Conv, {}, {f32({1, 3, 2, 2}), f32({8, 3, 3, 3})}), Error);
}

TEST(ShapeInference, PoolCeilModeDropsWindowsStartingInPadding) {
  Attributes attrs{{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}};
  EXPECT_EQ(infer(OpKind::MaxPool, attrs, {f32({1, 64, 112, 112})}), (Shape{1, 64, 56, 56}));
  EXPECT_EQ(infer(OpKind::MaxPool, attrs, {f32({1, 96, 111, 111})}), (Shape{1, 96, 55, 55})); // squeezenet
  attrs.set("ceil_mode", int64_t{0});
  EXPECT_EQ(infer(OpKind::MaxPool, attrs, {f32({1, 64, 112, 112})}), (Shape{1, 64, 55, 55}));
}

TEST(ShapeInference, MatMulBroadcastsBatchAndHandlesVectors) {
  EXPECT_EQ(infer(OpKind::MatMul, {}, {f32({16, 64, 64}), f32({64, 32})}), (Shape{16, 64, 32}));
  EXPECT_EQ(infer(OpKind::MatMul, {}, {f32({2, 1, 4, 5}), f32({3, 5, 6})}), (Shape{2, 3, 4, 6}));
  EXPECT_EQ(infer(OpKind::MatMul, {}, {f32({5}), f32({5, 6})}), (Shape{6}));
  EXPECT_EQ(infer(OpKind::MatMul, {}, {f32({4, 5}), f32({5})}), (Shape{4}));
  EXPECT_THROW(infer(OpKind::MatMul, {}, {f32({4, 5}), f32({4, 5})}), Error);
}

TEST(ShapeInference, GemmTransposes) {
  EXPECT_EQ(infer(OpKind::Gemm, {{"transB", int64_t{1}}}, {f32({1, 4096}), f32({1000, 4096}), f32({1000})}),
            (Shape{1, 1000}));
  EXPECT_THROW(infer(OpKind::Gemm, {}, {f32({1, 4096}), f32({1000, 4096})}), Error);
}

TEST(ShapeInference, BroadcastFollowsNumpy) {
  EXPECT_EQ(broadcastShapes({8, 1, 6, 1}, {7, 1, 5}), (Shape{8, 7, 6, 5}));
  EXPECT_EQ(broadcastShapes({}, {3}), (Shape{3}));
  EXPECT_THROW(broadcastShapes({3}, {4}), Error);
  EXPECT_EQ(infer(OpKind::Sum, {}, {f32({2, 1}), f32({1, 3}), f32({3})}), (Shape{2, 3}));
}

TEST(ShapeInference, ConcatAndSplit) {
  EXPECT_EQ(infer(OpKind::Concat, {{"axis", int64_t{1}}}, {f32({1, 2, 4}), f32({1, 3, 4})}), (Shape{1, 5, 4}));
  EXPECT_THROW(infer(OpKind::Concat, {{"axis", int64_t{1}}}, {f32({1, 2, 4}), f32({1, 3, 5})}), Error);
  auto outs = inferOutputTypes(OpKind::Split, {{"axis", int64_t{-1}}, {"split", Ints{1, 3}}}, std::vector{f32({2, 4})});
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[1].shape, (Shape{2, 3}));
  EXPECT_THROW(infer(OpKind::Split, {{"split", Ints{1, 2}}}, {f32({4})}), Error);
}

TEST(ShapeInference, ReshapeCopiesZerosAndInfersMinusOne) {
  EXPECT_EQ(infer(OpKind::Reshape, {{"shape", Ints{0, -1, 16, 64}}}, {f32({64, 1024})}), (Shape{64, 1, 16, 64}));
  EXPECT_THROW(infer(OpKind::Reshape, {{"shape", Ints{-1, -1}}}, {f32({4})}), Error);
  EXPECT_THROW(infer(OpKind::Reshape, {{"shape", Ints{3, 3}}}, {f32({4, 2})}), Error);
}

TEST(ShapeInference, TransposeSliceSqueezeUnsqueeze) {
  EXPECT_EQ(infer(OpKind::Transpose, {{"perm", Ints{0, 2, 1, 3}}}, {f32({64, 16, 1, 64})}), (Shape{64, 1, 16, 64}));
  EXPECT_EQ(infer(OpKind::Transpose, {}, {f32({2, 3, 4})}), (Shape{4, 3, 2}));
  EXPECT_THROW(infer(OpKind::Transpose, {{"perm", Ints{0, 0}}}, {f32({2, 3})}), Error);
  EXPECT_EQ(infer(OpKind::Slice, {{"starts", Ints{1, -1}}, {"ends", Ints{1000, -1000}}, {"axes", Ints{0, 1}},
                                   {"steps", Ints{2, -1}}},
                  {f32({5, 4})}),
            (Shape{2, 4}));
  EXPECT_EQ(infer(OpKind::Unsqueeze, {{"axes", Ints{0, -1}}}, {f32({3, 4})}), (Shape{1, 3, 4, 1}));
  EXPECT_EQ(infer(OpKind::Squeeze, {}, {f32({1, 3, 1, 4})}), (Shape{3, 4}));
  EXPECT_THROW(infer(OpKind::Squeeze, {{"axes", Ints{1}}}, {f32({1, 3})}), Error);
}

TEST(ShapeInference, ReduceGatherPadFlatten) {
  EXPECT_EQ(infer(OpKind::ReduceMean, {{"axes", Ints{-1}}}, {f32({2, 3, 4})}), (Shape{2, 3, 1}));
  EXPECT_EQ(infer(OpKind::ReduceMean, {{"keepdims", int64_t{0}}}, {f32({2, 3, 4})}), (Shape{}));
  EXPECT_EQ(infer(OpKind::Gather, {{"axis", int64_t{0}}}, {f32({30522, 768}), TensorType{DType::Int64, {1, 64}}}),
            (Shape{1, 64, 768}));
  EXPECT_THROW(infer(OpKind::Gather, {}, {f32({10, 4}), f32({3})}), Error);
  EXPECT_EQ(infer(OpKind::Pad, {{"pads", Ints{0, 1, 0, 2}}}, {f32({3, 4})}), (Shape{3, 7}));
  EXPECT_EQ(infer(OpKind::Flatten, {}, {f32({1, 512, 7, 7})}), (Shape{1, 25088}));
  EXPECT_EQ(infer(OpKind::GlobalAveragePool, {}, {f32({1, 1280, 7, 7})}), (Shape{1, 1280, 1, 1}));
}

TEST(ShapeInference, TensatOps) {
  EXPECT_EQ(infer(OpKind::Enlarge, {}, {f32({8, 4, 1, 1}), f32({16, 4, 3, 3})}), (Shape{8, 4, 3, 3}));
  EXPECT_THROW(infer(OpKind::Enlarge, {}, {f32({8, 4, 3, 3}), f32({16, 4, 1, 1})}), Error);
  EXPECT_EQ(infer(OpKind::MergeGroups, {{"count", int64_t{2}}, {"groups", int64_t{16}}}, {f32({64, 4, 3, 3})}),
            (Shape{64, 8, 3, 3}));
  EXPECT_THROW(infer(OpKind::MergeGroups, {{"count", int64_t{3}}, {"groups", int64_t{16}}}, {f32({64, 4, 3, 3})}), Error);
  EXPECT_THROW(infer(OpKind::MergeGroups, {{"count", int64_t{2}}}, {f32({64, 4, 3, 3})}), Error);
  EXPECT_EQ(infer(OpKind::ScalarMul, {}, {f32({2, 3}), f32({})}), (Shape{2, 3}));
  EXPECT_THROW(infer(OpKind::ScalarMul, {}, {f32({2, 3}), f32({3})}), Error);
}

TEST(ShapeInference, ArityIsChecked) {
  EXPECT_THROW(infer(OpKind::Relu, {}, {}), Error);
  EXPECT_THROW(infer(OpKind::Add, {}, {f32({1}), f32({1}), f32({1})}), Error);
  EXPECT_THROW(infer(OpKind::Relu, {}, {f32({-1, 3})}), Error);
}
