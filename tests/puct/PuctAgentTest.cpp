// The PUCT agent (core/puct): its guidance, checkpoints refused for another agent, rule pack or a
// corrupt file without a crash, a tiny self-play run writing a checkpoint that loads, and
// `prior=CKPT` steering MCTS once the agent is registered.
#include "onnx/OnnxImport.h"
#include "puct/PuctAgent.h"
#include "puct/PuctNetwork.h"
#include "puct/PuctSelfPlay.h"
#include "rewrite/DefaultRules.h"
#include "rl/RulePackFingerprint.h"
#include "rl/TrainedModels.h"
#include "search/MctsStrategy.h"
#include "search/mcts/PriorModel.h"
#include "support/Error.h"

#include "../rl/RlTestFiles.h"
#include "../rl/RlTestGraphs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

using namespace tessera;
using tessera::test::errorOf;

namespace {

std::string scratch(const std::string& name) { return test::tempPath("puct", name); }
using Pack = test::RulePack;

Graph sample(const char* name) { return onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name); }

// A state a search would show the agent: 3 rules, the second and third can act.
PuctInput smallInput() {
  PuctInput input;
  input.observation.graph.nodes = 2;
  input.observation.graph.ops = {3, 4};
  input.observation.graph.figures.assign(2 * nodeFigureSize(), 0.5f);
  input.observation.graph.senders = {0, 1, 0, 1};
  input.observation.graph.receivers = {1, 0, 0, 1};
  input.observation.graph.globals.assign(globalFeatureSize(), 0.1f);
  input.ruleFeatures = {0, 0, 0, 0.2f, 0, 1, 0.4f, 0.3f, 1};
  input.stateFeatures = {0.3f, 0.9f};
  input.canAct = {0, 1, 1};
  return input;
}

} // namespace

TEST(PuctAgent, ThePriorGoesOnlyToRulesThatCanAct) {
  PuctAgent agent(3, 1);
  mcts::Guidance guidance = agent.guidance(smallInput());
  ASSERT_EQ(guidance.prior.size(), 3u);
  EXPECT_EQ(guidance.prior[0], 0.0f);
  EXPECT_NEAR(guidance.prior[1] + guidance.prior[2], 1.0, 1e-5);
  EXPECT_GE(guidance.value, 0.0);
}

TEST(PuctAgent, OneStatesEvaluationIsTheBatchForwardToTheBit) {
  // The search's evaluation scores only the rules that can act; its priors and value must be the
  // batch forward's exactly, or a guided search would change its results.
  constexpr int kRules = 203;
  PuctNetwork network(kRules, opKindCount(), nodeFigureSize(), globalFeatureSize());
  network->eval();
  std::mt19937 random(7);
  std::uniform_real_distribution<float> feature(0.0f, 1.0f);
  PuctInput input = smallInput();
  input.ruleFeatures.resize(kRules * kPuctRuleFeatures);
  for (float& value : input.ruleFeatures) value = feature(random);
  for (std::vector<int> acting : {std::vector<int>{0}, {5, 17, 40}, {202}}) {
    input.canAct.assign(kRules, 0);
    for (int r : acting) input.canAct[r] = 1;
    for (int pass = 0; pass < 2; ++pass) {
      torch::NoGradGuard noGrad;
      const PuctOutput batch = network->forward({&input});
      c10::InferenceMode inference;
      const PuctOutput one = network->evaluate(input);
      EXPECT_TRUE(torch::equal(batch.logPriors, one.logPriors)) << acting.size() << " rules acting";
      EXPECT_TRUE(torch::equal(batch.value, one.value));
      for (int r = 0; r < kRules; r += 2) input.canAct[r] = 1; // then half of them, and more
    }
  }
}

TEST(PuctAgent, TrainingMovesThePriorTowardsTheVisits) {
  PuctAgent agent(3, 1, 1e-2);
  PuctSample sample;
  sample.input = smallInput();
  sample.policyTarget = {0, 0, 1};
  sample.valueTarget = 12;
  const PuctSample* batch[] = {&sample};
  const double before = agent.guidance(sample.input).prior[2];
  PuctLosses first = agent.train(batch), last;
  for (int i = 0; i < 60; ++i) last = agent.train(batch);
  EXPECT_GT(agent.guidance(sample.input).prior[2], std::max(before, 0.9));
  EXPECT_LT(last.policy, first.policy);
  EXPECT_LT(last.value, first.value);
}

TEST(PuctAgent, ACheckpointRoundTripsWithItsGuidance) {
  Pack pack;
  PuctAgent agent(pack.list.size(), 3);
  const std::string path = scratch("roundtrip.ckpt");
  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(pack.list);
  header.cost = "analytic:h200";
  agent.save(path, header);
  std::unique_ptr<PuctAgent> loaded = PuctAgent::load(path, pack.list);
  PuctInput input = smallInput();
  input.ruleFeatures.resize(pack.list.size() * kPuctRuleFeatures, 0.0f);
  input.canAct.resize(pack.list.size(), 1);
  EXPECT_EQ(agent.guidance(input).prior, loaded->guidance(input).prior);
}

// A run's log says whether its model is in the guide's training set (in-sample figures are said so).
TEST(PuctAgent, ALoadedAgentSaysWhereItComesFromAndWhetherTheModelIsInItsTrainingSet) {
  Pack pack;
  PuctAgent agent(pack.list.size(), 3);
  EXPECT_EQ(agent.describe(agent.trainedOn(test::expChain(3))), "") << "a new agent comes from no file";
  const std::string path = scratch("describe.ckpt");
  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(pack.list);
  recordTrainedModels(header, std::vector<NamedGraph>{{"chain", test::expChain(3)}});
  agent.save(path, header);
  std::unique_ptr<PuctAgent> loaded = PuctAgent::load(path, pack.list);
  EXPECT_EQ(loaded->describe(loaded->trainedOn(test::expChain(3))), path + " (trained on 1 models); this model is in its training set (in-sample)");
  EXPECT_EQ(loaded->describe(loaded->trainedOn(test::expChain(4))), path + " (trained on 1 models); this model is not in its training set (held out)");
}

TEST(PuctAgent, ACheckpointOfAnotherAgentRulePackOrACorruptOneIsRefused) {
  Pack pack;
  PuctAgent agent(pack.list.size(), 3);
  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(pack.list);
  const std::string good = scratch("good.ckpt");
  agent.save(good, header);

  // Another agent's checkpoint, same pack.
  const std::string other = scratch("xrlflow.ckpt");
  CheckpointContents contents = readCheckpointFile(good);
  contents.header.agent = "xrlflow";
  writeCheckpointFile(other, contents.header, contents.weights);
  std::string error = errorOf([&] { PuctAgent::load(other, pack.list); });
  EXPECT_NE(error.find(other), std::string::npos) << error;
  EXPECT_NE(error.find("holds an 'xrlflow' agent, not a puct one"), std::string::npos) << error;

  // Another rule pack (and so another action space).
  std::vector<const Rule*> fewer(pack.list.begin(), pack.list.begin() + 20);
  error = errorOf([&] { PuctAgent::load(good, fewer); });
  EXPECT_NE(error.find(good), std::string::npos) << error;
  EXPECT_NE(error.find("another rule pack"), std::string::npos) << error;

  // Truncated, and junk where the weights should be.
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string truncated = scratch("truncated.ckpt");
  std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  error = errorOf([&] { PuctAgent::load(truncated, pack.list); });
  EXPECT_NE(error.find(truncated), std::string::npos) << error;
  const std::string junk = scratch("junk.ckpt");
  writeCheckpointFile(junk, readCheckpointFile(good).header, "not torch weights");
  error = errorOf([&] { PuctAgent::load(junk, pack.list); });
  EXPECT_NE(error.find(junk), std::string::npos) << error;
  EXPECT_NE(error.find("weights do not load"), std::string::npos) << error;

  // The same refusals through MCTS's prior= parameter, before any search work.
  registerPuctPriors();
  error = errorOf([&] { mcts::loadPriorModel(other, pack.list); });
  EXPECT_NE(error.find("xrlflow"), std::string::npos) << error;
  // A PUCT checkpoint where an RLFlow agent is wanted says so in English too.
  EXPECT_NE(errorOf([&] { checkCheckpointFits(readCheckpointFile(good).header, "rlflow", pack.list, good); })
                .find("holds a 'puct' agent, not an rlflow one"),
            std::string::npos);
}

TEST(PuctSelfPlay, ATinyRunWritesACheckpointThatGuidesMcts) {
  Pack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  std::vector<NamedGraph> models;
  models.push_back({"nasrnn", sample("nasrnn.onnx")});
  PuctAgent agent(pack.list.size(), 1);
  SelfPlayOptions options;
  options.games = 2;
  options.gamesPerGeneration = 1;
  options.simulations = 4;
  options.maxSteps = 3;
  options.updatesPerGeneration = 3;
  options.batch = 4;
  std::vector<std::string> lines;
  options.progress = [&](const std::string& line) { lines.push_back(line); };
  SelfPlayReport report = trainBySelfPlay(agent, models, pack.list, *cost, options);
  ASSERT_EQ(report.generations.size(), 2u);
  ASSERT_EQ(report.games.size(), 3u) << "two self-play games and the final network's one";
  for (const SelfPlayGame& game : report.games) {
    EXPECT_TRUE(game.verified);
    EXPECT_GT(game.samples, 0u);
  }
  EXPECT_GT(report.generations[0].bufferSamples, 0u);
  EXPECT_FALSE(lines.empty());

  const std::string path = scratch("selfplay.ckpt");
  CheckpointHeader header;
  header.rulePack = rulePackFingerprint(pack.list);
  agent.save(path, header);
  registerPuctPriors();
  Control control;
  EventStream events;
  SearchOptions search;
  search.nodeLimit = 2000;
  search.parameters = {{"prior", path}, {"simulations", "4"}, {"max_steps", "3"}};
  SearchResult result = makeMctsStrategy()->run(SearchInput{models[0].graph, pack.list, *cost, control, events, search});
  EXPECT_GT(result.steps, 0);
  EXPECT_LT(result.bestCostMs, result.originalCostMs);
}
