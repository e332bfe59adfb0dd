#include "egraph/GraphConversion.h"
#include "rewrite/Pattern.h"
#include "rewrite/RuleSet.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

const Rule& only(const RuleSet& rules) { return rules.rule(0); }

RuleSet rule(const std::string& text) { return parseRules(text, "test.rules", RuleFileFormat::Tessera); }

bool classHas(const EGraph& g, EClassId id, OpKind op, const char* attr = nullptr, int64_t value = 0) {
  for (const ENode& node : g.eclass(id).nodes)
    if (node.op == op && (!attr || g.attributes().get(node.payload).getInt(attr, -1) == value)) return true;
  return false;
}
} // namespace

TEST(PatternRule, FusesReluIntoSamePaddedConv) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({1, 4, 8, 8}));
  NodeId w = graph.addWeight("w", Tensor::splat(f32({4, 4, 3, 3}), 0.1));
  NodeId w2 = graph.addWeight("w2", Tensor::splat(f32({4, 4, 3, 3}), 0.1));
  NodeId same = graph.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", Ints{1, 1, 1, 1}}});
  NodeId strided = graph.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}});
  graph.addOutput({graph.addNode(OpKind::Relu, {{same}})});
  graph.addOutput({graph.addNode(OpKind::Relu, {{strided}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);

  RuleSet rules = rule("fuse: (relu (conv2d 1 1 0 0 ?x ?w)) => (conv2d 1 1 0 2 ?x ?w)");
  auto matches = only(rules).search(egraph, 100);
  ASSERT_EQ(matches.size(), 1u); // the stride-2 conv does not match
  EXPECT_EQ(matches[0].roots[0], egraph.find(seed.outputs[0]));
  RuleApplication applied = only(rules).apply(egraph, matches[0]);
  EXPECT_TRUE(applied.typeChecked);
  EXPECT_TRUE(applied.changed);
  egraph.rebuild();
  EXPECT_TRUE(classHas(egraph, seed.outputs[0], OpKind::Conv, "activation", 2));
  EXPECT_FALSE(classHas(egraph, seed.outputs[1], OpKind::Conv, "activation", 2));
  // Applying again changes nothing.
  EXPECT_FALSE(only(rules).apply(egraph, only(rules).search(egraph, 100)[0]).changed);
}

TEST(PatternRule, NonLinearPatternsNeedEqualClasses) {
  Graph graph;
  NodeId a = graph.addInput("a", f32({4, 4}));
  NodeId b = graph.addInput("b", f32({4, 4}));
  graph.addOutput({graph.addNode(OpKind::Add, {{a}, {a}})});
  graph.addOutput({graph.addNode(OpKind::Add, {{a}, {b}})});
  EGraph egraph;
  seedEGraph(egraph, graph);
  RuleSet rules = rule("double: (ewadd ?x ?x) => (ewmul ?x ?x)");
  EXPECT_EQ(only(rules).search(egraph, 100).size(), 1u);
}

TEST(PatternRule, ElementwiseRulesDoNotMatchBroadcasts) {
  Graph graph;
  NodeId a = graph.addInput("a", f32({4, 4}));
  NodeId bias = graph.addInput("bias", f32({4}));
  graph.addOutput({graph.addNode(OpKind::Add, {{a}, {bias}})});
  EGraph egraph;
  seedEGraph(egraph, graph);
  EXPECT_TRUE(only(rule("comm: (ewadd ?x ?y) => (ewadd ?y ?x)")).search(egraph, 100).empty());
}

TEST(PatternRule, MultiPatternJoinsOnSharedVariablesAndSizesTheSplit) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({2, 4}));
  NodeId wa = graph.addWeight("wa", Tensor::splat(f32({4, 3}), 0.1));
  NodeId wb = graph.addWeight("wb", Tensor::splat(f32({4, 5}), 0.1));
  NodeId y = graph.addInput("y", f32({2, 4}));
  graph.addOutput({graph.addNode(OpKind::MatMul, {{x}, {wa}})});
  graph.addOutput({graph.addNode(OpKind::MatMul, {{x}, {wb}})});
  graph.addOutput({graph.addNode(OpKind::MatMul, {{y}, {wb}})}); // different left operand
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);

  RuleSet rules = rule("share: (matmul 0 ?a ?b) => (split_0 (split 1 (matmul 0 ?a (concat 1 2 ?b ?c)))) && "
                       "(matmul 0 ?a ?c) => (split_1 (split 1 (matmul 0 ?a (concat 1 2 ?b ?c))))");
  auto matches = only(rules).search(egraph, 100);
  // (x@wa, x@wb) and (x@wb, x@wa) share ?a; y@wb pairs with nothing.
  ASSERT_EQ(matches.size(), 2u);
  RuleApplication applied = only(rules).apply(egraph, matches[0]);
  ASSERT_TRUE(applied.typeChecked);
  egraph.rebuild();
  EXPECT_TRUE(classHas(egraph, seed.outputs[0], OpKind::Split));
  EXPECT_TRUE(classHas(egraph, seed.outputs[1], OpKind::Split));
  for (const ENode& node : egraph.eclass(seed.outputs[0]).nodes)
    if (node.op == OpKind::Split) {
      EXPECT_EQ(egraph.attributes().get(node.payload).getInts("split"), (Ints{3, 5}));
    }
  EXPECT_EQ(egraph.checkInvariants(), "");
}

TEST(PatternRule, VerificationCasesInstantiateTheLeftHandSide) {
  RuleSet rules = rule("fuse: (relu (conv2d 1 1 0 0 ?x ?w)) => (conv2d 1 1 0 2 ?x ?w)");
  auto cases = only(rules).verificationCases(1, 3);
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& [before, after] : cases) {
    EXPECT_EQ(before.inputNodes().size(), 2u);
    EXPECT_EQ(before.opCount(), 2u);
    EXPECT_EQ(before.node(before.outputs()[0].value.node).kind, OpKind::Relu);
    EXPECT_EQ(after.opCount(), 1u);
    EXPECT_EQ(after.node(after.outputs()[0].value.node).attrs.getInt("activation", 0), 2);
    EXPECT_EQ(after.node(after.inputNodes()[0]).outputTypes, before.node(before.inputNodes()[0]).outputTypes);
  }
}

TEST(PatternRule, NativeOpsBindAndSetAttributes) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({1, 4, 8, 8}));
  NodeId w = graph.addWeight("w", Tensor::splat(f32({6, 4, 3, 3}), 0.1));
  NodeId b = graph.addWeight("b", Tensor::splat(f32({6}), 0.1));
  NodeId conv = graph.addNode(OpKind::Conv, {{x}, {w}, {b}}, {{"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}});
  NodeId fusedAlready = graph.addNode(OpKind::Conv, {{x}, {w}, {b}}, {{"activation", int64_t{1}}});
  graph.addOutput({graph.addNode(OpKind::Relu, {{conv}})});
  graph.addOutput({graph.addNode(OpKind::Relu, {{fusedAlready}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);
  RuleSet rules = rule("fuse [fusion]: (Relu (Conv@c{activation=0} ?x ?w ?b)) => (Conv@c{activation=2} ?x ?w ?b)");
  auto matches = only(rules).search(egraph, 100);
  ASSERT_EQ(matches.size(), 1u); // the sigmoid-fused conv does not satisfy activation=0
  ASSERT_TRUE(only(rules).apply(egraph, matches[0]).changed);
  egraph.rebuild();
  bool found = false;
  for (const ENode& node : egraph.eclass(seed.outputs[0]).nodes) {
    if (node.op != OpKind::Conv) continue;
    const Attributes& attrs = egraph.attributes().get(node.payload);
    EXPECT_EQ(attrs.getInt("activation", 0), 2);
    EXPECT_EQ(attrs.getInts("strides"), (Ints{2, 2}));
    EXPECT_EQ(attrs.getInts("pads"), (Ints{1, 1, 1, 1}));
    found = true;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(only(rules).describe(), "(Relu (Conv@c{activation=0} ?x ?w ?b)) => (Conv@c{activation=2} ?x ?w ?b)");
}

TEST(PatternRule, NativeOpErrors) {
  auto errorOf = [](const std::string& text) {
    try {
      rule(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(errorOf("r: (Relu ?x ?y) => ?x"), "test.rules: line 1, column 4: 'Relu' takes 1 inputs, got 2");
  EXPECT_EQ(errorOf("r: (Relu ?x) => (Conv@c ?x ?x)"), "test.rules: line 1, column 17: attribute variable @c does not appear on the left-hand side");
  EXPECT_EQ(errorOf("r: (relu@a ?x) => ?x"), "test.rules: line 1, column 4: only IR ops (capitalised, e.g. Conv) take attributes; 'relu' is a TENSAT op");
  EXPECT_EQ(errorOf("r: (Conv{strides=} ?x ?w) => ?x"), "test.rules: line 1, column 18: expected an integer");
}

TEST(PatternRule, ConstantsMatchOneElementWeightsByValue) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({2, 4}));
  NodeId three = graph.addWeight("three", Tensor::fromFloats({1}, {3.0f}));
  NodeId four = graph.addWeight("four", Tensor::fromFloats({}, {4.0f}));
  NodeId threes = graph.addWeight("threes", Tensor::splat(f32({2, 4}), 3.0)); // not one element
  NodeId y = graph.addInput("y", f32({1}));                                     // not a weight
  for (NodeId operand : {three, four, threes, y}) graph.addOutput({graph.addNode(OpKind::Add, {{x}, {operand}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);

  RuleSet literal = rule("r: (Add ?x #3) => (Sub ?x #-3)");
  auto matches = only(literal).search(egraph, 100);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].roots[0], egraph.find(seed.outputs[0]));
  RuleApplication applied = only(literal).apply(egraph, matches[0]);
  ASSERT_TRUE(applied.typeChecked);
  egraph.rebuild();
  bool built = false;
  for (const ENode& node : egraph.eclass(seed.outputs[0]).nodes) {
    if (node.op != OpKind::Sub) continue;
    for (const ENode& operand : egraph.eclass(node.children[1]).nodes) {
      if (operand.op != OpKind::Weight) continue;
      const Node& leaf = egraph.leaf(operand.payload).node;
      built = leaf.weight->numel() == 1 && leaf.weight->floatAt(0) == -3.0f;
    }
  }
  EXPECT_TRUE(built);

  RuleSet anyScalar = rule("r: (Add ?x #?s) => (Add #?s ?x)");
  auto scalars = only(anyScalar).search(egraph, 100);
  std::vector<EClassId> roots;
  for (const RuleMatch& m : scalars) roots.push_back(egraph.find(m.roots[0]));
  std::sort(roots.begin(), roots.end());
  std::vector<EClassId> expected = {egraph.find(seed.outputs[0]), egraph.find(seed.outputs[1])};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(roots, expected); // the splat of eight elements and the input do not bind #?s
}

// `$?b` binds only a value computed from weights alone: a bias or a folded weight, never an
// activation (which is what kept merging "biases" from concatenating activations on NasRNN).
TEST(PatternRule, WeightOnlyVariablesBindWeightsAndWhatIsComputedFromThem) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({2, 4}));
  NodeId bias = graph.addWeight("bias", Tensor::splat(f32({4}), 0.5));
  NodeId scaled = graph.addNode(OpKind::Mul, {{bias}, {bias}}); // weights only
  NodeId h = graph.addInput("h", f32({2, 4}));                  // an activation
  for (NodeId operand : {bias, scaled, h}) graph.addOutput({graph.addNode(OpKind::Add, {{x}, {operand}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);
  RuleSet weights = rule("r: (Add ?x $?b) => (Add $?b ?x)");
  std::vector<EClassId> roots;
  for (const RuleMatch& m : only(weights).search(egraph, 100)) roots.push_back(egraph.find(m.roots[0]));
  std::sort(roots.begin(), roots.end());
  std::vector<EClassId> expected = {egraph.find(seed.outputs[0]), egraph.find(seed.outputs[1])};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(roots, expected); // the input h does not bind $?b
  EXPECT_EQ(only(rule("r: (Add ?x ?b) => (Add ?b ?x)")).search(egraph, 100).size(), 3u);
  EXPECT_EQ(parsePattern("(Add ?x $?b)", 1, 1).toString(), "(Add ?x $?b)");
}

// Constants match within float rounding relative to their value: epsilons a million apart differ.
TEST(PatternRule, ConstantsMatchRelativeToTheirValue) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({4}));
  NodeId eps = graph.addWeight("eps", Tensor::fromFloats({}, {1e-6f}));
  NodeId rootTwo = graph.addWeight("root_two", Tensor::fromFloats({}, {1.41421356f}));
  graph.addOutput({graph.addNode(OpKind::Add, {{x}, {eps}})});
  graph.addOutput({graph.addNode(OpKind::Div, {{x}, {rootTwo}})});
  EGraph egraph;
  seedEGraph(egraph, graph);
  auto count = [&](const char* text) { return only(rule(text)).search(egraph, 100).size(); };
  EXPECT_EQ(count("r: (Add ?x #1e-06) => ?x"), 1u);
  EXPECT_EQ(count("r: (Add ?x #1e-12) => ?x"), 0u);
  EXPECT_EQ(count("r: (Add ?x #0) => ?x"), 0u);
  EXPECT_EQ(count("r: (Div ?x #1.4142135) => ?x"), 1u);
  EXPECT_EQ(count("r: (Div ?x #1.414) => ?x"), 0u);
}

// Products of one input merged into one over concatenated weights: the split's sizes come from
// the native Concat's operands along its axis.
TEST(PatternRule, NativeSplitIsSizedByANativeConcat) {
  Graph graph;
  NodeId x = graph.addInput("x", f32({1, 5, 8}));
  NodeId w1 = graph.addWeight("w1", Tensor::splat(f32({8, 6}), 0.1));
  NodeId w2 = graph.addWeight("w2", Tensor::splat(f32({8, 10}), 0.2));
  graph.addOutput({graph.addNode(OpKind::MatMul, {{x}, {w1}})});
  graph.addOutput({graph.addNode(OpKind::MatMul, {{x}, {w2}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, graph);
  RuleSet rules = rule("m [multi]: (MatMul{activation=0} ?x ?w1) => (split_0 (split -1 (MatMul ?x (Concat{axis=-1} ?w1 ?w2)))) && "
                       "(MatMul{activation=0} ?x ?w2) => (split_1 (split -1 (MatMul ?x (Concat{axis=-1} ?w1 ?w2))))");
  auto matches = only(rules).search(egraph, 100);
  ASSERT_EQ(matches.size(), 2u); // both orders; each builds its own concat
  RuleMatch ordered = matches[0];
  for (const RuleMatch& m : matches)
    if (egraph.find(m.roots[0]) == egraph.find(seed.outputs[0])) ordered = m;
  ASSERT_TRUE(only(rules).apply(egraph, ordered).typeChecked);
  egraph.rebuild();
  bool sized = false;
  for (const ENode& node : egraph.eclass(seed.outputs[1]).nodes) {
    if (node.op != OpKind::Split) continue;
    const Attributes& attrs = egraph.attributes().get(node.payload);
    sized = attrs.getInt("axis", -1) == 2 && attrs.getInts("split") == Ints{6, 10} && node.port == 1;
  }
  EXPECT_TRUE(sized);
}
