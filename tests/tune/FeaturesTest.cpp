// The cost model's features: one value per name, finite, and they see what a schedule changed.
#include "tune/DesignSpace.h"
#include "tune/Features.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace tessera::tune {
namespace {

float featureOf(const std::vector<float>& features, const std::string& name) {
  const std::vector<std::string>& names = featureNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return features.at(i);
  ADD_FAILURE() << "no feature " << name;
  return 0;
}

TEST(Features, OneFiniteValuePerDistinctName) {
  const std::vector<std::string>& names = featureNames();
  EXPECT_GT(names.size(), 40u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  MultiLevelTilingSpace space;
  for (const char* workload : {"matmul:64x48x32,bias,relu", "conv2d:1x8x14x14,16x8x3x3,s1,p1", "bmm:2x16x16x16"}) {
    const Compute compute = computeOf(parseWorkload(workload));
    for (uint64_t seed = 0; seed < 8; ++seed) {
      const std::vector<float> features = extractFeatures(space.sample(compute, seed).nest());
      ASSERT_EQ(features.size(), names.size()) << workload;
      for (size_t i = 0; i < features.size(); ++i) EXPECT_TRUE(std::isfinite(features[i])) << workload << " " << names[i];
    }
  }
}

TEST(Features, SeeTheLoopStructure) {
  const Compute compute = computeOf(parseWorkload("matmul:64x64x64"));
  LoopNest nest = initialNest(compute); // i j k, serial
  std::vector<float> plain = extractFeatures(nest);
  EXPECT_EQ(featureOf(plain, "serial.loops"), 3);
  EXPECT_FLOAT_EQ(featureOf(plain, "serial.log2_extent"), std::log2(1.0 + 64.0 * 64 * 64));
  EXPECT_EQ(featureOf(plain, "vector.width"), 0);
  EXPECT_EQ(featureOf(plain, "acc.present"), 0);
  // k innermost: rhs[k, j] moves by a row of 64 per step; out stays put.
  EXPECT_FLOAT_EQ(featureOf(plain, "inner_reduction.stride_rhs"), std::log2(65.0f));
  EXPECT_EQ(featureOf(plain, "inner_reduction.stride_out"), 0);
  // The whole nest touches 3 matrices of 16 KiB: intensity 2 * 64^3 / 48 KiB.
  EXPECT_NEAR(featureOf(plain, "l2.log2_intensity"), std::log2(1.0 + 2.0 * 64 * 64 * 64 / (3 * 64 * 64 * 4)), 1e-5);

  nest.loops[0].annotation = LoopAnnotation::Parallel;
  std::swap(nest.loops[1], nest.loops[2]); // i k j
  nest.loops[2].annotation = LoopAnnotation::Vectorized;
  std::vector<float> scheduled = extractFeatures(nest);
  EXPECT_EQ(featureOf(scheduled, "parallel.loops"), 1);
  EXPECT_EQ(featureOf(scheduled, "vector.width"), 64);
  EXPECT_EQ(featureOf(scheduled, "vector.multiple_of_16"), 1);
  EXPECT_FLOAT_EQ(featureOf(scheduled, "inner_spatial.stride_rhs"), 1); // log2(1 + 1): contiguous
  EXPECT_FLOAT_EQ(featureOf(scheduled, "inner_spatial.stride_lhs"), 0); // broadcast
}

} // namespace
} // namespace tessera::tune
