// MatMul (numpy broadcasting, 1-D operands, fused activation) and Gemm (alpha, beta, transA,
// transB, C broadcast) against hand values and a naive product written here.
#include "InterpTestSupport.h"

#include <gtest/gtest.h>

namespace tessera {
namespace {

using testing::allClose;
using testing::runOp;
using testing::testTensor;
using testing::valuesOf;

// Naive numpy matmul for operands of rank >= 2 whose batch dims broadcast (rank-aligned right).
std::vector<float> naiveMatMul(const Tensor& a, const Tensor& b, Shape& outShape) {
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  const size_t rank = std::max(sa.size(), sb.size());
  auto dim = [&](const Shape& s, size_t d) { return d + s.size() < rank ? int64_t{1} : s[d + s.size() - rank]; };
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  outShape.clear();
  for (size_t d = 0; d + 2 < rank; ++d) outShape.push_back(std::max(dim(sa, d), dim(sb, d)));
  const int64_t batches = numelOf(outShape);
  std::vector<float> out;
  for (int64_t batch = 0; batch < batches; ++batch) {
    // Batch coordinates, then the flat matrix index of each operand.
    int64_t rest = batch, indexA = 0, indexB = 0, strideA = 1, strideB = 1;
    for (size_t d = rank - 2; d-- > 0;) {
      const int64_t coordinate = rest % outShape[d];
      rest /= outShape[d];
      indexA += (dim(sa, d) == 1 ? 0 : coordinate) * strideA;
      indexB += (dim(sb, d) == 1 ? 0 : coordinate) * strideB;
      strideA *= dim(sa, d);
      strideB *= dim(sb, d);
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) sum += static_cast<double>(a.floatAt(indexA * m * k + i * k + p)) * b.floatAt(indexB * k * n + p * n + j);
        out.push_back(static_cast<float>(sum));
      }
  }
  outShape.push_back(m);
  outShape.push_back(n);
  return out;
}

TEST(MatMulTest, HandComputed2x2) {
  Tensor a = Tensor::fromFloats({2, 2}, {1, 2, 3, 4});
  Tensor b = Tensor::fromFloats({2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(valuesOf(runOp(OpKind::MatMul, {a, b})), (std::vector<float>{19, 22, 43, 50}));
}

TEST(MatMulTest, OneDimensionalOperandsLoseTheirAxis) {
  Tensor vector = Tensor::fromFloats({3}, {1, 2, 3});
  Tensor matrix = Tensor::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor rowTimesMatrix = runOp(OpKind::MatMul, {vector, matrix});
  EXPECT_EQ(rowTimesMatrix.shape(), (Shape{2}));
  EXPECT_EQ(valuesOf(rowTimesMatrix), (std::vector<float>{22, 28}));
  Tensor matrixT = Tensor::fromFloats({2, 3}, {1, 3, 5, 2, 4, 6});
  Tensor matrixTimesVector = runOp(OpKind::MatMul, {matrixT, vector});
  EXPECT_EQ(matrixTimesVector.shape(), (Shape{2}));
  EXPECT_EQ(valuesOf(matrixTimesVector), (std::vector<float>{22, 28}));
  Tensor dot = runOp(OpKind::MatMul, {vector, vector});
  EXPECT_EQ(dot.shape(), Shape{});
  EXPECT_EQ(valuesOf(dot), (std::vector<float>{14}));
  // A batched matrix times a vector.
  Tensor batched = testTensor({4, 2, 3}, 1);
  Tensor y = runOp(OpKind::MatMul, {batched, vector});
  EXPECT_EQ(y.shape(), (Shape{4, 2}));
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_NEAR(y.floatAt(i), batched.floatAt(i * 3) + 2 * batched.floatAt(i * 3 + 1) + 3 * batched.floatAt(i * 3 + 2), 1e-5);
}

TEST(MatMulTest, BroadcastsBatchDimensionsLikeNumpy) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{5, 7}, {7, 3}},       {{2, 5, 7}, {7, 3}},       {{7, 3}, {4, 3, 2}}, {{2, 1, 5, 7}, {3, 7, 4}},
      {{1, 4, 6}, {3, 6, 2}}, {{3, 1, 2, 4}, {1, 5, 4, 3}}, {{2, 40, 70}, {2, 70, 33}},
  };
  uint32_t seed = 1;
  for (const auto& [shapeA, shapeB] : cases) {
    SCOPED_TRACE(shapeToString(shapeA) + " x " + shapeToString(shapeB));
    Tensor a = testTensor(shapeA, seed++), b = testTensor(shapeB, seed++);
    Shape expectedShape;
    std::vector<float> expected = naiveMatMul(a, b, expectedShape);
    Tensor y = runOp(OpKind::MatMul, {a, b});
    EXPECT_EQ(y.shape(), expectedShape);
    EXPECT_TRUE(allClose(y, expected, 1e-5, 1e-5));
  }
}

TEST(MatMulTest, FusedActivation) {
  Tensor a = testTensor({3, 4}, 1), b = testTensor({4, 5}, 2);
  Shape shape;
  std::vector<float> plain = naiveMatMul(a, b, shape);
  std::vector<float> relu, tanh;
  for (float v : plain) {
    relu.push_back(v < 0 ? 0 : v);
    tanh.push_back(std::tanh(v));
  }
  EXPECT_TRUE(allClose(runOp(OpKind::MatMul, {a, b}, {{"activation", int64_t{2}}}), relu));
  EXPECT_TRUE(allClose(runOp(OpKind::MatMul, {a, b}, {{"activation", int64_t{3}}}), tanh));
}

TEST(GemmTest, AlphaBetaTranspositionsAndBroadcastC) {
  // A^T = [[1,2],[3,4]] stored as A = [[1,3],[2,4]]; B^T = [[1,0,2],[0,1,3]] stored as [3,2].
  Tensor a = Tensor::fromFloats({2, 2}, {1, 3, 2, 4});
  Tensor b = Tensor::fromFloats({3, 2}, {1, 0, 0, 1, 2, 3});
  Tensor rowC = Tensor::fromFloats({3}, {10, 20, 30});
  // op(A) op(B) = [[1,2,8],[3,4,18]]; Y = 2 * that + 0.5 * C.
  Tensor y = runOp(OpKind::Gemm, {a, b, rowC},
                   {{"transA", int64_t{1}}, {"transB", int64_t{1}}, {"alpha", 2.0f}, {"beta", 0.5f}});
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(valuesOf(y), (std::vector<float>{7, 14, 31, 11, 18, 51}));
  // A column C [2,1] and a scalar C.
  Tensor columnC = Tensor::fromFloats({2, 1}, {1, -1});
  EXPECT_EQ(valuesOf(runOp(OpKind::Gemm, {a, b, columnC}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}})),
            (std::vector<float>{2, 3, 9, 2, 3, 17}));
  Tensor scalarC = Tensor::fromFloats({1}, {100});
  EXPECT_EQ(valuesOf(runOp(OpKind::Gemm, {a, b, scalarC}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}, {"beta", 0.0f}})),
            (std::vector<float>{1, 2, 8, 3, 4, 18}));
  // No C at all.
  Tensor plainA = Tensor::fromFloats({2, 2}, {1, 2, 3, 4});
  Tensor plainB = Tensor::fromFloats({2, 3}, {1, 0, 2, 0, 1, 3});
  EXPECT_EQ(valuesOf(runOp(OpKind::Gemm, {plainA, plainB})), (std::vector<float>{1, 2, 8, 3, 4, 18}));
}

TEST(GemmTest, LargeTransposedBMatchesNaive) {
  Tensor a = testTensor({9, 300}, 5), b = testTensor({70, 300}, 6), c = testTensor({70}, 7);
  std::vector<float> expected;
  for (int64_t i = 0; i < 9; ++i)
    for (int64_t j = 0; j < 70; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < 300; ++p) sum += static_cast<double>(a.floatAt(i * 300 + p)) * b.floatAt(j * 300 + p);
      expected.push_back(static_cast<float>(sum + c.floatAt(j)));
    }
  EXPECT_TRUE(allClose(runOp(OpKind::Gemm, {a, b, c}, {{"transB", int64_t{1}}}), expected, 1e-4, 1e-5));
}

} // namespace
} // namespace tessera
