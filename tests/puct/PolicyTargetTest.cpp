// The policy targets self-play records at a planned root: visit shares, and Gumbel MuZero's
// completed-Q policy, which keeps an unvisited action's prior share where visit shares teach zero.
#include "search/mcts/PolicyTarget.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace tessera::mcts;

namespace {

// Four actions: a well-visited one that paid little, one visited once that paid most, one the
// prior favours but the 16 simulations never reached, and one that cannot act (no prior).
PlannedRoot sixteenSimulations() {
  PlannedRoot root;
  root.visits = {12, 1, 0, 0};
  root.meanValues = {1.0, 9.0, 0.0, 0.0};
  root.priors = {0.5f, 0.1f, 0.4f, 0.0f};
  root.value = 3.0;
  return root;
}

double sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

} // namespace

TEST(PolicyTarget, VisitSharesTeachZeroToWhatTheSearchNeverReached) {
  const std::vector<float> shares = visitShares(sixteenSimulations());
  ASSERT_EQ(shares.size(), 4u);
  EXPECT_NEAR(shares[0], 12.0 / 13, 1e-6);
  EXPECT_EQ(shares[2], 0.0f) << "the prior's 40 % is taught zero";
  EXPECT_TRUE(visitShares(PlannedRoot{{0, 0}, {0, 0}, {0.5f, 0.5f}, 0}).empty());
}

TEST(PolicyTarget, CompletedQRaisesWhatPaidAndKeepsWhatWasNotTried) {
  const PlannedRoot root = sixteenSimulations();
  const std::vector<float> policy = completedQPolicy(root);
  ASSERT_EQ(policy.size(), 4u);
  EXPECT_NEAR(sum(policy), 1.0, 1e-6);
  EXPECT_EQ(policy[3], 0.0f) << "an action that cannot act gets nothing";
  EXPECT_GT(policy[1], policy[0]) << "the action that paid most overtakes the most visited one";
  EXPECT_GT(policy[2], 0.0f) << "the unvisited action keeps a share instead of zero";
  EXPECT_GT(policy[2], policy[0]) << "valued at the mixed value, it ranks above the visited action that paid least";

  // The formula by hand: mixed value (v + N * sum(pi q) / sum(pi)) / (1 + N) over the visited,
  // Q min-max normalised over the visited and the mixed value, sigma = (50 + 12) * 0.1.
  const double mixed = (3.0 + 13 * (0.5 * 1.0 + 0.1 * 9.0) / 0.6) / 14;
  const double low = 1.0, high = 9.0, sigma = 62 * 0.1;
  const double l0 = std::log(0.5) + sigma * (1.0 - low) / (high - low);
  const double l1 = std::log(0.1) + sigma * (9.0 - low) / (high - low);
  const double l2 = std::log(0.4) + sigma * (mixed - low) / (high - low);
  const double z = std::exp(l0) + std::exp(l1) + std::exp(l2);
  EXPECT_NEAR(policy[0], std::exp(l0) / z, 1e-5);
  EXPECT_NEAR(policy[1], std::exp(l1) / z, 1e-5);
  EXPECT_NEAR(policy[2], std::exp(l2) / z, 1e-5);
}

TEST(PolicyTarget, WithoutPriorsOrVisitsItFallsBackToVisitShares) {
  PlannedRoot noPriors = sixteenSimulations();
  noPriors.priors.clear();
  EXPECT_EQ(completedQPolicy(noPriors), visitShares(noPriors));
  PlannedRoot equal = sixteenSimulations();
  equal.meanValues = {2.0, 2.0, 0.0, 0.0};
  equal.value = 2.0;
  const std::vector<float> policy = completedQPolicy(equal);
  EXPECT_NEAR(policy[0], 0.5, 1e-6) << "equal values: the prior itself, renormalised";
  EXPECT_NEAR(policy[2], 0.4, 1e-6);
}

TEST(PolicyTarget, NamesParseAndOthersAreRefused) {
  EXPECT_EQ(parsePolicyTarget("visits"), PolicyTarget::Visits);
  EXPECT_EQ(parsePolicyTarget("completed_q"), PolicyTarget::CompletedQ);
  EXPECT_STREQ(policyTargetName(PolicyTarget::CompletedQ), "completed_q");
  EXPECT_THROW(parsePolicyTarget("gumbel"), tessera::Error);
}
