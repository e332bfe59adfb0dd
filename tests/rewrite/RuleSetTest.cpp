#include "rewrite/RuleSet.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
const std::string kTensat = std::string(TESSERA_SHARED_DIR) + "/reference/tensat";

std::string errorOf(const std::string& text, RuleFileFormat format = RuleFileFormat::Tessera) {
  try {
    parseRules(text, "pack.rules", format);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}
} // namespace

TEST(RuleSet, LoadsTensatsRuleFiles) {
  RuleSet single = loadRuleFile(kTensat + "/converted.txt");
  EXPECT_EQ(single.size(), 120u);
  EXPECT_EQ(single.multiCount(), 0u);
  RuleSet multi = loadRuleFile(kTensat + "/converted_multi.txt");
  EXPECT_EQ(multi.size(), 13u);
  EXPECT_EQ(multi.multiCount(), 13u);
  EXPECT_TRUE(multi.rule(0).hasLabel("multi"));
  EXPECT_NE(single.find("converted-1"), nullptr);
}

TEST(RuleSet, ParsesNamedRulesWithLabels) {
  RuleSet rules = parseRules("# fusions\n"
                             "fuse-relu [fusion, conv]: (relu (conv2d 1 1 0 0 ?x ?w)) => (conv2d 1 1 0 2 ?x ?w)\n"
                             "\n"
                             "pair: (relu ?a) => (split_0 (split 1 (relu (concat 1 2 ?a ?b)))) && (relu ?b) => (split_1 (split 1 (relu (concat 1 2 ?a ?b))))\n",
                             "pack.rules", RuleFileFormat::Tessera);
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules.rule(0).name(), "fuse-relu");
  EXPECT_EQ(rules.rule(0).labels(), (std::vector<std::string>{"fusion", "conv"}));
  EXPECT_TRUE(rules.rule(1).isMulti());
  EXPECT_TRUE(rules.rule(1).hasLabel("multi"));
}

TEST(RuleSet, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(errorOf("\n\nr: (relu ?x) => (frobnicate ?x)"), "pack.rules: line 3, column 17: unknown op 'frobnicate'");
  EXPECT_EQ(errorOf("r: (relu ?x) => (relu ?y)"), "pack.rules: line 1, column 23: variable ?y does not appear on the left-hand side");
  EXPECT_EQ(errorOf("r: (relu ?x ?y) => (relu ?x)"), "pack.rules: line 1, column 4: 'relu' takes 1 arguments, got 2");
  EXPECT_EQ(errorOf("r: (matmul ?a ?b ?c) => ?a"), "pack.rules: line 1, column 12: argument 1 of 'matmul' must be a number");
  EXPECT_EQ(errorOf("r: (relu ?x) (relu ?x)"), "pack.rules:1:4: expected 'LHS => RHS'");
  EXPECT_EQ(errorOf("(relu ?x) => ?x"), "pack.rules:1:1: expected 'NAME [labels]: LHS => RHS'");
  EXPECT_EQ(errorOf("r: (relu ?x) => (relu ?x\n"), "pack.rules: line 1, column 25: missing ')' for '(relu'");
  EXPECT_EQ(errorOf("r: (relu ?x) => ?x\nr: (tanh ?x) => ?x"), "pack.rules:2:1: rule 'r' is defined twice");
  EXPECT_EQ(errorOf("r: (split_0 (split 1 ?x)) => ?x"), "pack.rules: line 1, column 4: split may only appear on a right-hand side");
  EXPECT_EQ(errorOf("(relu ?x)=>?x", RuleFileFormat::TensatMulti), "pack.rules:1:1: a multi-pattern rule needs a second line");
  EXPECT_EQ(errorOf("r [a: (relu ?x) => ?x"), "pack.rules:1:3: missing ']' after the labels");
}

TEST(RuleSet, MissingFileIsAnError) {
  EXPECT_THROW(loadRuleFile("/nonexistent/rules.txt"), Error);
}

#include "rewrite/DefaultRules.h"

TEST(DefaultRules, HoldTensatsRulesPredefinedRulesAndFusions) {
  RuleSet rules = defaultRules();
  size_t tensatSingle = 0, tensatMulti = 0, predefined = 0, fusion = 0, realMulti = 0;
  for (const auto& rule : rules.rules()) {
    if (rule->hasLabel("tensat")) (rule->isMulti() ? tensatMulti : tensatSingle)++;
    if (rule->hasLabel("predefined")) ++predefined;
    if (rule->hasLabel("fusion")) ++fusion;
    if (rule->hasLabel("real") && rule->isMulti()) ++realMulti;
  }
  EXPECT_EQ(tensatSingle, 120u);
  EXPECT_EQ(tensatMulti, 13u);
  EXPECT_EQ(predefined, 6u);
  EXPECT_GE(fusion, 6u);
  EXPECT_EQ(realMulti, 2u); // the merges of products that share an input, with and without their bias
  EXPECT_EQ(rules.multiCount(), 15u + realMulti);
  EXPECT_NE(rules.find("fuse-conv-bias-relu"), nullptr);
  EXPECT_NE(rules.find("hardswish-div"), nullptr);
}
