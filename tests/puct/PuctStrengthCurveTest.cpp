// PUCT's self-play strength by generation as the Training tab reads it from training reports
// (rl/StrengthCurve.h): the shipped agent's report and its seeds, and bad reports named.
#include "rl/StrengthCurve.h"

#include "../rl/RlTestFiles.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace tessera;
using tessera::test::errorOf;

namespace {

std::string reportFile(const std::string& name, const std::string& text) {
  const std::string path = test::tempPath("puct-strength", name);
  std::ofstream(path) << text;
  return path;
}

const std::string kAgents = std::string(TESSERA_SOURCE_DIR) + "/resources/agents";

} // namespace

TEST(PuctStrengthCurve, TheShippedTrainingGivesEachGenerationsStrengthAndTheFinalNetworks) {
  const StrengthCurve curve = readStrengthCurve(kAgents + "/puct-training.json");
  EXPECT_EQ(curve.agent, "puct");
  EXPECT_EQ(curve.seed, 1u);
  EXPECT_EQ(curve.models.size(), 12u);
  EXPECT_TRUE(curve.variant.empty()) << "trained with the defaults: completed-Q targets, no root noise";
  ASSERT_EQ(curve.generations.size(), 3u);
  for (size_t i = 0; i < curve.generations.size(); ++i) EXPECT_EQ(curve.generations[i].generation, static_cast<int>(i) + 1);
  // rl-agents.md's table of the shipped agent: 33.89 % with the untrained network, 33.81 % in generation 3.
  EXPECT_NEAR(curve.generations[0].meanSpeedupPct, 33.89, 0.005);
  EXPECT_NEAR(curve.generations[2].meanSpeedupPct, 33.81, 0.005);
  ASSERT_TRUE(curve.finalMeanSpeedupPct);
  EXPECT_NEAR(*curve.finalMeanSpeedupPct, 32.89, 0.005);
  // Targets other than the default are named; reports from before policy targets trained on visits.
  EXPECT_EQ(readStrengthCurve(kAgents + "/seeds/puct-noise-seed2.json").variant, "root_noise 0.25 visits");
  EXPECT_EQ(readStrengthCurve(kAgents + "/previous/puct-visits-training.json").variant, "visits");
}

TEST(PuctStrengthCurve, BadReportsAreNamedWithTheirProblem) {
  const std::string garbled = reportFile("garbled.json", R"({"agent": "puct", )");
  EXPECT_NE(errorOf([&] { readStrengthCurve(garbled); }).find("garbled.json: not valid JSON"), std::string::npos);
  const std::string other = reportFile("other.json", R"({"agent":"xrlflow","curve":[{"reward":1}]})");
  EXPECT_NE(errorOf([&] { readStrengthCurve(other); }).find("other.json: a report of agent 'xrlflow' has no self-play strength"),
            std::string::npos);
  const std::string none = reportFile("none.json", R"({"agent":"puct","generations":[]})");
  EXPECT_NE(errorOf([&] { readStrengthCurve(none); }).find("none.json: no 'generations' list"), std::string::npos);
  const std::string noStrength = reportFile("nostrength.json", R"({"agent":"puct","generations":[{"generation":1,"policy_loss":2}]})");
  EXPECT_NE(errorOf([&] { readStrengthCurve(noStrength); }).find("nostrength.json: generation entry 0 has no numeric 'mean_speedup_pct'"),
            std::string::npos);
  const std::string badFinal = reportFile("badfinal.json", R"({"agent":"puct","generations":[{"mean_speedup_pct":3}],"final_mean_speedup_pct":"x"})");
  EXPECT_NE(errorOf([&] { readStrengthCurve(badFinal); }).find("badfinal.json: the report has no numeric 'final_mean_speedup_pct'"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { readStrengthCurve(test::tempPath("puct-strength", "missing.json")); }).find("missing.json"), std::string::npos);
}
