// Rule synthesis with left-hand sides mined from a model (--from-model, issue #32): on a small
// graph spelled as exports spell it (hard-sigmoid as Add/Clip/Div, a head's scores divided by a
// constant, two transposes in a row) it finds verified rules that rewrite those spellings, every
// one of them matches the model it was mined from, and a budget stops mining with a reason.
#include "egraph/EGraph.h"
#include "egraph/GraphConversion.h"
#include "rewrite/RuleChecker.h"
#include "rewrite/RuleSet.h"
#include "synth/ModelPatterns.h"
#include "synth/RuleSynthesizer.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tessera::synth {
namespace {

Graph exportLikeGraph() {
  Graph graph;
  const NodeId x = graph.addInput("x", {DType::Float32, {1, 8, 6, 6}});
  const NodeId three = graph.addWeight("three", Tensor::fromFloats({}, {3.0f}));
  const NodeId six = graph.addWeight("six", Tensor::fromFloats({}, {6.0f}));
  const NodeId shifted = graph.addNode(OpKind::Add, {{x}, {three}});
  const NodeId clipped = graph.addNode(OpKind::Clip, {{shifted}}, {{"min", 0.0f}, {"max", 6.0f}});
  const NodeId gate = graph.addNode(OpKind::Div, {{clipped}, {six}});
  const NodeId gated = graph.addNode(OpKind::Mul, {{x}, {gate}});
  graph.addOutput({gated}, "y");

  // Attention scores q k^T / 8, with k transposed twice as torch.onnx writes k.transpose(-1, -2).
  const NodeId q = graph.addInput("q", {DType::Float32, {1, 2, 16, 4}});
  const NodeId k = graph.addInput("k", {DType::Float32, {1, 16, 2, 4}});
  const NodeId eight = graph.addWeight("eight", Tensor::fromFloats({}, {8.0f}));
  const NodeId heads = graph.addNode(OpKind::Transpose, {{k}}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  const NodeId keys = graph.addNode(OpKind::Transpose, {{heads}}, {{"perm", std::vector<int64_t>{0, 1, 3, 2}}});
  const NodeId scores = graph.addNode(OpKind::MatMul, {{q}, {keys}});
  const NodeId scaled = graph.addNode(OpKind::Div, {{scores}, {eight}});
  graph.addOutput({scaled}, "scores");
  return graph;
}

SynthesisReport synthesizeFrom(const Graph& graph, SynthVocabulary& vocabulary, int maxOps) {
  const Graph* models[] = {&graph};
  const std::string names[] = {"export.onnx"};
  VocabularyOptions vocabularyOptions;
  vocabularyOptions.variablesPerShape = 2;
  vocabularyOptions.literalsPerModel = 3;
  vocabularyOptions.mineMaxOps = maxOps;
  vocabulary = vocabularyFromModels(models, names, vocabularyOptions);
  SynthesisOptions options;
  options.limits.maxOps = maxOps - 1;
  return synthesizeRules(vocabulary, options);
}

std::string bodies(const SynthesisReport& report) {
  std::string s;
  for (const SynthesizedRule& r : report.rules) s += r.body + "\n";
  return s;
}

bool anyRule(const SynthesisReport& report, const std::string& lhsPart, const std::string& rhsPart) {
  return std::any_of(report.rules.begin(), report.rules.end(), [&](const SynthesizedRule& r) {
    const size_t arrow = r.body.find(" => ");
    return r.body.substr(0, arrow).find(lhsPart) != std::string::npos && r.body.substr(arrow).find(rhsPart) != std::string::npos;
  });
}

TEST(ModelPatternSynthesis, MinesTheModelsSpellingsAndFindsTheirFusedForms) {
  const Graph graph = exportLikeGraph();
  SynthVocabulary vocabulary;
  SynthesisReport report = synthesizeFrom(graph, vocabulary, 3);
  EXPECT_GT(vocabulary.mining.trees, 0u);
  EXPECT_GT(report.minedPatterns, 0u);
  EXPECT_GT(report.minedPairs, 0u);
  // Hard-sigmoid spelled (x + 3).clip(0, 6) / 6 becomes ONNX's HardSigmoid (alpha 1/6).
  EXPECT_TRUE(anyRule(report, "(Div (Clip{max=6.0, min=0.0} (Add ?x1 #3)) #6)", "HardSigmoid{alpha=0.16666667, beta=0.5}")) << bodies(report);
  // Two transposes become one with the composed permutation.
  EXPECT_TRUE(anyRule(report, "(Transpose{perm=[0,1,3,2]} (Transpose{perm=[0,2,1,3]} ?x1))", "(Transpose{perm=[0,2,3,1]} ?x1)"))
      << bodies(report);
  // The division moves onto the smaller operand of the product (same ops, cheaper at the model's shapes).
  EXPECT_TRUE(std::any_of(report.rules.begin(), report.rules.end(), [](const SynthesizedRule& r) {
    return r.body.starts_with("(Div (MatMul{activation=0} ") && r.rhsCostMs < r.lhsCostMs;
  })) << bodies(report);
}

TEST(ModelPatternSynthesis, EveryMinedRuleVerifiesAndMatchesTheModel) {
  const Graph graph = exportLikeGraph();
  SynthVocabulary vocabulary;
  SynthesisReport report = synthesizeFrom(graph, vocabulary, 3);
  SynthesisOptions options;
  RuleSet pack = parseRules(packText(report, vocabulary, options), "mined.rules", RuleFileFormat::Tessera);
  ASSERT_EQ(pack.size(), report.written);
  ASSERT_GT(pack.size(), 0u);
  for (const RuleCheck& check : checkRules(pack)) EXPECT_TRUE(check.verified) << check.name << ": " << check.problem;
  EGraph egraph;
  seedEGraph(egraph, graph);
  for (size_t i = 0; i < pack.size(); ++i)
    EXPECT_FALSE(pack.rule(i).search(egraph, 4).empty()) << pack.rule(i).name() << " matches nothing in the model it was mined from";
}

// Scores plus (1 - mask) * c under a softmax: with a moderate c the shift by c is dropped (softmax
// ignores a constant along its axis); with a mask's -3.4e38 that identity loses every digit of the
// scores in float32, so such constants are not mined.
Graph maskedSoftmax(float fill) {
  Graph graph;
  const NodeId scores = graph.addInput("scores", {DType::Float32, {1, 2, 4, 4}});
  const NodeId mask = graph.addInput("mask", {DType::Float32, {1, 2, 4, 4}});
  const NodeId one = graph.addWeight("one", Tensor::fromFloats({}, {1.5f}));
  const NodeId big = graph.addWeight("fill", Tensor::fromFloats({}, {fill}));
  const NodeId inverted = graph.addNode(OpKind::Sub, {{one}, {mask}});
  const NodeId bias = graph.addNode(OpKind::Mul, {{inverted}, {big}});
  const NodeId masked = graph.addNode(OpKind::Add, {{scores}, {bias}});
  const NodeId probabilities = graph.addNode(OpKind::Softmax, {{masked}}, {{"axis", int64_t{-1}}});
  graph.addOutput({probabilities}, "p");
  return graph;
}

TEST(ModelPatternSynthesis, MaskConstantsAreNotMined) {
  auto softmaxRules = [](float fill) {
    const Graph graph = maskedSoftmax(fill);
    SynthVocabulary vocabulary;
    SynthesisReport report = synthesizeFrom(graph, vocabulary, 4);
    return std::count_if(report.rules.begin(), report.rules.end(), [](const SynthesizedRule& r) { return r.body.starts_with("(Softmax"); });
  };
  EXPECT_GT(softmaxRules(-2.0f), 0);
  EXPECT_EQ(softmaxRules(-3.4e38f), 0);
}

TEST(ModelPatternSynthesis, MiningBudgetStopsWithAReason) {
  const Graph graph = exportLikeGraph();
  const Graph* models[] = {&graph};
  const std::string names[] = {"export.onnx"};
  VocabularyOptions vocabularyOptions;
  vocabularyOptions.mineMaxOps = 3;
  vocabularyOptions.maxPatterns = 2;
  SynthVocabulary vocabulary = vocabularyFromModels(models, names, vocabularyOptions);
  EXPECT_EQ(vocabulary.patterns.size(), 2u);
  EXPECT_NE(vocabulary.mining.stopReason.find("pattern budget"), std::string::npos) << vocabulary.mining.stopReason;
}

} // namespace
} // namespace tessera::synth
