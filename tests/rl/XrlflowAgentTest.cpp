#include "xrlflow/XrlflowAgent.h"

#include "RlTestFiles.h"
#include "RlTestGraphs.h"

#include "rl/RewriteEnvironment.h"
#include "rl/RulePackFingerprint.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

using namespace tessera;
using namespace tessera::test;

namespace {

class XrlflowAgentTest : public ::testing::Test {
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
  AgentConfig config = agentConfigFor(pack.list.size());
};

} // namespace

TEST_F(XrlflowAgentTest, ScoresEveryCandidateAndStop) {
  XrlflowAgent agent(config, 1);
  AgentDecision decision = agent.decide(env.observation(), /*explore=*/false);
  ASSERT_EQ(decision.probabilities.size(), env.candidates().size() + 1);
  EXPECT_NEAR(std::accumulate(decision.probabilities.begin(), decision.probabilities.end(), 0.0), 1.0, 1e-5);
  for (float p : decision.probabilities) EXPECT_GT(p, 0.0f);
  EXPECT_EQ(decision.probabilities[decision.action], *std::max_element(decision.probabilities.begin(), decision.probabilities.end()));
  EXPECT_NEAR(decision.logProbability, std::log(decision.probabilities[decision.action]), 1e-5);
}

TEST_F(XrlflowAgentTest, TheUntrainedPolicyLeansTowardsTheCheapestRewrite) {
  // The greedy prior: the candidate that saves most starts out the most likely.
  XrlflowAgent agent(config, 3);
  AgentDecision decision = agent.decide(env.observation(), false);
  EXPECT_LT(env.candidates().front().costMs, env.costMs());
  ASSERT_LT(decision.action, env.candidates().size());
  const double bestDrop = env.costMs() - env.candidates().front().costMs;
  EXPECT_GE(env.costMs() - env.candidates()[decision.action].costMs, 0.9 * bestDrop); // one of the cheapest
}

TEST_F(XrlflowAgentTest, TheSameSeedGivesTheSameAgentAndOtherSeedsAnother) {
  XrlflowAgent a(config, 7), b(config, 7), c(config, 8);
  const Observation& seen = env.observation();
  EXPECT_EQ(a.decide(seen, false).probabilities, b.decide(seen, false).probabilities);
  EXPECT_NE(a.decide(seen, false).probabilities, c.decide(seen, false).probabilities);
  // Exploration draws from the agent's own generator: the same sequence for the same seed.
  std::vector<size_t> drawsA, drawsB;
  for (int i = 0; i < 20; ++i) {
    drawsA.push_back(a.decide(seen, true).action);
    drawsB.push_back(b.decide(seen, true).action);
  }
  EXPECT_EQ(drawsA, drawsB);
}

TEST_F(XrlflowAgentTest, ACheckpointRestoresTheAgentExactly) {
  XrlflowAgent agent(config, 11);
  // Move it away from its initial weights first.
  for (int i = 0; i < 3; ++i) {
    AgentDecision d = agent.decide(env.observation(), true);
    agent.record(env.observation(), d, 1.0 - i, i == 2);
  }
  agent.update();
  const std::string path = tempPath("xrlflow-agent", "agent.ckpt");
  CheckpointHeader h = header();
  h.models = {"branchy"};
  h.episodes = 1;
  agent.save(path, h);
  XrlflowAgent loaded = XrlflowAgent::load(path, pack.list, 99);
  EXPECT_EQ(loaded.decide(env.observation(), false).probabilities, agent.decide(env.observation(), false).probabilities);
  EXPECT_EQ(loaded.loadedFrom().models, std::vector<std::string>{"branchy"});
  EXPECT_EQ(loaded.config().horizon, config.horizon);
}

TEST_F(XrlflowAgentTest, BadCheckpointsAreErrorsNamingTheFile) {
  XrlflowAgent agent(config, 2);
  const std::string path = tempPath("xrlflow-agent", "bad.ckpt");
  agent.save(path, header());

  std::vector<const Rule*> fewer(pack.list.begin(), pack.list.end() - 1);
  std::string error = errorOf([&] { XrlflowAgent::load(path, fewer, 1); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("another rule pack"), std::string::npos) << error;

  // Framing intact, weights garbled: libtorch's reader refuses them, and that is an Error too.
  CheckpointContents contents = readCheckpointFile(path);
  std::string garbled = contents.weights;
  for (size_t i = 0; i < garbled.size(); i += 7) garbled[i] = static_cast<char>(garbled[i] ^ 0x5a);
  writeCheckpointFile(path, contents.header, garbled);
  error = errorOf([&] { XrlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  // Weights of a smaller network under a header that claims the usual one.
  AgentConfig small = config;
  small.hidden = 8;
  writeCheckpointFile(path, contents.header, XrlflowAgent(small, 1).weights());
  error = errorOf([&] { XrlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  // Cut short.
  agent.save(path, header());
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 100);
  error = errorOf([&] { XrlflowAgent::load(path, pack.list, 1); });
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}

TEST_F(XrlflowAgentTest, AnUpdateFollowsTheAdvantage) {
  // One state, rewarded for one action and punished for another: PPO must shift the odds. (Two
  // candidates the network cannot tell apart, such as one rule at two symmetric places, keep theirs.)
  XrlflowAgent agent(config, 5);
  const Observation& seen = env.observation();
  const size_t good = env.candidates().size() - 1, bad = 0;
  ASSERT_NE(env.candidates()[good].costMs, env.candidates()[bad].costMs);
  auto odds = [&] {
    std::vector<float> p = agent.decide(seen, false).probabilities;
    return p[good] / p[bad];
  };
  const double before = odds();
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 8; ++i) {
      AgentDecision d = agent.decide(seen, false);
      d.action = i % 2 ? good : bad;
      d.logProbability = std::log(d.probabilities[d.action]);
      agent.record(seen, d, d.action == good ? 1.0 : -1.0, true);
    }
    PpoUpdateStats stats = agent.update();
    EXPECT_EQ(stats.transitions, 8u);
    EXPECT_GE(stats.epochs, 1);
    EXPECT_EQ(agent.recorded(), 0u);
  }
  EXPECT_GT(odds(), 1.2 * before);
}
