#include "cost/PredictionAccuracy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace tessera;

TEST(PredictionAccuracy, TiedValuesShareTheMeanOfTheirRanks) {
  const std::vector<double> values{5, 1, 5, 3};
  EXPECT_EQ(fractionalRanks(values), (std::vector<double>{3.5, 1, 3.5, 2}));
}

TEST(PredictionAccuracy, SpearmanIsOneForAnyIncreasingRelationAndMinusOneReversed) {
  const std::vector<double> measured{1, 2, 3, 4, 5};
  const std::vector<double> squared{1, 4, 9, 16, 25};
  const std::vector<double> reversed{50, 40, 30, 20, 10};
  EXPECT_DOUBLE_EQ(spearmanCorrelation(squared, measured), 1.0);
  EXPECT_DOUBLE_EQ(spearmanCorrelation(reversed, measured), -1.0);
}

TEST(PredictionAccuracy, SpearmanMatchesTheTextbookFormulaWithoutTies) {
  // rho = 1 - 6 sum d^2 / (n (n^2 - 1)); rank differences here are 1, -1, 0, 0, 0 -> 1 - 12 / 120.
  const std::vector<double> predicted{2, 1, 3, 4, 5};
  const std::vector<double> measured{1, 2, 3, 4, 5};
  EXPECT_NEAR(spearmanCorrelation(predicted, measured), 0.9, 1e-12);
}

TEST(PredictionAccuracy, SpearmanWithTiesIsPearsonOfFractionalRanks) {
  // Ranks: predicted {1.5, 1.5, 3, 4}, measured {1, 2, 3, 4}; Pearson by hand = 4.5 / sqrt(4.5 * 5).
  const std::vector<double> predicted{7, 7, 8, 9};
  const std::vector<double> measured{1, 2, 3, 4};
  EXPECT_NEAR(spearmanCorrelation(predicted, measured), 4.5 / std::sqrt(4.5 * 5.0), 1e-12);
}

TEST(PredictionAccuracy, SpearmanIsUndefinedWithoutAnOrderToCompare) {
  EXPECT_TRUE(std::isnan(spearmanCorrelation(std::vector<double>{1}, std::vector<double>{2})));
  EXPECT_TRUE(std::isnan(spearmanCorrelation(std::vector<double>{3, 3, 3}, std::vector<double>{1, 2, 3})));
}

TEST(PredictionAccuracy, MapeAveragesRelativeErrorsAgainstTheMeasurement) {
  const std::vector<double> predicted{11, 8, 30};
  const std::vector<double> measured{10, 10, 30};
  EXPECT_NEAR(meanAbsolutePercentageError(predicted, measured), (10.0 + 20.0 + 0.0) / 3.0, 1e-12);
  // A pair without a positive measurement is left out rather than dividing by zero.
  EXPECT_NEAR(meanAbsolutePercentageError(std::vector<double>{5, 11}, std::vector<double>{0, 10}), 10.0, 1e-12);
  EXPECT_TRUE(std::isnan(meanAbsolutePercentageError(std::vector<double>{}, std::vector<double>{})));
}
