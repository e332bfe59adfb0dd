// The RLFlow agent's parts: its action space over the environment's candidates, the controller
// in a real state, PPO on z, the world model's learning, and checkpoints (an X-RLflow one is
// refused, and the reverse).
#include "rlflow/RlflowAgent.h"
#include "rlflow/RlflowTraining.h"

#include "RlTestFiles.h"
#include "RlTestGraphs.h"

#include "rl/RewriteEnvironment.h"
#include "rl/RulePackFingerprint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

using namespace tessera;
using namespace tessera::test;

namespace {

class RlflowAgentTest : public ::testing::Test {
protected:
  void SetUp() override { env.reset(smallModel()); }

  CheckpointHeader header() const {
    CheckpointHeader h;
    h.rulePack = rulePackFingerprint(pack.list);
    h.cost = cost->spec();
    return h;
  }

  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  RewriteEnvironment env{pack.list, *cost, {}};
  AgentConfig config = rlflowConfigFor(pack.list.size());
  int rules = static_cast<int>(pack.list.size());
};

} // namespace

TEST_F(RlflowAgentTest, EveryCandidateIsOneRuleAndLocation) {
  const Observation& o = env.observation();
  ASSERT_GT(o.candidates.size(), 1u);
  const ActionMask mask = maskOf(o, rules);
  int listed = 0;
  for (int n : mask.locations) listed += n;
  EXPECT_EQ(static_cast<size_t>(listed), o.candidates.size()); // the small model has fewer than 16 per rule
  for (size_t i = 0; i <= o.candidates.size(); ++i) EXPECT_EQ(candidateOf(o, actionOf(o, i, rules), rules), i);
  // The first listed candidate is the cheapest, so it is its rule's location 0 and its saving is the rule's best.
  const RlflowAction first = actionOf(o, 0, rules);
  EXPECT_EQ(first.location, 0);
  EXPECT_FLOAT_EQ(mask.bestSaving[static_cast<size_t>(first.rule)], -o.candidates[0].costDeltaPct);
  EXPECT_EQ(candidateOf(o, {first.rule, 99}, rules), o.candidates.size()) << "a location the rule lacks is no rewrite";
}

TEST_F(RlflowAgentTest, InARealStateItScoresEveryCandidateAndStopAndStartsGreedy) {
  RlflowAgent agent(config, 1);
  const AgentDecision decision = agent.decideReal(env.observation());
  ASSERT_EQ(decision.probabilities.size(), env.candidates().size() + 1);
  EXPECT_NEAR(std::accumulate(decision.probabilities.begin(), decision.probabilities.end(), 0.0), 1.0, 1e-4);
  ASSERT_LT(decision.action, env.candidates().size());
  const double bestDrop = env.costMs() - env.candidates().front().costMs;
  EXPECT_GT(bestDrop, 0);
  EXPECT_GE(env.costMs() - env.candidates()[decision.action].costMs, 0.9 * bestDrop);
}

TEST_F(RlflowAgentTest, ANewControllerTakesGreedysRewriteWhateverItsSeed) {
  // Candidates are listed cheapest first: greedy takes candidate 0 (rule 62, saving 12.494 %), not
  // candidate 3 (rule 131, 12.489 %, its only location). The heads start at zero and the location
  // prior is decisive, so the priors alone choose; before, every seed chose candidate 3.
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RlflowAgent agent(config, seed);
    EXPECT_EQ(agent.decideReal(env.observation()).action, 0u) << "seed " << seed;
  }
}

TEST_F(RlflowAgentTest, AControllerUpdateFollowsTheAdvantage) {
  RlflowAgent agent(config, 5);
  const Latent z = agent.encode(env.observation());
  const ActionMask mask = maskOf(env.observation(), rules);
  const RlflowAction good = actionOf(env.observation(), env.candidates().size() - 1, rules);
  const RlflowAction bad = actionOf(env.observation(), 0, rules);
  ASSERT_NE(good.rule, bad.rule);
  auto odds = [&] {
    const AgentDecision d = agent.decideReal(env.observation());
    return d.probabilities[env.candidates().size() - 1] / d.probabilities[0];
  };
  const double before = odds();
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 8; ++i) {
      RlflowDecision d = agent.decide(z, mask, false);
      d.action = i % 2 ? good : bad;
      // The log-probability the controller gives the forced action, from its real-state reading.
      const AgentDecision real = agent.decideReal(env.observation());
      d.logProbability = std::log(real.probabilities[candidateOf(env.observation(), d.action, rules)]);
      agent.record(z, mask, d, d.action.rule == good.rule ? 1.0 : -1.0, true);
    }
    EXPECT_EQ(agent.update().transitions, 8u);
    EXPECT_EQ(agent.recorded(), 0u);
  }
  EXPECT_GT(odds(), 1.5 * before);
}

TEST_F(RlflowAgentTest, TheWorldModelLearnsItsData) {
  RlflowAgent agent(config, 2);
  GraphEpisodes models({{"small", smallModel()}}, pack.list, *cost, environmentOptionsFor(config));
  std::mt19937_64 random(3);
  size_t realSteps = 0;
  std::vector<WorldModelEpisode> data = collectRandomEpisodes(models, 10, rules, 0.1, random, realSteps);
  size_t steps = 0;
  for (const WorldModelEpisode& e : data) {
    ASSERT_EQ(e.states.size(), e.actions.size() + 1);
    steps += e.actions.size();
  }
  EXPECT_EQ(realSteps, steps) << "every real step is counted";
  const WorldModelScores before = agent.scoreWorldModel(data);
  WorldModelLosses first, last;
  for (int update = 0; update < 60; ++update) {
    last = agent.trainWorldModel(data, 3e-3);
    if (update == 0) first = last;
  }
  EXPECT_LT(last.total, first.total);
  const WorldModelScores after = agent.scoreWorldModel(data);
  EXPECT_EQ(after.transitions, steps);
  EXPECT_LT(after.latentNll, before.latentNll);
  EXPECT_LT(after.rewardMae, before.rewardMae);
  EXPECT_GT(after.maskAccuracy, 0.95);
}

// Format 3 reads a step's reward from its z and action and learns it from every rewrite each real
// state lists; the mask's best saving of a rule is that reward at the rule's first location, so a
// dream's mask and its rewards agree. Format 2 has no reward per rewrite to score.
TEST_F(RlflowAgentTest, TheRewardOfEveryListedRewriteIsLearntAndTheMaskAgreesWithIt) {
  GraphEpisodes models({{"small", smallModel()}, {"paired", pairedBranchesWithTail(3)}}, pack.list, *cost, environmentOptionsFor(config));
  std::mt19937_64 random(5);
  size_t realSteps = 0;
  const std::vector<WorldModelEpisode> data = collectRandomEpisodes(models, 8, rules, 0.1, random, realSteps);
  size_t listed = 0;
  for (const WorldModelEpisode& episode : data)
    for (const Observation& state : episode.states)
      for (size_t i = 0; i < state.candidates.size(); ++i) listed += actionOf(state, i, rules).location < kRlflowLocations ? 1 : 0;

  RlflowAgent formatTwo(config, 3, 2);
  EXPECT_EQ(formatTwo.scoreWorldModel(data).listedRewrites, 0u);
  EXPECT_EQ(formatTwo.trainWorldModel(data, 3e-3).listedReward, 0.0);

  RlflowAgent agent(config, 3);
  const WorldModelScores before = agent.scoreWorldModel(data);
  EXPECT_EQ(before.listedRewrites, listed);
  EXPECT_GT(listed, before.transitions) << "a state lists more rewrites than the one taken";
  for (int update = 0; update < 80; ++update) EXPECT_GT(agent.trainWorldModel(data, 3e-3).listedReward, 0.0);
  const WorldModelScores after = agent.scoreWorldModel(data);
  EXPECT_LT(after.listedRewardMae, 0.5 * before.listedRewardMae);
  EXPECT_LT(after.rewardMae, before.rewardMae);

  // The dream's reward of (rule, first location) is the predicted mask's best saving of the rule.
  const Latent z = agent.encode(data.front().states.front());
  const ActionMask mask = agent.predictMask(z);
  int compared = 0;
  for (int rule = 0; rule < rules; ++rule) {
    if (mask.locations[static_cast<size_t>(rule)] == 0) continue;
    DreamMemory memory = agent.dreamStart();
    EXPECT_NEAR(agent.dream(memory, z, {rule, 0}, 1.0).reward, mask.bestSaving[static_cast<size_t>(rule)], 1e-4) << "rule " << rule;
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

TEST_F(RlflowAgentTest, AMaskOffersAnActionOnlyWhereItsRuleHasThatLocation) {
  ActionMask mask;
  mask.locations = {0, 3};
  mask.bestSaving = {0, 1};
  EXPECT_FALSE(offers(mask, {0, 0})) << "a rule with no rewrite";
  EXPECT_TRUE(offers(mask, {1, 0}));
  EXPECT_TRUE(offers(mask, {1, 2}));
  EXPECT_FALSE(offers(mask, {1, 3})) << "its fourth location, of three";
  EXPECT_TRUE(offers(mask, {2, 0})) << "stop";
  mask.locations[0] = kRlflowLocations;
  EXPECT_TRUE(offers(mask, {0, 40})) << "a location past the last counts as the last, as the world model reads it";
}

TEST_F(RlflowAgentTest, TheRewardOfAnActionIsTheSavingItsStateListsForIt) {
  const Observation before = env.observation();
  const RlflowAction action = actionOf(before, 1, rules);
  EXPECT_DOUBLE_EQ(rewardOf(before, {rules, 0}, rules), 0.0) << "stop";
  const double listed = rewardOf(before, action, rules);
  EXPECT_NEAR(env.step(candidateOf(before, action, rules)).reward, listed, 1e-5);
}

// The mask scores are what the dream sees state by state (predictMask of each state's z): a world
// model whose pair accuracy is high may still offer few of the actions taken, since most pairs
// have no rewrite; the scores say how many it offers and what a mask of no rewrite would score.
TEST_F(RlflowAgentTest, MaskScoresAreThoseOfTheMasksADreamSeesStateByState) {
  RlflowAgent agent(config, 2);
  GraphEpisodes models({{"small", smallModel()}, {"paired", pairedBranchesWithTail(3)}}, pack.list, *cost, environmentOptionsFor(config));
  std::mt19937_64 random(4);
  size_t realSteps = 0;
  const std::vector<WorldModelEpisode> data = collectRandomEpisodes(models, 6, rules, 0.1, random, realSteps);
  for (int update = 0; update < 20; ++update) agent.trainWorldModel(data, 3e-3);

  size_t pairs = 0, present = 0, predicted = 0, both = 0, transitions = 0, offered = 0;
  for (const WorldModelEpisode& episode : data)
    for (size_t k = 0; k < episode.states.size(); ++k) {
      const ActionMask real = maskOf(episode.states[k], rules), dreamt = agent.predictMask(agent.encode(episode.states[k]));
      for (int r = 0; r < rules; ++r) {
        const bool isPresent = real.locations[static_cast<size_t>(r)] > 0, isPredicted = dreamt.locations[static_cast<size_t>(r)] > 0;
        ++pairs;
        present += isPresent ? 1 : 0;
        predicted += isPredicted ? 1 : 0;
        both += isPresent && isPredicted ? 1 : 0;
      }
      if (k == episode.actions.size()) continue;
      ++transitions;
      offered += offers(dreamt, episode.actions[k]) ? 1 : 0;
    }
  ASSERT_GT(present, 0u);
  const WorldModelScores scores = agent.scoreWorldModel(data);
  // One state at a time or all at once, z may differ in the last bits: allow one answer to flip.
  EXPECT_NEAR(scores.allAbsentAccuracy, 1.0 - static_cast<double>(present) / static_cast<double>(pairs), 1e-6);
  EXPECT_NEAR(scores.presentRecall, static_cast<double>(both) / static_cast<double>(present), 1.0 / static_cast<double>(present));
  if (predicted > 0) {
    EXPECT_NEAR(scores.presentPrecision, static_cast<double>(both) / static_cast<double>(predicted), 1.0 / static_cast<double>(predicted));
  }
  EXPECT_EQ(scores.transitions, transitions);
  EXPECT_NEAR(scores.actionOffered, static_cast<double>(offered) / static_cast<double>(transitions), 1.0 / static_cast<double>(transitions));
  EXPECT_GT(scores.allAbsentAccuracy, 0.9) << "most (state, rule) pairs have no rewrite: the pair accuracy needs this baseline";

  // The imagined scores are those of the masks a dream sees one step on: from each real state's z
  // and action, the likeliest component's next z (temperature near 0), against the next real state.
  size_t nextPresent = 0, imagined = 0, imaginedBoth = 0;
  for (const WorldModelEpisode& episode : data) {
    DreamMemory memory = agent.dreamStart();
    for (size_t k = 0; k < episode.actions.size(); ++k) {
      const ActionMask real = maskOf(episode.states[k + 1], rules);
      const ActionMask dreamt = agent.predictMask(agent.dream(memory, agent.encode(episode.states[k]), episode.actions[k], 1e-6).next);
      for (int r = 0; r < rules; ++r) {
        const bool isPresent = real.locations[static_cast<size_t>(r)] > 0, isPredicted = dreamt.locations[static_cast<size_t>(r)] > 0;
        nextPresent += isPresent ? 1 : 0;
        imagined += isPredicted ? 1 : 0;
        imaginedBoth += isPresent && isPredicted ? 1 : 0;
      }
    }
  }
  ASSERT_GT(nextPresent, 0u);
  EXPECT_NEAR(scores.imaginedRecall, static_cast<double>(imaginedBoth) / static_cast<double>(nextPresent), 1.0 / static_cast<double>(nextPresent));
  if (imagined > 0) {
    EXPECT_NEAR(scores.imaginedPrecision, static_cast<double>(imaginedBoth) / static_cast<double>(imagined), 1.0 / static_cast<double>(imagined));
  }
}

TEST_F(RlflowAgentTest, ADreamStepPredictsTheNextLatentAndAMask) {
  RlflowAgent agent(config, 4);
  const Latent z = agent.encode(env.observation());
  ASSERT_EQ(z.size(), 32u);
  DreamMemory memory = agent.dreamStart();
  const RlflowAction action = actionOf(env.observation(), 0, rules);
  const DreamStep step = agent.dream(memory, z, action, 1.0);
  EXPECT_EQ(step.next.size(), 32u);
  EXPECT_TRUE(std::isfinite(step.reward));
  EXPECT_NE(memory.hidden, agent.dreamStart().hidden) << "the LSTM remembers the step";
  const ActionMask mask = agent.predictMask(step.next);
  EXPECT_EQ(mask.locations.size(), pack.list.size());
}

TEST_F(RlflowAgentTest, CheckpointsRoundTripAndRefuseTheOtherAgent) {
  RlflowAgent agent(config, 6);
  const std::string path = tempPath("rlflow-agent", "rlflow.ckpt");
  CheckpointHeader h = header();
  h.models = {"small"};
  agent.save(path, h);
  RlflowAgent loaded = RlflowAgent::load(path, pack.list, 9);
  EXPECT_EQ(loaded.decideReal(env.observation()).probabilities, agent.decideReal(env.observation()).probabilities);
  EXPECT_EQ(loaded.loadedFrom().agent, "rlflow");

  std::string error = errorOf([&] { XrlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("'rlflow' agent"), std::string::npos) << error;

  const std::string xrlflowPath = tempPath("rlflow-agent", "xrlflow.ckpt");
  XrlflowAgent(agentConfigFor(pack.list.size()), 1).save(xrlflowPath, header());
  error = errorOf([&] { RlflowAgent::load(xrlflowPath, pack.list, 1); });
  EXPECT_NE(error.find(xrlflowPath), std::string::npos) << error;
  EXPECT_NE(error.find("'xrlflow' agent"), std::string::npos) << error;

  // An rlflow header over X-RLflow's weights: the weights do not load.
  CheckpointContents xrlflow = readCheckpointFile(xrlflowPath);
  CheckpointContents own = readCheckpointFile(path);
  writeCheckpointFile(path, own.header, xrlflow.weights);
  error = errorOf([&] { RlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  // A checkpoint of format 1 (no agent_format in its header: the encoder reads the graph alone)
  // still loads, as that format; one of a format this build does not know is refused by name.
  RlflowAgent older(config, 6, 1);
  older.save(path, h);
  EXPECT_EQ(readCheckpointFile(path).header.agentFormat, 1);
  RlflowAgent olderLoaded = RlflowAgent::load(path, pack.list, 9);
  EXPECT_EQ(olderLoaded.decideReal(env.observation()).probabilities, older.decideReal(env.observation()).probabilities);
  CheckpointHeader newer = readCheckpointFile(path).header;
  newer.agentFormat = RlflowAgent::kFormat + 1;
  writeCheckpointFile(path, newer, own.weights);
  error = errorOf([&] { RlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("rlflow agent of format " + std::to_string(RlflowAgent::kFormat + 1) + "; this build reads formats 1 to"), std::string::npos)
      << error;
  // Format 1's weights under a format 2 header: the encoder's shapes differ, and the weights do not load.
  older.save(path, h);
  CheckpointContents formatOne = readCheckpointFile(path);
  formatOne.header.agentFormat = RlflowAgent::kFormat;
  writeCheckpointFile(path, formatOne.header, formatOne.weights);
  error = errorOf([&] { RlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  // Format 2 (the reward read from the LSTM's memory) loads as itself; its weights under the
  // current header do not, the world model's reward heads differ.
  RlflowAgent formatTwo(config, 6, 2);
  formatTwo.save(path, h);
  EXPECT_EQ(readCheckpointFile(path).header.agentFormat, 2);
  EXPECT_EQ(RlflowAgent::load(path, pack.list, 9).decideReal(env.observation()).probabilities, formatTwo.decideReal(env.observation()).probabilities);
  CheckpointContents formatTwoContents = readCheckpointFile(path);
  formatTwoContents.header.agentFormat = RlflowAgent::kFormat;
  writeCheckpointFile(path, formatTwoContents.header, formatTwoContents.weights);
  error = errorOf([&] { RlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  agent.save(path, h);
  EXPECT_EQ(readCheckpointFile(path).header.agentFormat, RlflowAgent::kFormat);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 100);
  error = errorOf([&] { RlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}
