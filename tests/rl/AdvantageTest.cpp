#include "rl/Advantage.h"

#include <gtest/gtest.h>

using namespace tessera;

TEST(Advantage, OneEpisodeByHand) {
  // gamma 0.9, lambda 0.8: delta_t = r_t + 0.9 V_{t+1} - V_t, A_t = delta_t + 0.72 A_{t+1}.
  AdvantageEstimate e = estimateAdvantages(std::vector<double>{1, 0, 2}, std::vector<double>{0.5, 0.2, 1.0}, {false, false, true}, 0.9, 0.8);
  ASSERT_EQ(e.advantages.size(), 3u);
  EXPECT_NEAR(e.advantages[2], 1.0, 1e-12);               // 2 - 1.0
  EXPECT_NEAR(e.advantages[1], 0.7 + 0.72 * 1.0, 1e-12);  // 0 + 0.9 * 1.0 - 0.2, then the trace
  EXPECT_NEAR(e.advantages[0], 0.68 + 0.72 * 1.42, 1e-12); // 1 + 0.9 * 0.2 - 0.5
  EXPECT_NEAR(e.returns[0], e.advantages[0] + 0.5, 1e-12);
  EXPECT_NEAR(e.returns[2], 2.0, 1e-12);
}

TEST(Advantage, NothingFlowsAcrossAnEpisodeBoundary) {
  // The second episode's large reward must not leak into the first one's advantages.
  std::vector<double> rewards{1, 1, 100}, values{0, 0, 0};
  AdvantageEstimate split = estimateAdvantages(rewards, values, {false, true, true}, 0.99, 0.95);
  AdvantageEstimate first = estimateAdvantages(std::vector<double>{1, 1}, std::vector<double>{0, 0}, {false, true}, 0.99, 0.95);
  EXPECT_DOUBLE_EQ(split.advantages[0], first.advantages[0]);
  EXPECT_DOUBLE_EQ(split.advantages[1], first.advantages[1]);
  EXPECT_DOUBLE_EQ(split.advantages[2], 100.0);
}

TEST(Advantage, GammaAndLambdaOneGiveMonteCarloReturnsMinusValues) {
  std::vector<double> rewards{3, -1, 2, 5}, values{1, 2, 3, 4};
  AdvantageEstimate e = estimateAdvantages(rewards, values, {false, false, false, true}, 1.0, 1.0);
  const double togo[] = {9, 6, 7, 5};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(e.returns[i], togo[i], 1e-12) << i;
    EXPECT_NEAR(e.advantages[i], togo[i] - values[i], 1e-12) << i;
  }
}

TEST(Advantage, LambdaZeroIsTheOneStepTemporalDifference) {
  std::vector<double> rewards{1, 2, 3}, values{0.5, 1.5, 2.5};
  AdvantageEstimate e = estimateAdvantages(rewards, values, {false, false, true}, 0.5, 0.0);
  EXPECT_NEAR(e.advantages[0], 1 + 0.5 * 1.5 - 0.5, 1e-12);
  EXPECT_NEAR(e.advantages[1], 2 + 0.5 * 2.5 - 1.5, 1e-12);
  EXPECT_NEAR(e.advantages[2], 3 - 2.5, 1e-12);
}
