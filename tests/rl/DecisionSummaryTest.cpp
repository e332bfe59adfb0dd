// What an agent's decision looks like in the event log: capped, most probable first, the action
// taken always in it, each location also named in the model's own ids.
#include "rl/DecisionSummary.h"

#include "RlTestGraphs.h"

#include "rl/RewriteEnvironment.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tessera;
using namespace tessera::test;

namespace {

class DecisionSummaryTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (NodeId id = 0; id < model.size(); ++id)
      if (model.node(id).name.empty()) model.mutableNode(id).name = "op" + std::to_string(id);
    environment.reset(model);
    ASSERT_GE(environment.candidates().size(), 3u);
  }

  // Probabilities rising with the action's index: the last candidate, then stop... are least likely.
  std::vector<float> risingProbabilities() const {
    const size_t actions = environment.candidates().size() + 1;
    std::vector<float> p(actions);
    float total = 0;
    for (size_t a = 0; a < actions; ++a) total += p[a] = static_cast<float>(a + 1);
    for (float& value : p) value /= total;
    return p;
  }

  Graph model = smallModel();
  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  RewriteEnvironment environment{pack.list, *cost};
};

} // namespace

TEST_F(DecisionSummaryTest, ListsTheMostProbableFirstWithTheirRulesAndCostChanges) {
  const std::vector<float> p = risingProbabilities();
  const size_t stop = environment.stopAction();
  const AgentDecided decision = summarizeDecision(4, 1.5, p, stop, environment, OriginalOps(model), 100);
  EXPECT_EQ(decision.step, 4);
  EXPECT_EQ(decision.value, 1.5);
  EXPECT_EQ(decision.listed, p.size());
  ASSERT_EQ(decision.candidates.size(), p.size());
  EXPECT_EQ(decision.chosen, 0) << "stop is the most probable here";
  EXPECT_EQ(decision.candidates[0].rule, kAgentStopAction);
  EXPECT_TRUE(decision.candidates[0].location.empty());
  for (size_t i = 1; i < decision.candidates.size(); ++i) {
    const AgentCandidate& entry = decision.candidates[i];
    const RewriteCandidate& candidate = environment.candidates()[stop - i];
    EXPECT_FLOAT_EQ(static_cast<float>(entry.probability), p[stop - i]);
    EXPECT_EQ(entry.rule, environment.rule(candidate.ruleIndex).name());
    EXPECT_EQ(entry.location, std::vector<uint32_t>(candidate.location.begin(), candidate.location.end()));
    EXPECT_DOUBLE_EQ(entry.costDeltaMs, candidate.costMs - environment.costMs());
    // The model's ops by name: the same ops, in the model's numbering.
    ASSERT_EQ(entry.originalOps.size(), entry.location.size());
    for (size_t k = 0; k < entry.location.size(); ++k)
      EXPECT_EQ(model.node(entry.originalOps[k]).name, environment.graph().node(entry.location[k]).name);
  }
}

TEST_F(DecisionSummaryTest, KeepsTheTakenActionWhenItIsNotAmongTheTopN) {
  const std::vector<float> p = risingProbabilities();
  const AgentDecided decision = summarizeDecision(0, 0, p, /*chosen=*/0, environment, OriginalOps(model), 3);
  ASSERT_EQ(decision.candidates.size(), 3u);
  EXPECT_EQ(decision.chosen, 2) << "the least probable action takes the last place";
  EXPECT_EQ(decision.candidates[0].rule, kAgentStopAction);
  EXPECT_EQ(decision.candidates[2].rule, environment.rule(environment.candidates()[0].ruleIndex).name());
  EXPECT_FLOAT_EQ(static_cast<float>(decision.candidates[2].probability), p[0]);
}

// A node is found in the model by its name only: one the model does not have is left out.
TEST_F(DecisionSummaryTest, NodesTheModelDoesNotNameAreLeftOut) {
  Graph other = smallModel();
  for (NodeId id = 0; id < other.size(); ++id) other.mutableNode(id).name = "elsewhere" + std::to_string(id);
  const AgentDecided decision = summarizeDecision(0, 0, risingProbabilities(), 0, environment, OriginalOps(other));
  for (const AgentCandidate& entry : decision.candidates) EXPECT_TRUE(entry.originalOps.empty()) << entry.rule;
}
