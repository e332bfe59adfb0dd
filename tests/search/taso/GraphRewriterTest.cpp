#include "search/taso/GraphRewriter.h"
#include "search/taso/SeenGraphs.h"

#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleSet.h"

#include <gtest/gtest.h>

#include <set>

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

const auto buildAll = [](const RewritePreview&) { return true; };
const auto keepAll = [](const Graph&) { return true; };

class GraphRewriterTest : public ::testing::Test {
protected:
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
};
} // namespace

TEST_F(GraphRewriterTest, AppliesOneMatchAndRecordsWhoMadeTheNewNodes) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  Graph original = convRelu();
  GraphRewriter rewriter(original, {}, *cost);
  std::vector<RuleMatch> matches = rewriter.matches(fuse, 100);
  ASSERT_EQ(matches.size(), 1u);

  std::optional<RewrittenGraph> fused = rewriter.rewrite(fuse, matches[0], 7, buildAll, keepAll);
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
  std::optional<RewrittenGraph> again = rewriter.rewrite(fuse, matches[0], 7, buildAll, keepAll);
  ASSERT_TRUE(again);
  EXPECT_TRUE(structurallyEqual(again->graph, fused->graph));
}

TEST_F(GraphRewriterTest, SurvivingNodesKeepTheirOrigins) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  Graph original = convRelu();
  original.addOutput({*original.findNode("conv")}, "side"); // keeps the unfused conv alive
  std::vector<NodeOrigin> origins(original.size());
  origins[*original.findNode("conv")] = NodeOrigin{"earlier-rule", 3};
  GraphRewriter rewriter(original, origins, *cost);
  std::optional<RewrittenGraph> fused = rewriter.rewrite(fuse, rewriter.matches(fuse, 100).at(0), 4, buildAll, keepAll);
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

TEST_F(GraphRewriterTest, PrefersWhatTheRuleRewroteToOverTheReplacedNode) {
  // relu(relu(x)) => relu(x): the matched class now also holds a node that uses itself.
  RuleSet pack = rules("idempotent: (Relu (Relu ?x)) => (Relu ?x)\n");
  GraphRewriter rewriter(reluChain(2), {}, *cost);
  std::vector<RuleMatch> matches = rewriter.matches(pack.rule(0), 100);
  ASSERT_EQ(matches.size(), 1u);
  std::optional<RewrittenGraph> shorter = rewriter.rewrite(pack.rule(0), matches[0], 0, buildAll, keepAll);
  ASSERT_TRUE(shorter);
  EXPECT_EQ(shorter->graph.opCount(), 1u);
  EXPECT_EQ(shorter->newNodes, 0u); // relu(x) was already there
}

TEST_F(GraphRewriterTest, RejectsARewriteWhoseNewNodesFormACycle) {
  // relu(x) => relu(relu(x)) puts relu(class) into the class itself: no acyclic graph uses it.
  RuleSet pack = rules("grow: (Relu ?x) => (Relu (Relu ?x))\n");
  GraphRewriter rewriter(reluChain(1), {}, *cost);
  std::vector<RuleMatch> matches = rewriter.matches(pack.rule(0), 100);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_FALSE(rewriter.rewrite(pack.rule(0), matches[0], 0, buildAll, keepAll));
  // The rejected attempt left nothing behind.
  EXPECT_EQ(rewriter.matches(pack.rule(0), 100).size(), 1u);
}

// The preview prices a rewrite without building it; the search trusts it, so it must agree with
// graphCost on the built graph, including free ops on weights and multi-output splits.
TEST_F(GraphRewriterTest, PreviewAgreesWithTheBuiltGraph) {
  RuleSet pack = defaultRules();
  Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/squeezenet.onnx");
  GraphRewriter rewriter(model, {}, *cost);
  size_t checked = 0;
  std::set<std::string> rulesSeen;
  for (const auto& rule : pack.rules()) {
    for (const RuleMatch& match : rewriter.matches(*rule, 50)) {
      RewritePreview preview;
      auto remember = [&](const RewritePreview& p) {
        preview = p;
        return true;
      };
      std::optional<RewrittenGraph> rewritten = rewriter.rewrite(*rule, match, 0, remember, keepAll);
      if (!rewritten) continue;
      ++checked;
      rulesSeen.insert(rule->name());
      EXPECT_EQ(preview.ops, rewritten->graph.opCount()) << rule->name();
      EXPECT_NEAR(preview.costMs, graphCost(rewritten->graph, *cost).totalMs, 1e-12) << rule->name();
      EXPECT_EQ(rewritten->costMs, preview.costMs);
    }
  }
  EXPECT_GT(checked, 20u);
  EXPECT_GT(rulesSeen.size(), 3u);
}

TEST_F(GraphRewriterTest, DecliningThePreviewBuildsNothing) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  GraphRewriter rewriter(convRelu(), {}, *cost);
  bool built = false;
  auto decline = [](const RewritePreview& preview) { return preview.ops > 1; };
  auto noteBuilt = [&](const Graph&) { return built = true; };
  EXPECT_FALSE(rewriter.rewrite(fuse, rewriter.matches(fuse, 100).at(0), 0, decline, noteBuilt));
  EXPECT_FALSE(built);
}

TEST_F(GraphRewriterTest, KeepDecidesBeforeOriginsAreComputed) {
  RuleSet pack = defaultRules();
  const Rule& fuse = *pack.find("fuse-conv-relu");
  GraphRewriter rewriter(convRelu(), {}, *cost);
  size_t seenOps = 0;
  auto decline = [&](const Graph& graph) {
    seenOps = graph.opCount();
    return false;
  };
  EXPECT_FALSE(rewriter.rewrite(fuse, rewriter.matches(fuse, 100).at(0), 0, buildAll, decline));
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
