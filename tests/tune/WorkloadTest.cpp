// Workload strings: what parses, what it means, and a clear error for each malformed one.
#include "tune/Compute.h"
#include "tune/Workload.h"

#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

std::string errorOf(const std::string& text) {
  try {
    parseWorkload(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Workload, ParsesMatMul) {
  Workload w = parseWorkload("matmul:512x256x128");
  EXPECT_EQ(w.kind, WorkloadKind::MatMul);
  EXPECT_EQ(w.m, 512);
  EXPECT_EQ(w.n, 256);
  EXPECT_EQ(w.k, 128);
  EXPECT_FALSE(w.bias || w.relu);
  EXPECT_DOUBLE_EQ(w.flops(), 2.0 * 512 * 256 * 128);
  EXPECT_EQ(w.outputShape(), (std::vector<int64_t>{512, 256}));
  EXPECT_EQ(w.inputShapes(), (std::vector<std::vector<int64_t>>{{512, 128}, {128, 256}}));
}

TEST(Workload, ParsesBatchedMatMulWithEpilogue) {
  Workload w = parseWorkload("bmm:8x16x32x64,bias,relu");
  EXPECT_EQ(w.kind, WorkloadKind::BatchMatMul);
  EXPECT_EQ(w.batch, 8);
  EXPECT_EQ(w.m, 16);
  EXPECT_EQ(w.n, 32);
  EXPECT_EQ(w.k, 64);
  EXPECT_TRUE(w.bias && w.relu);
  EXPECT_EQ(w.inputShapes().back(), (std::vector<int64_t>{32}));
  EXPECT_EQ(w.outputShape(), (std::vector<int64_t>{8, 16, 32}));
}

TEST(Workload, ParsesConvWithStridePaddingAndEpilogue) {
  Workload w = parseWorkload("conv2d:1x64x56x56,128x64x3x3,s2,p1,relu");
  EXPECT_EQ(w.kind, WorkloadKind::Conv2d);
  EXPECT_EQ(w.convC, 64);
  EXPECT_EQ(w.outChannels, 128);
  EXPECT_EQ(w.stride, 2);
  EXPECT_EQ(w.pad, 1);
  EXPECT_TRUE(w.relu);
  EXPECT_FALSE(w.bias);
  EXPECT_EQ(w.outputShape(), (std::vector<int64_t>{1, 128, 28, 28}));
  EXPECT_DOUBLE_EQ(w.flops(), 2.0 * 128 * 28 * 28 * 64 * 9);
}

TEST(Workload, ConvDefaultsToStrideOneNoPadding) {
  Workload w = parseWorkload("conv2d:2x3x8x8,4x3x3x3");
  EXPECT_EQ(w.stride, 1);
  EXPECT_EQ(w.pad, 0);
  EXPECT_EQ(w.outputShape(), (std::vector<int64_t>{2, 4, 6, 6}));
}

TEST(Workload, KeyParsesBackToTheSameWorkload) {
  for (const char* text : {"matmul:7x5x3", "matmul:7x5x3,bias", "bmm:2x3x4x5,relu", "conv2d:1x8x9x9,16x8x3x3,s1,p1",
                           "conv2d:2x3x8x8,4x3x3x3,s2,p0,bias,relu"}) {
    Workload w = parseWorkload(text);
    EXPECT_EQ(parseWorkload(w.key()), w) << text;
  }
  EXPECT_EQ(parseWorkload("conv2d:1x8x9x9,16x8x3x3").key(), "conv2d:1x8x9x9,16x8x3x3,s1,p0");
}

TEST(Workload, MalformedStringsGetAnErrorNamingTheProblem) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"", "expected KIND:SHAPE"},
      {"matmul", "expected KIND:SHAPE"},
      {"gemm:1x2x3", "unknown kind 'gemm'"},
      {"matmul:", "needs 3 sizes (MxNxK)"},
      {"matmul:4x4", "needs 3 sizes (MxNxK)"},
      {"matmul:4x4x4x4", "needs 3 sizes"},
      {"matmul:4xax4", "'a' is not a number"},
      {"matmul:4x-1x4", "-1 is out of range"},
      {"matmul:4x0x4", "0 is out of range"},
      {"matmul:4x4x99999999", "99999999 is out of range"},
      {"matmul:4x4x4,gelu", "unknown option 'gelu'"},
      {"matmul:4x4x4,", "unknown option ''"},
      {"bmm:4x4x4", "needs 4 sizes (BxMxNxK)"},
      {"conv2d:1x8x9x9", "conv2d needs"},
      {"conv2d:1x8x9x9,16x4x3x3", "weight has 4 input channels but the input has 8"},
      {"conv2d:1x8x2x2,16x8x5x5", "larger than the padded input"},
      {"conv2d:1x8x9x9,16x8x3x3,s0", "stride 0 is out of range"},
      {"conv2d:1x8x9x9,16x8x3x3,s1,s2", "stride given twice"},
      {"conv2d:1x8x9x9,16x8x3x3,pX", "padding 'X' is not a number"},
      {"conv2d:1x8x9x9,16x8x3x3,p3", "padding 3 must be smaller than the kernel"},
      {"conv2d:1x8x9,16x8x3x3", "needs 4 sizes (NxCxHxW)"},
  };
  for (const Case& c : cases) {
    std::string message = errorOf(c.text);
    EXPECT_NE(message.find(c.says), std::string::npos) << c.text << " -> " << message;
    EXPECT_NE(message.find("workload '" + std::string(c.text) + "'"), std::string::npos) << message;
  }
}

TEST(Compute, MatMulAccessesAreRowMajor) {
  Compute c = computeOf(parseWorkload("matmul:3x5x7,bias"));
  ASSERT_EQ(c.axes.size(), 3u); // i, j spatial; k reduction
  EXPECT_TRUE(c.axes[2].reduction);
  EXPECT_EQ(c.lhs.coeff, (std::vector<int64_t>{7, 0, 1}));   // A[i][k]
  EXPECT_EQ(c.rhs.coeff, (std::vector<int64_t>{0, 1, 5}));   // B[k][j]
  EXPECT_EQ(c.output.coeff, (std::vector<int64_t>{5, 1, 0})); // C[i][j]
  ASSERT_TRUE(c.bias.has_value());
  EXPECT_EQ(c.bias->coeff, (std::vector<int64_t>{0, 1, 0}));
}

TEST(Compute, PaddedConvReadsThePaddedCopy) {
  Compute c = computeOf(parseWorkload("conv2d:1x2x5x5,3x2x3x3,s2,p1"));
  ASSERT_TRUE(c.padded.has_value());
  // input[n][c][y*2 + r][x*2 + s] in the 7x7 padded plane
  EXPECT_EQ(c.lhs.coeff, (std::vector<int64_t>{2 * 49, 0, 2 * 7, 2, 49, 7, 1}));
  EXPECT_EQ(c.outputElements, 3 * 3 * 3);
}

} // namespace
} // namespace tessera::tune
