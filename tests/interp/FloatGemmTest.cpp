// The blocked GEMM, every micro-kernel this CPU runs, against a naive triple loop in double.
#include "interp/FloatGemm.h"

#include "InterpTestSupport.h"

#include <gtest/gtest.h>

#include <limits>

namespace tessera::interp {
namespace {

using tessera::testing::allClose;
using tessera::testing::testValues;

struct Case {
  int64_t m, n, k;
  bool transA, transB;
  float alpha, beta;
};

std::vector<GemmKernel> availableKernels() {
  std::vector<GemmKernel> kernels;
  for (GemmKernel k : {GemmKernel::Portable, GemmKernel::Avx2, GemmKernel::Avx512})
    if (gemmKernelAvailable(k)) kernels.push_back(k);
  return kernels;
}

void checkCase(GemmKernel kernel, const Case& c) {
  SCOPED_TRACE(std::string(gemmKernelName(kernel)) + " m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) +
               " transA=" + std::to_string(c.transA) + " transB=" + std::to_string(c.transB));
  // Stored with padded leading dimensions, so strides are exercised too.
  const int64_t lda = (c.transA ? c.m : c.k) + 3, ldb = (c.transB ? c.k : c.n) + 5, ldc = c.n + 2;
  const auto a = testValues((c.transA ? c.k : c.m) * lda, 1);
  const auto b = testValues((c.transB ? c.n : c.k) * ldb, 2);
  auto cMatrix = testValues(c.m * ldc, 3);
  auto at = [&](int64_t i, int64_t p) { return c.transA ? a[p * lda + i] : a[i * lda + p]; };
  auto bt = [&](int64_t p, int64_t j) { return c.transB ? b[j * ldb + p] : b[p * ldb + j]; };

  std::vector<float> expected(cMatrix);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < c.k; ++p) sum += static_cast<double>(at(i, p)) * bt(p, j);
      const double previous = c.beta == 0.0f ? 0.0 : c.beta * static_cast<double>(cMatrix[i * ldc + j]);
      expected[i * ldc + j] = static_cast<float>(c.alpha * sum + previous);
    }

  MatrixView viewA{a.data(), lda, 1}, viewB{b.data(), ldb, 1};
  if (c.transA) viewA = viewA.transposed();
  if (c.transB) viewB = viewB.transposed();
  floatGemmWith(kernel, c.m, c.n, c.k, c.alpha, viewA, viewB, c.beta, cMatrix.data(), ldc);
  // Padding columns of C are untouched, the rest matches.
  EXPECT_TRUE(allClose(cMatrix, expected, 1e-4, 1e-4));
}

TEST(FloatGemmTest, MatchesNaiveProductForEveryKernelShapeAndTransposition) {
  const std::vector<Case> cases = {
      {1, 1, 1, false, false, 1.0f, 0.0f},      {7, 5, 3, false, false, 1.0f, 0.0f},
      {17, 33, 9, false, false, 1.0f, 0.0f},    {64, 96, 300, false, false, 1.0f, 0.0f}, // crosses the K block
      {13, 70, 31, true, false, 0.5f, 0.0f},    {13, 70, 31, false, true, 1.0f, 2.0f},
      {25, 19, 513, true, true, -1.5f, 0.25f},  {3, 2100, 20, false, false, 1.0f, 1.0f}, // crosses the N block
      {100, 1, 64, false, false, 1.0f, 0.0f},   {1, 100, 64, false, true, 1.0f, 0.0f},
  };
  for (GemmKernel kernel : availableKernels())
    for (const Case& c : cases) checkCase(kernel, c);
}

TEST(FloatGemmTest, BetaZeroIgnoresNanInC) {
  for (GemmKernel kernel : availableKernels()) {
    const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
    std::vector<float> c(4, std::numeric_limits<float>::quiet_NaN());
    floatGemmWith(kernel, 2, 2, 2, 1.0f, {a.data(), 2, 1}, {b.data(), 2, 1}, 0.0f, c.data(), 2);
    EXPECT_EQ(c, (std::vector<float>{19, 22, 43, 50})) << gemmKernelName(kernel);
  }
}

TEST(FloatGemmTest, EmptyInnerDimensionScalesC) {
  std::vector<float> c = {1, 2, 3, 4};
  floatGemm(2, 2, 0, 1.0f, {nullptr, 0, 1}, {nullptr, 2, 1}, 3.0f, c.data(), 2);
  EXPECT_EQ(c, (std::vector<float>{3, 6, 9, 12}));
  floatGemm(2, 2, 0, 1.0f, {nullptr, 0, 1}, {nullptr, 2, 1}, 0.0f, c.data(), 2);
  EXPECT_EQ(c, (std::vector<float>{0, 0, 0, 0}));
}

TEST(FloatGemmTest, BestKernelIsAvailable) { EXPECT_TRUE(gemmKernelAvailable(bestGemmKernel())); }

} // namespace
} // namespace tessera::interp
