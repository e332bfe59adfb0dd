#include "RecordedRuns.h"
#include "replay/Explanation.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
Event at(uint64_t sequence, EventPayload payload) { return Event{sequence, sequence * 0.01, std::move(payload)}; }
ENode op(OpKind kind, std::vector<EClassId> children) { return ENode{kind, 0, 0, std::move(children)}; }

// x -> relu (class 2). Step 0: rule A adds sigmoid(x) into class 3, merged into 2. Step 1: rule B
// matches class 2 and adds tanh(x) into class 4, merged into 2.
std::vector<Event> twoRewrites() {
  return {at(0, RunStateChanged{}),
          at(1, ENodeAdded{1, op(OpKind::Input, {})}),
          at(2, ENodeAdded{2, op(OpKind::Relu, {1})}),
          at(4, ENodeAdded{3, op(OpKind::Sigmoid, {1})}),
          at(5, ClassesMerged{2, 3}),
          at(6, RuleApplied{"A", 0, {2}, {3}, 3}), // counts the seed too, as the provenance recorder does
          at(7, StepCommitted{0, "A", 0, 0, 0, 3, 2}),
          at(8, BestCostChanged{0, 10, 8}),
          at(9, ENodeAdded{4, op(OpKind::Tanh, {1})}),
          at(10, ClassesMerged{2, 4}),
          at(11, RuleApplied{"B", 1, {2}, {4}, 1}),
          at(12, StepCommitted{1, "B", 0, 0, 0, 4, 2}),
          at(13, BestCostChanged{1, 8, 5})};
}
} // namespace

TEST(Explanation, ChainFollowsRewritesBackToTheOriginalModel) {
  const auto log = twoRewrites();
  ReplayState state;
  for (const Event& e : log) state.apply(e);
  ASSERT_EQ(state.egraph.numNodes(), 4u);
  const auto chain = rewriteChain(state, log, 3);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0].rule, "B");
  EXPECT_EQ(chain[0].step, 1);
  EXPECT_EQ(chain[0].sequence, 11u);
  EXPECT_EQ(chain[1].rule, "A");
  EXPECT_EQ(chain[1].node, 2u);
  EXPECT_EQ(chain[2].rule, "");
  EXPECT_EQ(chain[2].node, 1u);
  EXPECT_EQ(rewriteChain(state, log, 99).size(), 0u) << "an unknown node has no chain";
}

TEST(Explanation, StepShowsCostBeforeAndAfterAndTheApplications) {
  const auto log = twoRewrites();
  ReplayState state;
  for (const Event& e : log) state.apply(e);
  const StepExplanation why = explainStep(state, log, 1, "B");
  ASSERT_NE(why.commit, nullptr);
  EXPECT_EQ(why.commit->commit.action, "B");
  EXPECT_EQ(why.applications, 1u);
  EXPECT_EQ(why.applicationsOfRule, 1u);
  EXPECT_EQ(why.bestBefore, 8.0);
  EXPECT_EQ(why.bestAfter, 5.0);
  EXPECT_EQ(why.committedNode, nullptr);
  EXPECT_EQ(explainStep(state, log, 7).commit, nullptr);
}

TEST(Explanation, MctsStepListsTheAlternativesTheSearchWeighed) {
  const auto log = recorded::syntheticMctsRun(3, 12);
  ReplayState state;
  for (const Event& e : log) state.apply(e);
  const StepExplanation why = explainStep(state, log, 1);
  ASSERT_NE(why.committedNode, nullptr);
  ASSERT_FALSE(why.alternatives.empty());
  size_t chosen = 0;
  for (const Alternative& a : why.alternatives) {
    chosen += a.chosen;
    EXPECT_LE(a.visits, why.alternatives.front().visits);
  }
  EXPECT_EQ(chosen, 1u);
  EXPECT_TRUE(why.alternatives.front().chosen) << "the synthetic search commits the most visited child";
  EXPECT_NEAR(*why.bestAfter, *why.bestBefore * 0.9, 1e-12);
}
