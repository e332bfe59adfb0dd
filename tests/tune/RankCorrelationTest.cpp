// Spearman's rank correlation, which the evolutionary search reports per round.
#include "tune/RankCorrelation.h"

#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

TEST(RankCorrelation, TiesShareTheirMeanRank) {
  EXPECT_EQ(ranksOf({3, 1, 3, 2}), (std::vector<double>{2.5, 0, 2.5, 1}));
  EXPECT_EQ(ranksOf({}), std::vector<double>{});
}

TEST(RankCorrelation, OrderNotScaleCounts) {
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {10, 200, 3000, 40000}).value(), 1.0);
  EXPECT_DOUBLE_EQ(spearman({1, 2, 3, 4}, {4, 3, 2, 1}).value(), -1.0);
  // One swapped pair of four: 1 - 6 * 2 / (4 * 15).
  EXPECT_NEAR(spearman({1, 2, 3, 4}, {1, 3, 2, 4}).value(), 0.8, 1e-12);
}

TEST(RankCorrelation, NoValueWithoutAnOrderToCompare) {
  EXPECT_FALSE(spearman({1, 2}, {2, 1}).has_value());
  EXPECT_FALSE(spearman({1, 2, 3}, {5, 5, 5}).has_value());
  EXPECT_THROW(spearman({1, 2, 3}, {1, 2}), Error);
}

} // namespace
} // namespace tessera::tune
