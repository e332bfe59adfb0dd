// Reward against real environment steps from training reports: X-RLflow's training episodes
// averaged a round at a time at their summed steps, RLFlow's evaluations at the steps they were
// made after; the shipped sample-efficiency reports read; bad reports named with their problem.
#include "rl/RealStepCurve.h"

#include "RlTestFiles.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tessera;
using namespace tessera::test;

namespace {

std::string reportFile(const std::string& name, const std::string& text) {
  const std::string path = tempPath("real-step-curve", name);
  std::ofstream(path) << text;
  return path;
}

} // namespace

TEST(RealStepCurve, XrlflowAveragesEachRoundOfModelsAtTheStepsSoFar) {
  const std::string path = reportFile("x.json", R"({"agent":"xrlflow","seed":2,"models":["a.onnx","b.onnx"],"curve":[
      {"episode":1,"reward":10,"steps":4},{"episode":2,"reward":20,"steps":6},{"episode":3,"reward":40,"steps":5}]})");
  const RealStepCurve curve = readRealStepCurve(path);
  EXPECT_EQ(curve.agent, "xrlflow");
  ASSERT_TRUE(curve.seed.has_value());
  EXPECT_EQ(*curve.seed, 2u);
  ASSERT_EQ(curve.points.size(), 2u) << "from the first whole round of the two models on";
  EXPECT_DOUBLE_EQ(curve.points[0].realSteps, 10);
  EXPECT_DOUBLE_EQ(curve.points[0].reward, 15);
  EXPECT_DOUBLE_EQ(curve.points[1].realSteps, 15);
  EXPECT_DOUBLE_EQ(curve.points[1].reward, 30);
}

TEST(RealStepCurve, RlflowPlotsItsEvaluationsAtTheirCountedSteps) {
  const std::string path = reportFile("r.json", R"({"agent":"rlflow","seed":1,"models":["a.onnx"],"curve":[],"evaluations":[
      {"after_dream_episode":0,"real_env_steps":700,"mean_reward":30.5},{"after_dream_episode":50,"real_env_steps":800,"mean_reward":31}]})");
  const RealStepCurve curve = readRealStepCurve(path);
  ASSERT_EQ(curve.points.size(), 2u);
  EXPECT_DOUBLE_EQ(curve.points[0].realSteps, 700);
  EXPECT_DOUBLE_EQ(curve.points[1].reward, 31);
  EXPECT_NE(curve.measure.find("argmax"), std::string::npos);
  EXPECT_EQ(curve.variant, "") << "the default dream goes unsaid";
  const std::string branch = reportFile("b.json", R"({"agent":"rlflow","dream":"branch","evaluations":[{"real_env_steps":5,"mean_reward":1}]})");
  EXPECT_EQ(readRealStepCurve(branch).variant, "branch");
}

TEST(RealStepCurve, TheShippedSampleEfficiencyRunsAreThreeSeedsOfEachAgent) {
  for (const std::string agent : {"xrlflow", "rlflow"})
    for (int seed = 1; seed <= 3; ++seed) {
      const std::string path = std::string(TESSERA_SOURCE_DIR) + "/resources/agents/sample-efficiency/" + agent + "-seed" + std::to_string(seed) + ".json";
      const RealStepCurve curve = readRealStepCurve(path);
      EXPECT_EQ(curve.agent, agent);
      EXPECT_EQ(curve.seed, static_cast<uint64_t>(seed));
      ASSERT_GE(curve.points.size(), 2u) << path;
      for (size_t i = 1; i < curve.points.size(); ++i) EXPECT_GT(curve.points[i].realSteps, curve.points[i - 1].realSteps) << path;
    }
}

TEST(RealStepCurve, BadReportsAreNamedWithTheirProblem) {
  const std::string garbled = reportFile("garbled.json", R"({"agent": "xrlflow", )");
  EXPECT_NE(errorOf([&] { readRealStepCurve(garbled); }).find("garbled.json: not valid JSON"), std::string::npos);
  const std::string other = reportFile("other.json", R"({"agent":"puct","curve":[{"reward":1}]})");
  EXPECT_NE(errorOf([&] { readRealStepCurve(other); }).find("other.json: a report of agent 'puct'"), std::string::npos);
  const std::string noSteps = reportFile("nosteps.json", R"({"agent":"xrlflow","curve":[{"reward":1}]})");
  EXPECT_NE(errorOf([&] { readRealStepCurve(noSteps); }).find("nosteps.json: curve entry 0 has no numeric 'steps'"), std::string::npos);
  const std::string noEvaluations = reportFile("noeval.json", R"({"agent":"rlflow","curve":[]})");
  EXPECT_NE(errorOf([&] { readRealStepCurve(noEvaluations); }).find("noeval.json: no 'evaluations' list"), std::string::npos);
  EXPECT_NE(errorOf([&] { readRealStepCurve(tempPath("real-step-curve", "missing.json")); }).find("missing.json"), std::string::npos);
  // Fields of the wrong JSON type are named, not reported as a library's type error.
  const std::string numericAgent = reportFile("numeric-agent.json", R"({"agent":7,"curve":[{"reward":1}]})");
  EXPECT_EQ(errorOf([&] { readRealStepCurve(numericAgent); }), numericAgent + ": 'agent' is not a string");
  const std::string numericDream =
      reportFile("numeric-dream.json", R"({"agent":"rlflow","dream":3,"evaluations":[{"real_env_steps":5,"mean_reward":1}]})");
  EXPECT_EQ(errorOf([&] { readRealStepCurve(numericDream); }), numericDream + ": 'dream' is not a string");
}
