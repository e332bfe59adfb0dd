#include "search/taso/GraphRewriter.h"
#include "search/taso/SeenGraphs.h"

#include "ir/GraphHash.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleSet.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

Graph convRelu() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w}}, {}, "conv")}}, {}, "relu")}, "y");
  return g;
}

Graph reluChain(int length) {
  Graph g;
  NodeId value = g.addInput("x", f32({4, 4}));
  for (int i = 0; i < length; ++i) value = g.addNode(OpKind::Relu, {{value}});
  g.addOutput({value}, "y");
  return g;
}

RuleSet rules(const std::string& text) { return parseRules(text, "test.rules", RuleFileFormat::Tessera); }

const auto keepAll = [](const Graph&) { return true; };
} // namespace

TEST(GraphRewriter, AppliesOneMatchAndRecordsWhoMadeTheNewNodes) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  Graph original = convRelu();
  GraphRewriter rewriter(original, {});
  std::vector<RuleMatch> matches = rewriter.matches(fuse, 100);
  ASSERT_EQ(matches.size(), 1u);

  std::optional<RewrittenGraph> fused = rewriter.rewrite(fuse, matches[0], 7, keepAll);
  ASSERT_TRUE(fused);
  EXPECT_EQ(fused->graph.opCount(), 1u);
  EXPECT_EQ(fused->newNodes, 1u);
  ASSERT_EQ(fused->origins.size(), fused->graph.size());
  for (NodeId id = 0; id < fused->graph.size(); ++id) {
    const Node& node = fused->graph.node(id);
    if (node.kind == OpKind::Conv) {
      EXPECT_EQ(node.attrs.getInt("activation", 0), 2);
      EXPECT_EQ(fused->origins[id].rule, "fuse-conv-relu");
      EXPECT_EQ(fused->origins[id].step, 7);
    } else {
      EXPECT_TRUE(fused->origins[id].rule.empty()) << opName(node.kind);
    }
  }

  // The e-graph is back to the original: the same match rewrites to the same graph again.
  EXPECT_EQ(rewriter.matches(fuse, 100).size(), 1u);
  std::optional<RewrittenGraph> again = rewriter.rewrite(fuse, matches[0], 7, keepAll);
  ASSERT_TRUE(again);
  EXPECT_TRUE(structurallyEqual(again->graph, fused->graph));
}

TEST(GraphRewriter, SurvivingNodesKeepTheirOrigins) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  Graph original = convRelu();
  original.addOutput({*original.findNode("conv")}, "side"); // keeps the unfused conv alive
  std::vector<NodeOrigin> origins(original.size());
  origins[*original.findNode("conv")] = NodeOrigin{"earlier-rule", 3};
  GraphRewriter rewriter(original, origins);
  std::optional<RewrittenGraph> fused = rewriter.rewrite(fuse, rewriter.matches(fuse, 100).at(0), 4, keepAll);
  ASSERT_TRUE(fused);
  int inherited = 0, created = 0;
  for (NodeId id = 0; id < fused->graph.size(); ++id) {
    if (fused->graph.node(id).kind != OpKind::Conv) continue;
    bool fusedConv = fused->graph.node(id).attrs.getInt("activation", 0) == 2;
    const NodeOrigin& origin = fused->origins[id];
    if (fusedConv) created += origin.rule == "fuse-conv-relu" && origin.step == 4;
    else inherited += origin.rule == "earlier-rule" && origin.step == 3;
  }
  EXPECT_EQ(inherited, 1);
  EXPECT_EQ(created, 1);
}

TEST(GraphRewriter, PrefersWhatTheRuleRewroteToOverTheReplacedNode) {
  // relu(relu(x)) => relu(x): the matched class now also holds a node that uses itself.
  RuleSet pack = rules("idempotent: (Relu (Relu ?x)) => (Relu ?x)\n");
  GraphRewriter rewriter(reluChain(2), {});
  std::vector<RuleMatch> matches = rewriter.matches(pack.rule(0), 100);
  ASSERT_EQ(matches.size(), 1u);
  std::optional<RewrittenGraph> shorter = rewriter.rewrite(pack.rule(0), matches[0], 0, keepAll);
  ASSERT_TRUE(shorter);
  EXPECT_EQ(shorter->graph.opCount(), 1u);
  EXPECT_EQ(shorter->newNodes, 0u); // relu(x) was already there
}

TEST(GraphRewriter, RejectsARewriteWhoseNewNodesFormACycle) {
  // relu(x) => relu(relu(x)) puts relu(class) into the class itself: no acyclic graph uses it.
  RuleSet pack = rules("grow: (Relu ?x) => (Relu (Relu ?x))\n");
  GraphRewriter rewriter(reluChain(1), {});
  std::vector<RuleMatch> matches = rewriter.matches(pack.rule(0), 100);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_FALSE(rewriter.rewrite(pack.rule(0), matches[0], 0, keepAll));
  // The rejected attempt left nothing behind.
  EXPECT_EQ(rewriter.matches(pack.rule(0), 100).size(), 1u);
}

TEST(GraphRewriter, KeepDecidesBeforeOriginsAreComputed) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  GraphRewriter rewriter(convRelu(), {});
  size_t seenOps = 0;
  auto decline = [&](const Graph& graph) {
    seenOps = graph.opCount();
    return false;
  };
  EXPECT_FALSE(rewriter.rewrite(fuse, rewriter.matches(fuse, 100).at(0), 0, decline));
  EXPECT_EQ(seenOps, 1u);
}

TEST(SeenGraphs, DropsOnlyStructurallyEqualGraphs) {
  SeenGraphs seen;
  auto a = std::make_shared<const Graph>(reluChain(2));
  auto sameAsA = std::make_shared<const Graph>(reluChain(2));
  auto b = std::make_shared<const Graph>(reluChain(3));
  EXPECT_TRUE(seen.insert(a, structuralHash(*a)));
  EXPECT_TRUE(seen.contains(*sameAsA, structuralHash(*sameAsA)));
  EXPECT_FALSE(seen.insert(sameAsA, structuralHash(*sameAsA)));
  // A forced hash collision: b differs from a, so it must be kept.
  EXPECT_FALSE(seen.contains(*b, structuralHash(*a)));
  EXPECT_TRUE(seen.insert(b, structuralHash(*a)));
  EXPECT_EQ(seen.size(), 2u);
  seen.erase(a.get(), structuralHash(*a));
  EXPECT_FALSE(seen.contains(*sameAsA, structuralHash(*a)));
  EXPECT_TRUE(seen.contains(*b, structuralHash(*a)));
}
