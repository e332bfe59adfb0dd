// Layout ops by hand: slices with negative steps and clamping, Gather with negative and
// out-of-range indices, Pad in its three modes (numpy's results), Transpose, Concat/Split and the
// shape-only ops.
#include "InterpTestSupport.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <limits>

namespace tessera {
namespace {

using testing::runOp;
using testing::runOpOutputs;
using testing::testTensor;
using testing::valuesOf;

Tensor range(Shape shape) {
  std::vector<float> values(static_cast<size_t>(numelOf(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  return Tensor::fromFloats(std::move(shape), values);
}

Attributes sliceAttrs(std::vector<int64_t> starts, std::vector<int64_t> ends, std::vector<int64_t> axes, std::vector<int64_t> steps) {
  return {{"starts", starts}, {"ends", ends}, {"axes", axes}, {"steps", steps}};
}

TEST(SliceTest, NegativeStepsAndClamping) {
  Tensor x = range({10});
  EXPECT_EQ(valuesOf(runOp(OpKind::Slice, {x}, sliceAttrs({8}, {1}, {0}, {-3}))), (std::vector<float>{8, 5, 2}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Slice, {x}, sliceAttrs({-1}, {std::numeric_limits<int64_t>::min()}, {0}, {-1}))),
            (std::vector<float>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Slice, {x}, sliceAttrs({100}, {-100}, {0}, {-2}))), (std::vector<float>{9, 7, 5, 3, 1}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Slice, {x}, sliceAttrs({1}, {1000}, {0}, {2}))), (std::vector<float>{1, 3, 5, 7, 9}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Slice, {x}, sliceAttrs({-3}, {std::numeric_limits<int64_t>::max()}, {0}, {1}))),
            (std::vector<float>{7, 8, 9}));
  Tensor empty = runOp(OpKind::Slice, {x}, sliceAttrs({5}, {2}, {0}, {1}));
  EXPECT_EQ(empty.shape(), Shape{0});
}

TEST(SliceTest, SeveralAxesInAnyOrder) {
  // x[3,4] = 0..11; axis 1 from 3 down to (excluding) 0 by 2 -> cols 3, 1; axis 0 from 2 down
  // to (excluding) -4 + 3 = -1 -> rows 2, 1, 0.
  Tensor y = runOp(OpKind::Slice, {range({3, 4})}, sliceAttrs({-1, 2}, {0, -4}, {1, 0}, {-2, -1}));
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{11, 9, 7, 5, 3, 1}));
  // A middle axis of a rank-3 tensor, default axes and steps.
  Tensor z = runOp(OpKind::Slice, {range({2, 3, 2})}, {{"starts", std::vector<int64_t>{1, 1}}, {"ends", std::vector<int64_t>{2, 3}}});
  EXPECT_EQ(z.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(valuesOf(z), (std::vector<float>{8, 9, 10, 11}));
}

TEST(GatherTest, NegativeIndicesCountFromTheEnd) {
  Tensor data = Tensor::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor indices = Tensor::fromInts({DType::Int64, {2, 2}}, {0, -1, 1, 0});
  Tensor rows = runOp(OpKind::Gather, {data, indices});
  EXPECT_EQ(rows.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(valuesOf(rows), (std::vector<float>{1, 2, 5, 6, 3, 4, 1, 2}));
  Tensor column = runOp(OpKind::Gather, {data, Tensor::fromInts({DType::Int64, {1}}, {-1})}, {{"axis", int64_t{1}}});
  EXPECT_EQ(column.shape(), (Shape{3, 1}));
  EXPECT_EQ(valuesOf(column), (std::vector<float>{2, 4, 6}));
  Tensor scalarIndex = runOp(OpKind::Gather, {data, Tensor::fromInts({DType::Int64, {}}, {2})});
  EXPECT_EQ(scalarIndex.shape(), (Shape{2}));
  EXPECT_EQ(valuesOf(scalarIndex), (std::vector<float>{5, 6}));
}

TEST(GatherTest, OutOfRangeIndexIsAnError) {
  Tensor data = Tensor::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6});
  for (int64_t bad : {3, -4}) {
    try {
      runOp(OpKind::Gather, {data, Tensor::fromInts({DType::Int64, {1}}, {bad})});
      ADD_FAILURE() << "index " << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'op'"), std::string::npos) << "the error names the node: " << e.what();
    }
  }
}

TEST(PadTest, ModesMatchNumpy) {
  Tensor x = Tensor::fromFloats({3}, {1, 2, 3});
  auto padded = [&](std::vector<int64_t> pads, const std::string& mode, float value = 0) {
    return valuesOf(runOp(OpKind::Pad, {x}, {{"pads", pads}, {"mode", mode}, {"value", value}}));
  };
  EXPECT_EQ(padded({2, 2}, "constant", 9), (std::vector<float>{9, 9, 1, 2, 3, 9, 9}));
  EXPECT_EQ(padded({2, 2}, "reflect"), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(padded({2, 2}, "edge"), (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
  EXPECT_EQ(padded({5, 0}, "reflect"), (std::vector<float>{2, 1, 2, 3, 2, 1, 2, 3})); // np.pad bounces repeatedly
  EXPECT_EQ(padded({-1, 1}, "constant"), (std::vector<float>{2, 3, 0}));              // negative pads crop
}

TEST(PadTest, TwoDimensionalReflectAndEdge) {
  Tensor x = Tensor::fromFloats({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(valuesOf(runOp(OpKind::Pad, {x}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"mode", std::string("reflect")}})),
            (std::vector<float>{4, 3, 4, 3, 2, 1, 2, 1, 4, 3, 4, 3, 2, 1, 2, 1}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Pad, {x}, {{"pads", std::vector<int64_t>{0, 1, 1, 0}}, {"mode", std::string("edge")}})),
            (std::vector<float>{1, 1, 2, 3, 3, 4, 3, 3, 4}));
  EXPECT_EQ(valuesOf(runOp(OpKind::Pad, {x}, {{"pads", std::vector<int64_t>{1, 0, 0, 1}}})),
            (std::vector<float>{0, 0, 0, 1, 2, 0, 3, 4, 0}));
}

TEST(TransposeTest, PermutesAxes) {
  Tensor x = range({2, 3, 4});
  Tensor y = runOp(OpKind::Transpose, {x}, {{"perm", std::vector<int64_t>{2, 0, 1}}});
  ASSERT_EQ(y.shape(), (Shape{4, 2, 3}));
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(y.floatAt((k * 2 + i) * 3 + j), x.floatAt((i * 3 + j) * 4 + k));
  // Default: reverse the axes.
  Tensor matrix = range({2, 3});
  EXPECT_EQ(valuesOf(runOp(OpKind::Transpose, {matrix})), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(ConcatSplitTest, AlongAnInnerAxisAndBack) {
  Tensor a = Tensor::fromFloats({2, 1}, {1, 2});
  Tensor b = Tensor::fromFloats({2, 2}, {3, 4, 5, 6});
  Tensor joined = runOp(OpKind::Concat, {a, b}, {{"axis", int64_t{-1}}});
  EXPECT_EQ(joined.shape(), (Shape{2, 3}));
  EXPECT_EQ(valuesOf(joined), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  auto parts = runOpOutputs(OpKind::Split, {joined}, {{"axis", int64_t{1}}, {"split", std::vector<int64_t>{1, 2}}}, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].shape(), a.shape());
  EXPECT_EQ(valuesOf(parts[0]), valuesOf(a));
  EXPECT_EQ(valuesOf(parts[1]), valuesOf(b));
  Tensor stacked = runOp(OpKind::Concat, {b, a.materialized(), b}, {{"axis", int64_t{1}}});
  EXPECT_EQ(valuesOf(stacked), (std::vector<float>{3, 4, 1, 3, 4, 5, 6, 2, 5, 6}));
}

TEST(ShapeOpsTest, KeepValuesAndTakeTheNewShape) {
  Tensor x = testTensor({2, 1, 3, 1}, 4);
  Tensor reshaped = runOp(OpKind::Reshape, {x}, {{"shape", std::vector<int64_t>{3, -1}}});
  EXPECT_EQ(reshaped.shape(), (Shape{3, 2}));
  EXPECT_EQ(valuesOf(reshaped), valuesOf(x));
  EXPECT_EQ(runOp(OpKind::Flatten, {x}, {{"axis", int64_t{2}}}).shape(), (Shape{2, 3}));
  EXPECT_EQ(runOp(OpKind::Squeeze, {x}).shape(), (Shape{2, 3}));
  Tensor unsqueezed = runOp(OpKind::Unsqueeze, {x}, {{"axes", std::vector<int64_t>{0, -1}}});
  EXPECT_EQ(unsqueezed.shape(), (Shape{1, 2, 1, 3, 1, 1}));
  EXPECT_EQ(valuesOf(unsqueezed), valuesOf(x));
}

} // namespace
} // namespace tessera
