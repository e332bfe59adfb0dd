// Rule synthesis (TASO's generator, core/synth) on tiny vocabularies: it finds known identities,
// refuses a pair whose fingerprints agree only by chance or that breaks at zero, prunes renamings,
// keeps by default only rules that pay, and rejects bad input.
#include "rewrite/RuleChecker.h"
#include "rewrite/RuleSet.h"
#include "support/Error.h"
#include "synth/RuleSynthesizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace tessera::synth {
namespace {

// Every verified rule (--keep-all), unless the options say otherwise: these tests look for identities.
SynthesisOptions keepAll() {
  SynthesisOptions options;
  options.keepAll = true;
  return options;
}

SynthesisReport synthesize(const std::vector<std::string>& ops, int maxOps, int variablesPerShape, SynthesisOptions options = keepAll()) {
  VocabularyOptions vocabularyOptions;
  vocabularyOptions.variablesPerShape = variablesPerShape;
  SynthVocabulary vocabulary = vocabularyFromOps(ops, vocabularyOptions);
  options.limits.maxOps = maxOps;
  return synthesizeRules(vocabulary, options);
}

bool hasRule(const SynthesisReport& report, const std::string& body) {
  return std::any_of(report.rules.begin(), report.rules.end(), [&](const SynthesizedRule& r) { return r.body == body; });
}

std::string bodies(const SynthesisReport& report) {
  std::string s;
  for (const SynthesizedRule& r : report.rules) s += r.body + "\n";
  return s;
}

TEST(RuleSynthesis, FindsReluIdempotence) {
  SynthesisReport report = synthesize({"relu"}, 2, 1);
  EXPECT_TRUE(hasRule(report, "(relu (relu ?x1)) => (relu ?x1)")) << bodies(report);
  for (const SynthesizedRule& rule : report.rules) {
    EXPECT_EQ(rule.labels.front(), "synth");
    EXPECT_NE(std::find(rule.labels.begin(), rule.labels.end(), "relu"), rule.labels.end());
    EXPECT_FALSE(rule.origin.empty());
  }
  EXPECT_GT(report.enumeratedGraphs, 2u);
  EXPECT_EQ(report.refused, 0u);
}

TEST(RuleSynthesis, FindsMatmulAssociativity) {
  SynthesisReport report = synthesize({"matmul"}, 2, 2);
  EXPECT_TRUE(hasRule(report, "(matmul 0 (matmul 0 ?x1 ?x2) ?x3) => (matmul 0 ?x1 (matmul 0 ?x2 ?x3))") ||
              hasRule(report, "(matmul 0 ?x1 (matmul 0 ?x2 ?x3)) => (matmul 0 (matmul 0 ?x1 ?x2) ?x3)"))
      << bodies(report);
}

TEST(RuleSynthesis, VerificationRefusesAChanceFingerprintMatch) {
  // On inputs in [0, 1) relu(x) and x fingerprint alike; the checker's inputs in [-1, 1] tell them apart.
  SynthesisOptions options = keepAll();
  options.limits.fingerprintLow = 0;
  SynthesisReport report = synthesize({"relu"}, 1, 1, options);
  EXPECT_GE(report.refused, 1u);
  EXPECT_FALSE(hasRule(report, "(relu ?x1) => ?x1")) << bodies(report);
  ASSERT_FALSE(report.refusedExamples.empty());
  EXPECT_NE(report.refusedExamples.front().problem.find("differ"), std::string::npos) << report.refusedExamples.front().problem;
}

TEST(RuleSynthesis, PrunesRenamingDuplicates) {
  SynthVocabulary vocabulary = vocabularyFromOps({"ewadd"}, {});
  // (ewadd ?x1 ?x2) => (ewadd ?x2 ?x1) spelled with other variables is one rule.
  auto add = [](int a, int b) {
    Term t;
    t.op = 0;
    t.args.resize(2);
    t.args[0].variable = a;
    t.args[1].variable = b;
    return t;
  };
  CandidateRule first{{add(0, 1)}, {add(1, 0)}};
  CandidateRule renamed{{add(2, 0)}, {add(0, 2)}};
  EXPECT_EQ(canonicalText(first, vocabulary), canonicalText(renamed, vocabulary));
  EXPECT_EQ(canonicalText(first, vocabulary), "(ewadd ?x1 ?x2) => (ewadd ?x2 ?x1)");

  SynthesisReport report = synthesize({"ewadd", "ewmul"}, 2, 3);
  EXPECT_GT(report.prunedRenaming, 0u);
  std::set<std::string> unique;
  for (const SynthesizedRule& rule : report.rules) EXPECT_TRUE(unique.insert(rule.body).second) << rule.body;
}

Term op(int index, std::vector<Term> args) {
  Term t;
  t.op = index;
  t.args = std::move(args);
  return t;
}

Term var(int v) {
  Term t;
  t.variable = v;
  return t;
}

TEST(RuleSynthesis, DropsRulesAKnownRuleImplies) {
  SynthVocabulary vocabulary = vocabularyFromOps({"relu", "ewadd", "matmul"}, {});
  const int relu = 0, ewadd = 1, matmul = 2;
  KnownRules known;
  known.add({{op(relu, {op(relu, {var(0)})})}, {op(relu, {var(0)})}});                                    // relu(relu a) = relu a
  known.add({{op(matmul, {op(matmul, {var(0), var(1)}), var(2)})}, {op(matmul, {var(0), op(matmul, {var(1), var(2)})})}}); // associativity
  // The same rewrite below a shared context: a common subgraph.
  CandidateRule inContext{{op(ewadd, {op(relu, {op(relu, {var(3)})}), var(4)})}, {op(ewadd, {op(relu, {var(3)}), var(4)})}};
  EXPECT_EQ(known.redundancy(inContext), Redundancy::CommonSubgraph);
  // Associativity with two variables identified: subsumed.
  CandidateRule identified{{op(matmul, {op(matmul, {var(3), var(3)}), var(4)})}, {op(matmul, {var(3), op(matmul, {var(3), var(4)})})}};
  EXPECT_EQ(known.redundancy(identified), Redundancy::Subsumed);
  // Not a consequence: relu(a) + b = b + relu(a) needs commutativity, which is not known.
  CandidateRule other{{op(ewadd, {op(relu, {var(3)}), var(4)})}, {op(ewadd, {var(4), op(relu, {var(3)})})}};
  EXPECT_EQ(known.redundancy(other), Redundancy::None);

  SynthesisReport report = synthesize({"ewadd", "ewmul", "matmul"}, 2, 2);
  EXPECT_GT(report.prunedCommonSubgraph + report.prunedSubsumed, 0u);
  EXPECT_EQ(report.written, report.verified);
}

TEST(RuleSynthesis, FindsATwoOutputRule) {
  // Q, K, V on one input: matmuls of one input with two weights, and one matmul with the weights
  // concatenated along axis 1, split. Only that concat and split, to keep the test fast.
  VocabularyOptions vocabularyOptions;
  vocabularyOptions.variablesPerShape = 2;
  SynthVocabulary vocabulary = vocabularyFromOps({"matmul", "concat", "split"}, vocabularyOptions);
  std::erase_if(vocabulary.ops, [](const SynthOp& op) { return (op.kind == OpKind::Concat || op.kind == OpKind::Split) && op.axis != 1; });
  SynthesisOptions options = keepAll();
  options.limits.maxOps = 3;
  options.check.cases = 1; // the checker's cost dominates; one shape per candidate is enough here
  SynthesisReport report = synthesizeRules(vocabulary, options);
  EXPECT_GT(report.writtenMulti, 0u) << bodies(report);
  bool found = std::any_of(report.rules.begin(), report.rules.end(), [](const SynthesizedRule& r) {
    return r.multi && r.body.find("split_0") != std::string::npos && r.body.find("concat") != std::string::npos;
  });
  EXPECT_TRUE(found) << bodies(report);
}

TEST(RuleSynthesis, WrittenPackLoadsAndPassesTheChecker) {
  SynthesisOptions options = keepAll();
  options.limits.maxOps = 2;
  SynthVocabulary vocabulary = vocabularyFromOps({"relu", "transpose", "ewadd"}, {});
  SynthesisReport report = synthesizeRules(vocabulary, options);
  ASSERT_GT(report.written, 0u);
  RuleSet pack = parseRules(packText(report, vocabulary, options), "synth.rules", RuleFileFormat::Tessera);
  ASSERT_EQ(pack.size(), report.written);
  for (const RuleCheck& check : checkRules(pack)) EXPECT_TRUE(check.verified) << check.name << ": " << check.problem;
}

TEST(RuleSynthesis, RefusesAnIdentityThatBreaksAtZero) {
  // x * x / x agrees with x on random inputs, but at 0 it is NaN: a model would change.
  RuleSet rules = parseRules("cancel: (Div (Mul ?x ?x) ?x) => ?x", "<test>", RuleFileFormat::Tessera);
  RuleCheck check = checkRule(rules.rule(0));
  EXPECT_FALSE(check.verified);
  EXPECT_NE(check.problem.find("not finite"), std::string::npos) << check.problem;
  EXPECT_NE(check.problem.find("zeros"), std::string::npos) << check.problem;
  // True on [-1, 1] only: relu(x + 3) = x + 3, clip(x, 0, 6) = relu(relu(x)).
  RuleSet narrow = parseRules("shift: (Relu (Add ?x #3)) => (Add ?x #3)\n"
                              "clip: (Relu (Relu ?x)) => (Clip{max=6.0, min=0.0} ?x)\n",
                              "<test>", RuleFileFormat::Tessera);
  for (const RuleCheck& refused : checkRules(narrow)) {
    EXPECT_FALSE(refused.verified) << refused.name;
    EXPECT_NE(refused.problem.find("special values"), std::string::npos) << refused.problem;
  }
  // Non-finite on both sides where it is non-finite at all (x / y at y = 0): still verified.
  RuleSet sound = parseRules("regroup: (Div (Mul ?x ?z) ?y) => (Mul ?x (Div ?z ?y))", "<test>", RuleFileFormat::Tessera);
  EXPECT_TRUE(checkRule(sound.rule(0)).verified) << checkRule(sound.rule(0)).problem;

  SynthesisReport report = synthesize({"Mul", "Div"}, 2, 1);
  EXPECT_FALSE(hasRule(report, "(Div (Mul ?x1 ?x1) ?x1) => ?x1")) << bodies(report);
  EXPECT_GE(report.refused, 1u);
  const bool refusedAtZero = std::any_of(report.refusedExamples.begin(), report.refusedExamples.end(),
                                         [](const RefusedCandidate& r) { return r.problem.find("not finite") != std::string::npos; });
  EXPECT_TRUE(refusedAtZero) << bodies(report);
}

TEST(RuleSynthesis, KeepsOnlyRulesThatPayUnlessKeepAll) {
  // Over Add and Sub: (x1 + x1) - x1 = x1 is verified but rewrites to a bare variable without
  // cancelling ops; x1 + (x1 - x2) = (x1 + x1) - x2 changes nothing the cost model sees.
  SynthesisReport all = synthesize({"Add", "Sub"}, 2, 2, keepAll());
  SynthesisReport kept = synthesize({"Add", "Sub"}, 2, 2, SynthesisOptions{});
  EXPECT_EQ(all.verified, kept.verified);
  EXPECT_EQ(all.written, all.verified);
  EXPECT_EQ(all.prunedNoGain + all.prunedToVariable, 0u);
  EXPECT_GT(kept.prunedNoGain, 0u);
  EXPECT_GT(kept.prunedToVariable, 0u);
  EXPECT_EQ(kept.written + kept.prunedNoGain + kept.prunedToVariable, kept.verified);
  for (const char* dropped : {"(Add ?x1 (Sub ?x1 ?x2)) => (Sub (Add ?x1 ?x1) ?x2)", "(Sub (Add ?x1 ?x1) ?x1) => ?x1"}) {
    EXPECT_TRUE(hasRule(all, dropped)) << bodies(all);
    EXPECT_FALSE(hasRule(kept, dropped)) << bodies(kept);
  }
  EXPECT_TRUE(hasRule(synthesize({"relu"}, 2, 1, SynthesisOptions{}), "(relu (relu ?x1)) => (relu ?x1)")); // smaller: kept
  for (const SynthesizedRule& rule : kept.rules) {
    EXPECT_TRUE(rule.lhsOps > rule.rhsOps || rule.rhsCostMs < rule.lhsCostMs) << rule.body;
    EXPECT_NE(rule.body.substr(rule.body.size() - 4), "=> ?x1") << rule.body;
    // Nor a constant in disguise: (Sub (Sub ?x1 ?x1) (Sub ?x1 ?x1)) => (Sub ?x1 ?x1) says 0 = 0.
    EXPECT_FALSE(rule.body.ends_with("=> (Sub ?x1 ?x1)")) << rule.body;
  }
  EXPECT_TRUE(std::any_of(all.rules.begin(), all.rules.end(), [](const SynthesizedRule& r) { return r.body.ends_with("=> (Sub ?x1 ?x1)"); }))
      << bodies(all);
  // A cancellation may rewrite to a bare variable: transpose of a transpose.
  SynthesisReport transposes = synthesize({"transpose"}, 2, 1, SynthesisOptions{});
  const bool cancels = std::any_of(transposes.rules.begin(), transposes.rules.end(),
                                   [](const SynthesizedRule& r) { return r.body.ends_with("=> ?x1") && r.lhsOps == 2; });
  EXPECT_TRUE(cancels) << bodies(transposes);
}

TEST(RuleSynthesis, ModelVocabularyHasItsScalarConstantsAndFloatAttributes) {
  // A head's scale (x / 8), a hard-sigmoid gate and a Clip, as exported models spell them.
  Graph graph;
  const NodeId x = graph.addInput("x", {DType::Float32, {2, 8, 8}});
  const NodeId eight = graph.addWeight("scale", Tensor::fromFloats({}, {8.0f}));
  const NodeId scaled = graph.addNode(OpKind::Div, {{x}, {eight}});
  const NodeId gate = graph.addNode(OpKind::HardSigmoid, {{scaled}}, {{"alpha", 0.2f}, {"beta", 0.5f}});
  const NodeId clipped = graph.addNode(OpKind::Clip, {{gate}}, {{"min", 0.0f}, {"max", 6.0f}});
  const NodeId product = graph.addNode(OpKind::Mul, {{clipped}, {x}});
  graph.addOutput({product}, "y");
  const Graph* models[] = {&graph};
  const std::string names[] = {"gate.onnx"};
  VocabularyOptions vocabularyOptions;
  vocabularyOptions.variablesPerShape = 1;
  SynthVocabulary vocabulary = vocabularyFromModels(models, names, vocabularyOptions);
  auto hasOp = [&](const std::string& prefix) {
    return std::any_of(vocabulary.ops.begin(), vocabulary.ops.end(), [&](const SynthOp& op) { return op.label.starts_with(prefix); });
  };
  EXPECT_TRUE(hasOp("HardSigmoid{")) << vocabulary.notes.size();
  EXPECT_TRUE(hasOp("Clip{"));
  EXPECT_TRUE(hasOp("Div"));
  const bool hasEight = std::any_of(vocabulary.variables.begin(), vocabulary.variables.end(),
                                    [](const SynthVariable& v) { return v.literal && *v.literal == 8.0; });
  const bool hasScalar = std::any_of(vocabulary.variables.begin(), vocabulary.variables.end(), [](const SynthVariable& v) { return v.scalar; });
  EXPECT_TRUE(hasEight);
  EXPECT_TRUE(hasScalar);

  // Rules over them are written with #8 and #?s, and the pack re-checks.
  std::erase_if(vocabulary.ops, [](const SynthOp& op) { return op.kind != OpKind::Div && op.kind != OpKind::Mul; });
  SynthesisOptions options = keepAll();
  options.limits.maxOps = 2;
  SynthesisReport report = synthesizeRules(vocabulary, options);
  const bool writesConstants = std::any_of(report.rules.begin(), report.rules.end(), [](const SynthesizedRule& r) {
    return r.body.find("#8") != std::string::npos || r.body.find("#?s1") != std::string::npos;
  });
  EXPECT_TRUE(writesConstants) << bodies(report);
  RuleSet pack = parseRules(packText(report, vocabulary, options), "synth.rules", RuleFileFormat::Tessera);
  ASSERT_EQ(pack.size(), report.written);
  for (const RuleCheck& check : checkRules(pack)) EXPECT_TRUE(check.verified) << check.name << ": " << check.problem;
}

TEST(RuleSynthesis, BadVocabularyIsOneClearError) {
  try {
    vocabularyFromOps({"relu", "frobnicate"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown op 'frobnicate'"), std::string::npos) << e.what();
  }
  try {
    vocabularyFromOps({"Gather"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'Gather'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(vocabularyFromOps({}), Error);
}

TEST(RuleSynthesis, BudgetsStopWithAReason) {
  SynthVocabulary vocabulary = vocabularyFromOps({"ewadd", "ewmul", "matmul"}, {});
  EnumerationLimits limits;
  limits.maxOps = 4;
  limits.maxGraphs = 500;
  EnumerationResult result = enumerateGraphs(vocabulary, limits);
  EXPECT_NE(result.stopReason.find("graph budget"), std::string::npos) << result.stopReason;
  EXPECT_NE(result.stopReason.find("--max-ops 4"), std::string::npos) << result.stopReason;
  limits.maxOps = 9;
  EXPECT_THROW(enumerateGraphs(vocabulary, limits), Error);
}

} // namespace
} // namespace tessera::synth

#include "synth/RuleOrigins.h"

namespace tessera::synth {
namespace {

TEST(RuleSynthesis, OriginsAreReadBackByRuleName) {
  SynthesisOptions options;
  options.limits.maxOps = 2;
  SynthVocabulary vocabulary = vocabularyFromOps({"relu"}, {});
  SynthesisReport report = synthesizeRules(vocabulary, options);
  ASSERT_FALSE(report.rules.empty());
  std::map<std::string, std::string> origins = ruleOrigins(packText(report, vocabulary, options));
  ASSERT_EQ(origins.size(), report.rules.size());
  for (const SynthesizedRule& rule : report.rules) EXPECT_EQ(origins[rule.name], rule.origin);
  EXPECT_TRUE(ruleOrigins("# origin: dangling\n\nr1: (relu ?x) => ?x\n").empty());
}

} // namespace
} // namespace tessera::synth
