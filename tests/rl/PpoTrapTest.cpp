// PPO learns to escape greedy's trap: on a model where every first rewrite costs more, but one of
// them opens a rewrite that saves more than it cost, greedy (and the untrained agent, which leans
// greedy) stops at once; after training, the argmax policy takes the detour. Three seeds.
#include "xrlflow/XrlflowTraining.h"

#include "RlTestGraphs.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::test;

namespace {

class PpoTrapTest : public ::testing::TestWithParam<uint64_t> {
protected:
  RulePack pack;
  std::vector<const Rule*> rules = pack.only({"tensat-m08", "tensat-s115"});
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
};

} // namespace

TEST_P(PpoTrapTest, TheTrainedAgentTakesTheDetourGreedyCannot) {
  AgentConfig config = agentConfigFor(rules.size());
  config.horizon = 4;
  GraphEpisodes trap({{"trap", pairedBranchesWithTail(40)}}, rules, *cost, environmentOptionsFor(config));
  XrlflowAgent agent(config, GetParam());
  ASSERT_EQ(argmaxSpeedups(agent, trap).front(), 0.0) << "the untrained agent should stop where greedy stops";

  TrainingOptions options;
  options.episodes = 300;
  TrainingReport report = trainAgent(agent, trap, options);
  EXPECT_EQ(report.episodes.size(), 300u);
  EXPECT_EQ(report.updates.size(), 30u);

  const double speedup = argmaxSpeedups(agent, trap).front();
  EXPECT_GT(speedup, 0.0) << "seed " << GetParam();
  // The later episodes earn more than the first ones: the curve goes up.
  double early = 0, late = 0;
  for (int i = 0; i < 50; ++i) {
    early += report.episodes[static_cast<size_t>(i)].reward;
    late += report.episodes[report.episodes.size() - 1 - static_cast<size_t>(i)].reward;
  }
  EXPECT_GT(late, early) << "seed " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(ThreeSeeds, PpoTrapTest, ::testing::Values(1, 2, 3));
