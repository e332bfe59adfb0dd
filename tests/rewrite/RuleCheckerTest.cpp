#include "rewrite/DefaultRules.h"
#include "rewrite/RuleChecker.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
const std::string kTensat = std::string(TESSERA_SHARED_DIR) + "/reference/tensat";
RuleSet rules(const std::string& text) { return parseRules(text, "test.rules", RuleFileFormat::Tessera); }
} // namespace

TEST(RuleChecker, EveryRuleOfTheDefaultPackVerifies) {
  RuleSet pack = defaultRules();
  std::vector<RuleCheck> checks = checkRules(pack);
  ASSERT_EQ(checks.size(), pack.size());
  for (const RuleCheck& check : checks) {
    EXPECT_TRUE(check.verified) << check.name << ": " << check.problem;
    EXPECT_GE(check.cases, 1) << check.name;
  }
}

TEST(RuleChecker, CatchesUnsoundRules) {
  RuleSet bad = rules("relu-distributes: (relu (ewadd ?a ?b)) => (ewadd (relu ?a) (relu ?b))\n"
                      "wrong-transpose: (matmul 0 ?a ?b) => (matmul 0 ?b ?a)\n"
                      "sound: (ewadd ?a ?b) => (ewadd ?b ?a)\n");
  std::vector<RuleCheck> checks = checkRules(bad);
  EXPECT_FALSE(checks[0].verified);
  EXPECT_NE(checks[0].problem.find("sides differ"), std::string::npos) << checks[0].problem;
  EXPECT_FALSE(checks[1].verified);
  EXPECT_TRUE(checks[2].verified) << checks[2].problem;
  RuleSet kept = keepVerified(std::move(bad), checks);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept.rule(0).name(), "sound");
}

TEST(RuleChecker, TensatsUnguardedGroupedConvRuleIsCaught) {
  // TENSAT's converted.txt states the concat-of-convs rule without its condition; the checker
  // finds shapes where it is wrong, and the default pack carries the guard instead.
  RuleSet raw = loadRuleFile(kTensat + "/converted.txt");
  RuleCheckOptions options;
  options.cases = 8;
  bool caught = false;
  for (uint64_t seed = 1; seed <= 3 && !caught; ++seed) {
    options.seed = seed;
    caught = !checkRule(*raw.find("converted-92"), options).verified;
    EXPECT_TRUE(checkRule(*defaultRules().find("tensat-s092"), options).verified);
  }
  EXPECT_TRUE(caught);
}

// A rule that copies the attributes of an op ONNX gives no default for (LRN's size) is checked
// with attributes that make it strict (an even size, a large alpha), so a wrong spelling of LRN
// differs from it and the right one does not.
TEST(RuleChecker, ChecksRulesThatCopyLrnsAttributes) {
  std::vector<RuleCheck> checks = checkRules(rules("lrn-unsquared: (LRN@l ?x) => (Div ?x (LrnDenominator@l ?x))\n"
                                                   "lrn-window: (LRN@l ?x) => (Div ?x (LrnDenominator@l (Mul ?x ?x)))\n"));
  EXPECT_FALSE(checks[0].verified);
  EXPECT_NE(checks[0].problem.find("sides differ"), std::string::npos) << checks[0].problem;
  EXPECT_TRUE(checks[1].verified) << checks[1].problem;
  EXPECT_GE(checks[1].cases, 1);
}

// Constants in patterns are checked at their values, and `#?s` variables at drawn values: a wrong
// constant or a rule that holds only for some scalars is caught.
TEST(RuleChecker, ChecksRulesWithConstants) {
  std::vector<RuleCheck> checks = checkRules(rules(
      "hardswish: (Div (Mul ?x (Clip{max=6.0, min=0.0} (Add ?x #3))) #6) => (HardSwish ?x)\n"
      "hardswish-wrong-shift: (Div (Mul ?x (Clip{max=6.0, min=0.0} (Add ?x #2))) #6) => (HardSwish ?x)\n"
      "div-as-mul: (Div ?x #?c) => (Mul ?x (Reciprocal #?c))\n"
      "div-as-mul-wrong: (Div ?x #?c) => (Mul ?x #?c)\n"
      "gelu: (Mul (Mul ?x (Add (Erf (Div ?x #1.4142135)) #1)) #0.5) => (Gelu ?x)\n"));
  ASSERT_EQ(checks.size(), 5u);
  EXPECT_TRUE(checks[0].verified) << checks[0].problem;
  EXPECT_FALSE(checks[1].verified);
  EXPECT_NE(checks[1].problem.find("sides differ"), std::string::npos) << checks[1].problem;
  EXPECT_TRUE(checks[2].verified) << checks[2].problem;
  EXPECT_FALSE(checks[3].verified);
  EXPECT_TRUE(checks[4].verified) << checks[4].problem;
}

// `$?b` variables are checked as weights (so the rule still matches its own cases) with drawn values:
// a sound rule over them verifies, one that holds for no bias is caught.
TEST(RuleChecker, ChecksRulesWithWeightOnlyVariables) {
  std::vector<RuleCheck> checks = checkRules(rules(
      "fold-biases: (Add (Add ?x $?b1) $?b2) => (Add ?x (Add $?b1 $?b2))\n"
      "drop-bias: (Add ?x $?b) => ?x\n"));
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_TRUE(checks[0].verified) << checks[0].problem;
  EXPECT_GE(checks[0].cases, 1);
  EXPECT_FALSE(checks[1].verified);
}
