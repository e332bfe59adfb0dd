// RLFlow's training counts every real environment step: the default dream takes none, the
// published lockstep dream one per dreamt step; and the rlflow strategy behind the common
// Strategy interface, refusing an X-RLflow checkpoint before a run starts.
#include "rlflow/RlflowStrategy.h"
#include "rlflow/RlflowTraining.h"

#include "RlTestFiles.h"
#include "RlTestGraphs.h"

#include "events/EventSink.h"
#include "onnx/OnnxImport.h"
#include "rl/RulePackFingerprint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace tessera;
using namespace tessera::test;

namespace {

class RlflowTrainingTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { registerRlflowStrategy(); }

  RlflowTrainingOptions small(DreamMode dream) const {
    RlflowTrainingOptions options;
    options.worldModelEpisodes = 6;
    options.worldModelUpdates = 10;
    options.dreamEpisodes = 20;
    options.dreamHorizon = 5;
    options.dream = dream;
    return options;
  }

  CheckpointHeader header() const {
    CheckpointHeader h;
    h.rulePack = rulePackFingerprint(pack.list);
    h.cost = cost->spec();
    return h;
  }

  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  AgentConfig config = [this] {
    AgentConfig c = rlflowConfigFor(pack.list.size());
    c.horizon = 8;
    return c;
  }();
  GraphEpisodes models{{{"small", smallModel()}, {"branchy", pairedBranchesWithTail(3)}}, pack.list, *cost, environmentOptionsFor(config)};
};

size_t stepsOf(const RlflowTrainingReport& report, const std::string& kind) {
  size_t steps = 0;
  for (const RealEpisodeRecord& e : report.realEpisodes) steps += e.kind == kind ? static_cast<size_t>(e.steps) : 0;
  return steps;
}

} // namespace

TEST_F(RlflowTrainingTest, TheDefaultDreamTakesNoRealStep) {
  RlflowAgent agent(config, 1);
  size_t realSteps = 0;
  const RlflowTrainingReport report = trainRlflow(agent, models, small(DreamMode::Imagined), realSteps);
  EXPECT_EQ(report.dreams.size(), 20u);
  EXPECT_EQ(report.worldModel.size(), 10u);
  EXPECT_EQ(report.updates.size(), 2u);
  EXPECT_GT(realSteps, 0u);
  EXPECT_EQ(realSteps, stepsOf(report, "world-model")) << "only the world model's data touches the real environment";
  EXPECT_EQ(report.realSteps, realSteps);
  EXPECT_EQ(report.realEpisodes.back().realStepsAfter, realSteps);
  for (const DreamEpisodeRecord& dream : report.dreams) EXPECT_EQ(dream.bootstrapped, 0.0) << "a whole dream ends where a real episode does";
}

TEST_F(RlflowTrainingTest, TheLockstepDreamCountsARealStepPerDreamtStep) {
  RlflowAgent agent(config, 1);
  size_t realSteps = 0;
  const RlflowTrainingReport report = trainRlflow(agent, models, small(DreamMode::Lockstep), realSteps);
  size_t dreamt = 0;
  for (const DreamEpisodeRecord& d : report.dreams) dreamt += static_cast<size_t>(d.steps);
  EXPECT_GT(dreamt, 0u);
  EXPECT_EQ(stepsOf(report, "lockstep"), dreamt);
  EXPECT_EQ(realSteps, stepsOf(report, "world-model") + dreamt);
}

TEST_F(RlflowTrainingTest, TheBranchDreamStartsFromRealStatesTakesNoRealStepAndIsShort) {
  RlflowAgent agent(config, 1);
  size_t realSteps = 0;
  RlflowTrainingOptions options = small(DreamMode::Branch);
  options.branchLength = 2;
  const RlflowTrainingReport report = trainRlflow(agent, models, options, realSteps);
  ASSERT_EQ(report.dreams.size(), 20u);
  EXPECT_EQ(realSteps, stepsOf(report, "world-model")) << "a branch starts from a state already paid for";
  // A branch cut short by its length learns the controller's value of where it got to; one that
  // stopped or was dreamt done before bootstraps nothing.
  size_t bootstrapped = 0;
  for (const DreamEpisodeRecord& dream : report.dreams) {
    EXPECT_LE(dream.steps, 2);
    if (dream.steps < 2) {
      EXPECT_EQ(dream.bootstrapped, 0.0) << "dream " << dream.episode;
    }
    bootstrapped += dream.bootstrapped != 0.0 ? 1 : 0;
  }
  EXPECT_GT(bootstrapped, 0u);
  EXPECT_EQ(dreamModeNamed("branch"), DreamMode::Branch);
  EXPECT_STREQ(dreamModeName(DreamMode::Branch), "branch");
}

// A dream starts from a real state, so its first step takes that state's own mask and reward
// rather than the world model's guesses: with an untrained world model and dreams of one step,
// every dreamt reward is the saving of a rewrite the real first state lists (or 0 for stop).
TEST_F(RlflowTrainingTest, ADreamsFirstStepTakesTheRealStatesMaskAndReward) {
  RlflowAgent agent(config, 3);
  size_t realSteps = 0;
  RlflowTrainingOptions options = small(DreamMode::Imagined);
  options.worldModelUpdates = 0;
  options.dreamHorizon = 1;
  const RlflowTrainingReport report = trainRlflow(agent, models, options, realSteps);
  ASSERT_EQ(report.dreams.size(), 20u);
  int rewrites = 0;
  for (const DreamEpisodeRecord& dream : report.dreams) {
    const Observation& first = models.begin(dream.episode).observation();
    std::vector<double> savings{0.0};
    for (const CandidateObservation& c : first.candidates) savings.push_back(-c.costDeltaPct);
    const bool listed = std::any_of(savings.begin(), savings.end(), [&](double s) { return std::abs(s - dream.reward) < 1e-6; });
    EXPECT_TRUE(listed) << "dream " << dream.episode << " on " << dream.label << " dreamt reward " << dream.reward;
    rewrites += dream.steps;
  }
  EXPECT_GT(rewrites, 0) << "the dreams took rewrites, not only stop";
}

TEST_F(RlflowTrainingTest, EvaluationsCountTheirStepsAndKeepTheBest) {
  RlflowAgent agent(config, 2);
  size_t realSteps = 0;
  GraphEpisodes evaluation({{"small", smallModel()}}, pack.list, *cost, argmaxOptionsFor(config));
  RlflowTrainingOptions options = small(DreamMode::Imagined);
  options.evaluateEvery = 1;
  options.evaluate = [&](RlflowAgent& candidate) { return rlflowArgmaxSpeedups(candidate, evaluation, realSteps).front(); };
  const RlflowTrainingReport report = trainRlflow(agent, models, options, realSteps);
  ASSERT_EQ(report.evaluations.size(), 3u); // before the dreams and after each of the two updates
  EXPECT_GT(report.evaluations.front().realStepsAfter, stepsOf(report, "world-model"));
  EXPECT_EQ(realSteps, report.evaluations.back().realStepsAfter);
  ASSERT_TRUE(report.best.has_value());
  size_t ignored = 0;
  EXPECT_DOUBLE_EQ(rlflowArgmaxSpeedups(agent, evaluation, ignored).front(), report.best->score);
}

TEST_F(RlflowTrainingTest, TheStrategyRewritesVerifiesAndRepeats) {
  RlflowAgent agent(config, 3);
  const std::string path = tempPath("rlflow-training", "agent.ckpt");
  agent.save(path, header());
  auto names = strategyNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "rlflow"), names.end());

  const Graph original = smallModel();
  auto run = [&] {
    Control control;
    EventRecorder recorder;
    EventStream events;
    events.attach(&recorder);
    SearchOptions options;
    options.parameters["checkpoint"] = path;
    SearchResult result = makeStrategy("rlflow")->run(SearchInput{original, pack.list, *cost, control, events, options});
    return std::make_pair(result, recorder.events);
  };
  auto [first, events] = run();
  EXPECT_GT(first.speedupPct, 0.0) << "the untrained controller leans greedy";
  EXPECT_GT(first.steps, 0);
  verifySearchResult(original, first, 1, 1);
  EXPECT_TRUE(first.verified) << first.verifyProblem;
  std::vector<RunState> states;
  for (const Event& event : events)
    if (const auto* changed = std::get_if<RunStateChanged>(&event.payload)) states.push_back(changed->state);
  ASSERT_GE(states.size(), 2u);
  EXPECT_EQ(states.front(), RunState::Started);
  EXPECT_EQ(states.back(), RunState::Finished);
  const auto [second, ignored] = run();
  EXPECT_EQ(second.speedupPct, first.speedupPct);
  EXPECT_EQ(second.rulesApplied, first.rulesApplied);
}

TEST_F(RlflowTrainingTest, TheStrategyRefusesAnXrlflowCheckpointNamingIt) {
  const std::string path = tempPath("rlflow-training", "xrlflow.ckpt");
  XrlflowAgent(agentConfigFor(pack.list.size()), 1).save(path, header());
  SearchOptions options;
  options.parameters["checkpoint"] = path;
  const std::string error = errorOf([&] { makeStrategy("rlflow")->validate(options); });
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("'xrlflow' agent"), std::string::npos) << error;
}

TEST(RlflowShippedAgent, LoadsWithTheBuiltInPack) {
  const std::string path = defaultRlflowCheckpoint();
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no agent shipped at " << path;
  RulePack pack;
  EXPECT_NO_THROW(RlflowAgent::load(path, pack.list, 1))
      << "the shipped agent no longer fits the built-in rule pack or op table: train it again (resources/doc/agents-rlflow.md)";
}

TEST(RlflowShippedAgent, MatchesGreedyOnTheFastModels) {
  // Issue #33's first target on the fast models: at least greedy. `tessera-cli bench` checks all eighteen.
  if (!std::filesystem::exists(defaultRlflowCheckpoint())) GTEST_SKIP() << "no agent shipped at " << defaultRlflowCheckpoint();
  registerRlflowStrategy();
  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  auto speedup = [&](const std::string& strategy, const Graph& model) {
    Control control;
    EventStream events;
    return makeStrategy(strategy)->run(SearchInput{model, pack.list, *cost, control, events, {}}).speedupPct;
  };
  const std::string samples = std::string(TESSERA_SOURCE_DIR) + "/samples/";
  for (const char* name : {"tensat/bert", "bert", "squeezenet", "vgg19"}) {
    const Graph model = onnx_io::importOnnxFile(samples + name + ".onnx");
    EXPECT_GE(speedup("rlflow", model), speedup("greedy", model) - 1e-9) << name;
  }
}
