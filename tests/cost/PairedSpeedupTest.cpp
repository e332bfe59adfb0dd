// The statistics of end-to-end comparisons: the median paired ratio and its bootstrap interval.
#include "cost/PairedSpeedup.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tessera;

TEST(PairedSpeedup, ConstantRatiosGiveAPointInterval) {
  std::vector<double> original{10, 12, 9, 11}, candidate{8, 9.6, 7.2, 8.8};
  SpeedupEstimate s = pairedSpeedup(original, candidate);
  EXPECT_NEAR(s.pct, 20.0, 1e-9);
  EXPECT_NEAR(s.lowPct, 20.0, 1e-9);
  EXPECT_NEAR(s.highPct, 20.0, 1e-9);
  EXPECT_EQ(s.confidence, 0.95);
}

// Pairing cancels load that slows both runs of a pair: the drift here is 3x, the ratio constant.
TEST(PairedSpeedup, PairingCancelsLoadSharedByAPair) {
  std::vector<double> original, candidate;
  for (int i = 0; i < 20; ++i) {
    const double load = 1 + 0.1 * i;
    original.push_back(10 * load);
    candidate.push_back(11 * load);
  }
  SpeedupEstimate s = pairedSpeedup(original, candidate);
  EXPECT_NEAR(s.pct, -10.0, 1e-9);
  EXPECT_NEAR(s.highPct, -10.0, 1e-9);
}

TEST(PairedSpeedup, MedianIgnoresAnOutlierAndTheIntervalHoldsTheEstimate) {
  std::vector<double> original{10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
  std::vector<double> candidate{9, 9.2, 8.8, 9.1, 8.9, 9.0, 9.3, 8.7, 9.0, 40}; // one run hit by another process
  SpeedupEstimate s = pairedSpeedup(original, candidate);
  EXPECT_NEAR(s.pct, 10.0, 1e-9);
  EXPECT_LE(s.lowPct, s.pct);
  EXPECT_GE(s.highPct, s.pct);
  EXPECT_GT(s.lowPct, 0.0) << "nine of ten pairs are about 10 % faster";
  EXPECT_LT(s.highPct, 15.0);
  // Seeded: the same timings give the same interval; a wider confidence a wider one.
  SpeedupEstimate again = pairedSpeedup(original, candidate);
  EXPECT_EQ(again.lowPct, s.lowPct);
  EXPECT_EQ(again.highPct, s.highPct);
  SpeedupEstimate wide = pairedSpeedup(original, candidate, 0.99);
  EXPECT_LE(wide.lowPct, s.lowPct);
  EXPECT_GE(wide.highPct, s.highPct);
}

TEST(PairedSpeedup, NoisyTimingsOfEqualGraphsGiveAnIntervalAcrossZero) {
  std::vector<double> original{10, 11, 9.5, 10.4, 9.8, 10.9, 10.1, 9.6, 10.3, 10.0};
  std::vector<double> candidate{10.5, 10.2, 9.9, 10.0, 10.3, 10.1, 9.4, 10.2, 9.9, 10.6};
  SpeedupEstimate s = pairedSpeedup(original, candidate);
  EXPECT_LT(s.lowPct, 0.0);
  EXPECT_GT(s.highPct, 0.0);
}

TEST(PairedSpeedup, RefusesTimingsItCannotPair) {
  std::vector<double> two{1, 2}, three{1, 2, 3}, one{1}, zero{1, 0};
  EXPECT_THROW(pairedSpeedup(two, three), Error);
  EXPECT_THROW(pairedSpeedup(one, one), Error);
  EXPECT_THROW(pairedSpeedup(two, zero), Error);
}

TEST(PairedSpeedup, MedianOfEvenAndOddCounts) {
  EXPECT_EQ(medianOf({3, 1, 2}), 2.0);
  EXPECT_EQ(medianOf({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(medianOf({}), 0.0);
}
