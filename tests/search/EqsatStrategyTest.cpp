#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "interp/Verify.h"
#include "rewrite/DefaultRules.h"
#include "search/EqsatOptimizer.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

// Two 1x1 convs of one input, each followed by relu (Inception-style branches): fusion and the
// enlarge/concat rules both apply.
Graph branches() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}});
  NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}})}});
  g.addOutput({g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}})}, "y");
  return g;
}

std::vector<const Rule*> all(const RuleSet& rules) {
  std::vector<const Rule*> out;
  for (const auto& rule : rules.rules()) out.push_back(rule.get());
  return out;
}
} // namespace

TEST(EqsatOptimizer, FindsACheaperVerifiedGraph) {
  RuleSet rules = defaultRules();
  auto list = all(rules);
  auto cost = makeCostModel("analytic:h200");
  Graph original = branches();
  for (const char* method : {"tree", "ocf", "dag", "ilp"}) {
    OptimizeOptions options;
    options.extractMethod = method;
    options.limits.nodeLimit = 5000;
    OptimizeResult result = optimizeEqsat(original, list, *cost, options);
    EXPECT_TRUE(result.improved) << method;
    EXPECT_GT(result.speedupPct, 0.0) << method;
    EXPECT_LT(result.optimized.opCount(), original.opCount()) << method;
    EXPECT_TRUE(result.verificationRun);
    EXPECT_TRUE(result.verified) << method << ": " << result.verifyProblem;
    EXPECT_NEAR(result.optimizedCostMs, graphCost(result.optimized, *cost).totalMs, 1e-12);
    EXPECT_GT(result.run.rulesApplied["fuse-conv-relu"] + result.run.rulesApplied["tensat-s063"], 0u);
  }
}

TEST(EqsatOptimizer, ReturnsTheOriginalWhenNothingIsCheaper) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  g.addOutput({g.addNode(OpKind::Exp, {{x}})}, "y");
  RuleSet rules = defaultRules();
  auto list = all(rules);
  auto cost = makeCostModel("analytic:h200");
  OptimizeResult result = optimizeEqsat(g, list, *cost, OptimizeOptions{});
  EXPECT_FALSE(result.improved);
  EXPECT_EQ(result.speedupPct, 0.0);
  EXPECT_EQ(result.run.stopReason, StopReason::Saturated);
  EXPECT_TRUE(result.verified);
}
