// The dream trace: its real rollout is the rlflow strategy's argmax play, step for step, with the
// real masks of the states it passes; its imagined rollout is the world model fed its own
// predictions (open loop) on the same actions, beside one-step predictions from the real states.
#include "rlflow/RlflowDreamTrace.h"
#include "rlflow/RlflowTraining.h"

#include "RlTestGraphs.h"

#include "rl/RewriteEnvironment.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::test;

namespace {

class RlflowDreamTraceTest : public ::testing::Test {
protected:
  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  AgentConfig config = rlflowConfigFor(pack.list.size());
  RewriteEnvironment environment{pack.list, *cost, argmaxOptionsFor(config)};
  int rules = static_cast<int>(pack.list.size());
};

} // namespace

TEST_F(RlflowDreamTraceTest, TheRealRolloutIsTheStrategysArgmaxPlay) {
  RlflowAgent agent(config, 1);
  const DreamTrace trace = traceDream(agent, environment, smallModel(), {.maxSteps = kArgmaxMaxSteps});
  ASSERT_FALSE(trace.steps.empty());

  GraphEpisodes models({{"small", smallModel()}}, pack.list, *cost, argmaxOptionsFor(config));
  size_t realSteps = 0;
  std::vector<double> rewards;
  rlflowArgmaxSpeedups(agent, models, realSteps, &rewards);
  EXPECT_DOUBLE_EQ(trace.realReturn, rewards.front());
  EXPECT_EQ(trace.realSteps, realSteps) << "every real step is counted, the final stop included";
  EXPECT_LT(trace.finalCostMs, trace.initialCostMs);
  EXPECT_FALSE(trace.stopReason.empty());

  // Each step's real mask is the mask of the real state the action was taken in.
  RewriteEnvironment replay(pack.list, *cost, argmaxOptionsFor(config));
  replay.reset(smallModel());
  double total = 0;
  for (const DreamTraceStep& step : trace.steps) {
    const ActionMask mask = maskOf(replay.observation(), rules);
    int present = 0, actions = 0;
    for (int locations : mask.locations) {
      present += locations > 0 ? 1 : 0;
      actions += locations;
    }
    EXPECT_EQ(step.realRules, present) << "step " << step.step;
    EXPECT_EQ(step.realActions, actions) << "step " << step.step;
    const size_t candidate = candidateOf(replay.observation(), step.action, rules);
    ASSERT_LT(candidate, replay.candidates().size());
    EXPECT_EQ(step.rule, replay.rule(replay.candidates()[candidate].ruleIndex).name());
    const double reward = replay.step(candidate).reward;
    EXPECT_DOUBLE_EQ(step.realReward, reward);
    total += reward;
  }
  EXPECT_DOUBLE_EQ(total, trace.realReturn);
}

TEST_F(RlflowDreamTraceTest, TheDreamRunsOpenLoopOnTheSameActions) {
  RlflowAgent agent(config, 4), twin(config, 4);
  const DreamTrace trace = traceDream(agent, environment, smallModel(), {.maxSteps = 6});
  ASSERT_GE(trace.steps.size(), 2u);
  EXPECT_LE(trace.steps.size(), 6u);
  EXPECT_DOUBLE_EQ(trace.steps[0].dreamtReward, trace.steps[0].oneStepReward) << "both start from the first real state";

  // The twin replays the trace's calls in order: the dream goes on from its own predicted z, and
  // its predicted mask of each step is the mask head's on that z.
  RewriteEnvironment real(pack.list, *cost, argmaxOptionsFor(config));
  real.reset(smallModel());
  Latent z = twin.encode(real.observation());
  DreamMemory dreamt = twin.dreamStart(), teacherForced = twin.dreamStart();
  bool departed = false;
  for (const DreamTraceStep& step : trace.steps) {
    const ActionMask mask = twin.predictMask(z);
    int present = 0;
    for (int locations : mask.locations) present += locations > 0 ? 1 : 0;
    EXPECT_EQ(step.dreamtRules, present) << "step " << step.step;
    EXPECT_EQ(step.actionInDream, mask.locations[static_cast<size_t>(step.action.rule)] > step.action.location);
    if (!step.actionInDream && !departed) {
      EXPECT_EQ(trace.firstDeparture, step.step);
      departed = true;
    }
    const DreamStep oneStep = twin.dream(teacherForced, twin.encode(real.observation()), step.action, 1.0);
    DreamStep imagined = twin.dream(dreamt, z, step.action, 1.0);
    EXPECT_DOUBLE_EQ(step.oneStepReward, oneStep.reward) << "step " << step.step;
    EXPECT_DOUBLE_EQ(step.dreamtReward, imagined.reward) << "step " << step.step;
    z = std::move(imagined.next);
    real.step(candidateOf(real.observation(), step.action, rules));
  }
  if (!departed) {
    EXPECT_EQ(trace.firstDeparture, -1);
  }
  bool differs = false;
  for (const DreamTraceStep& step : trace.steps) differs = differs || step.dreamtReward != step.oneStepReward;
  EXPECT_TRUE(differs) << "after the first step the dream reads its own z, not the real state's";
}

TEST_F(RlflowDreamTraceTest, ItStopsAtTheStepLimitAndRepeats) {
  RlflowAgent agent(config, 2), again(config, 2);
  const DreamTrace first = traceDream(agent, environment, smallModel(), {.maxSteps = 1});
  ASSERT_EQ(first.steps.size(), 1u);
  EXPECT_EQ(first.stopReason, "step limit");
  EXPECT_EQ(first.realSteps, 1u);
  const DreamTrace second = traceDream(again, environment, smallModel(), {.maxSteps = 1});
  EXPECT_EQ(second.steps[0].dreamtReward, first.steps[0].dreamtReward);
  EXPECT_EQ(second.steps[0].realReward, first.steps[0].realReward);
  EXPECT_EQ(second.steps[0].rule, first.steps[0].rule);
}

// Another policy can play the real rollout: here the last candidate every step, which the
// untrained controller (greedy) never takes; the world model is fed those actions.
TEST_F(RlflowDreamTraceTest, AnotherPolicyCanPlayTheRealRollout) {
  RlflowAgent agent(config, 1);
  const DreamTrace own = traceDream(agent, environment, smallModel(), {.maxSteps = 3});
  std::vector<RlflowAction> taken;
  DreamTraceOptions options{.maxSteps = 3};
  options.choose = [&](RewriteEnvironment& real) {
    const size_t last = real.candidates().size() - 1;
    taken.push_back(actionOf(real.observation(), last, rules));
    return last;
  };
  const DreamTrace other = traceDream(agent, environment, smallModel(), options);
  ASSERT_EQ(other.steps.size(), taken.size());
  ASSERT_FALSE(taken.empty());
  for (size_t k = 0; k < taken.size(); ++k) {
    EXPECT_EQ(other.steps[k].action.rule, taken[k].rule) << "step " << k;
    EXPECT_EQ(other.steps[k].action.location, taken[k].location) << "step " << k;
  }
  ASSERT_FALSE(own.steps.empty());
  EXPECT_FALSE(own.steps.front().action.rule == other.steps.front().action.rule &&
               own.steps.front().action.location == other.steps.front().action.location)
      << "the controller's first rewrite is the cheapest, not the last listed";
}
