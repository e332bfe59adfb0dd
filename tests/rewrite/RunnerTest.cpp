#include "egraph/GraphConversion.h"
#include "rewrite/CycleFilter.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleSet.h"
#include "rewrite/Runner.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// ((a b) c) d with square matrices: associativity and commutativity of ewadd around it.
Graph chain(int length) {
  Graph g;
  ValueRef acc = {g.addInput("m0", f32({4, 4}))};
  for (int i = 1; i < length; ++i) acc = {g.addNode(OpKind::MatMul, {acc, {g.addInput("m" + std::to_string(i), f32({4, 4}))}})};
  g.addOutput(acc);
  return g;
}

RuleSet assoc() {
  return parseRules("assoc-l: (matmul 0 (matmul 0 ?a ?b) ?c) => (matmul 0 ?a (matmul 0 ?b ?c))\n"
                    "assoc-r: (matmul 0 ?a (matmul 0 ?b ?c)) => (matmul 0 (matmul 0 ?a ?b) ?c)\n",
                    "assoc.rules", RuleFileFormat::Tessera);
}

std::vector<const Rule*> all(const RuleSet& rules) {
  std::vector<const Rule*> out;
  for (const auto& rule : rules.rules()) out.push_back(rule.get());
  return out;
}
} // namespace

TEST(Runner, SaturatesAssociativityWithCatalanManyBracketings) {
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, chain(4));
  RuleSet rules = assoc();
  auto list = all(rules);
  RunReport report = runSaturation(egraph, seed.outputs, list, RunnerLimits{});
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
  // The root class holds every bracketing of m0 m1 m2 m3 at the top: 3 split points.
  EXPECT_EQ(egraph.eclass(seed.outputs[0]).nodes.size(), 3u);
  // Sub-products m_i..m_j for j > i: 6 classes of products plus 4 inputs.
  EXPECT_EQ(egraph.numClasses(), 10u);
  EXPECT_GT(report.rulesApplied["assoc-l"], 0u);
  EXPECT_EQ(egraph.checkInvariants(), "");
  ASSERT_FALSE(report.iterations.empty());
  EXPECT_EQ(report.iterations.back().applied, 0u);
}

TEST(Runner, HonoursNodeAndIterationLimitsAndStopRequests) {
  RuleSet rules = assoc();
  auto list = all(rules);
  {
    EGraph egraph;
    SeededGraph seed = seedEGraph(egraph, chain(9));
    RunnerLimits limits;
    limits.nodeLimit = 40;
    RunReport report = runSaturation(egraph, seed.outputs, list, limits);
    EXPECT_EQ(report.stopReason, StopReason::NodeLimit);
    EXPECT_LE(egraph.numNodes(), 40u + 4u); // at most one rule application's worth of overshoot
  }
  {
    EGraph egraph;
    SeededGraph seed = seedEGraph(egraph, chain(9));
    RunnerLimits limits;
    limits.iterationLimit = 2;
    RunReport report = runSaturation(egraph, seed.outputs, list, limits);
    EXPECT_EQ(report.stopReason, StopReason::IterationLimit);
    EXPECT_EQ(report.iterations.size(), 2u);
  }
  {
    EGraph egraph;
    SeededGraph seed = seedEGraph(egraph, chain(9));
    RunnerHooks hooks;
    int applied = 0;
    hooks.ruleApplied = [&](const Rule&, const RuleMatch&, const RuleApplication&) { ++applied; };
    hooks.stopRequested = [&] { return applied > 0; };
    RunReport report = runSaturation(egraph, seed.outputs, list, RunnerLimits{}, hooks);
    EXPECT_EQ(report.stopReason, StopReason::StoppedByUser);
    EXPECT_EQ(report.iterations.size(), 1u);
  }
}

TEST(Runner, MultiPatternRulesRunOnlyInTheFirstIterations) {
  Graph g;
  NodeId x = g.addInput("x", f32({2, 4}));
  g.addOutput({g.addNode(OpKind::Relu, {{x}})});
  g.addOutput({g.addNode(OpKind::Relu, {{g.addInput("y", f32({2, 4}))}})});
  RuleSet rules = parseRules("pair: (relu ?a) => (split_0 (split 0 (relu (concat 0 2 ?a ?b)))) && "
                             "(relu ?b) => (split_1 (split 0 (relu (concat 0 2 ?a ?b))))",
                             "multi.rules", RuleFileFormat::Tessera);
  auto list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  RunnerLimits limits;
  limits.multiIterations = 1;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  EXPECT_EQ(report.rulesApplied["pair"], 2u); // (x,y) and (y,x), once each, in iteration 0 only
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
}

TEST(CycleFilter, FiltersTheNewNodeClosingACycleNeverAnOriginal) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  NodeId r = g.addNode(OpKind::Relu, {{x}});
  g.addOutput({g.addNode(OpKind::Tanh, {{r}})});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  EClassId relu = egraph.classesWithOp(OpKind::Relu)[0];
  // Pretend relu(x) == sigmoid(tanh(relu(x))): the new sigmoid node closes a cycle.
  EClassId sigmoid = *egraph.add(OpKind::Sigmoid, {}, {seed.outputs[0]});
  egraph.merge(relu, sigmoid);
  egraph.rebuild();
  EXPECT_EQ(filterCycles(egraph, seed.outputs), 1u);
  EXPECT_EQ(egraph.numFiltered(), 1u);
  for (const ENode& node : egraph.eclass(relu).nodes)
    EXPECT_EQ(egraph.isFiltered(node), node.op == OpKind::Sigmoid) << opName(node.op);
  EXPECT_EQ(filterCycles(egraph, seed.outputs), 0u); // acyclic now
  // Undone by rollback like everything else.
  EGraph other;
  SeededGraph seed2 = seedEGraph(other, g);
  auto cp = other.checkpoint();
  EClassId s2 = *other.add(OpKind::Sigmoid, {}, {seed2.outputs[0]});
  other.merge(other.classesWithOp(OpKind::Relu)[0], s2);
  other.rebuild();
  EXPECT_EQ(filterCycles(other, seed2.outputs), 1u);
  other.rollback(cp);
  EXPECT_EQ(other.numFiltered(), 0u);
}

TEST(Runner, BackoffBansAnExplosiveRuleAndStillSaturates) {
  // A 7-matrix chain: associativity matches more than the limit, so it is banned, its matches
  // dropped, and after the ban is lifted the run still reaches the same saturated e-graph.
  EGraph plain, scheduled;
  SeededGraph plainSeed = seedEGraph(plain, chain(7)), scheduledSeed = seedEGraph(scheduled, chain(7));
  RuleSet rules = assoc();
  auto list = all(rules);
  RunnerLimits limits;
  limits.iterationLimit = 100;
  RunReport simple = runSaturation(plain, plainSeed.outputs, list, limits);
  limits.backoffMatchLimit = 4;
  limits.backoffBanLength = 1;
  RunReport backoff = runSaturation(scheduled, scheduledSeed.outputs, list, limits);
  ASSERT_EQ(simple.stopReason, StopReason::Saturated);
  ASSERT_EQ(backoff.stopReason, StopReason::Saturated);
  size_t banned = 0;
  for (const IterationReport& it : backoff.iterations) banned += it.banned;
  EXPECT_GT(banned, 0u);
  EXPECT_GT(backoff.iterations.size(), simple.iterations.size());
  EXPECT_EQ(scheduled.numClasses(), plain.numClasses());
  EXPECT_EQ(scheduled.numNodes(), plain.numNodes());
}

namespace {
// `count` relus of independent inputs: a symmetric relu merge joins every pair of them.
Graph manyRelus(int count) {
  Graph g;
  for (int i = 0; i < count; ++i) g.addOutput({g.addNode(OpKind::Relu, {{g.addInput("x" + std::to_string(i), f32({2, 4}))}})});
  return g;
}

RuleSet reluMerge() {
  return parseRules("merge [multi,symmetric]: (relu ?a) => (split_0 (split 0 (relu (concat 0 2 ?a ?b)))) && "
                    "(relu ?b) => (split_1 (split 0 (relu (concat 0 2 ?a ?b))))",
                    "multi.rules", RuleFileFormat::Tessera);
}
} // namespace

TEST(Runner, ExplodingMultiPatternRulesStopAtTheNodeBudget) {
  // 600 relus make 179,700 pairs, each adding four e-nodes: far past the budget, which stops the
  // join as it goes (the pairs are never all built).
  RuleSet rules = reluMerge();
  auto list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, manyRelus(600));
  RunnerLimits limits;
  limits.nodeLimit = 3000;
  limits.backoffMatchLimit = 1000;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  EXPECT_EQ(report.stopReason, StopReason::NodeLimit);
  EXPECT_GE(egraph.numNodes(), 3000u);
  EXPECT_LE(egraph.numNodes(), 3000u + 4u);
  ASSERT_EQ(report.iterations.size(), 1u);
  EXPECT_GT(report.iterations[0].multiApplied, 100u);
  EXPECT_LT(report.iterations[0].multiMatches, 1000u);
  EXPECT_EQ(report.iterations[0].banned, 0u); // the scheduler never sees multi-pattern rules
}

TEST(Runner, MultiPatternRulesBypassTheBackoffSchedulerAndTheMatchCap) {
  RuleSet rules = reluMerge();
  auto list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, manyRelus(6));
  RunnerLimits limits;
  limits.backoffMatchLimit = 1; // would ban any single-pattern rule with two matches
  limits.matchLimitPerRule = 2;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  EXPECT_EQ(report.rulesApplied["merge"], 15u); // 6 choose 2, each unordered pair once
  EXPECT_EQ(report.stopReason, StopReason::Saturated);
}

TEST(Runner, ReportsLiveAndFilteredENodes) {
  // relu(a) => relu(relu(a)) puts relu(C) into C itself: a cycle the filter sets aside.
  Graph g;
  NodeId x = g.addInput("x", f32({4, 4}));
  g.addOutput({g.addNode(OpKind::Relu, {{x}})});
  RuleSet rules = parseRules("grow: (relu ?a) => (relu (relu ?a))", "grow.rules", RuleFileFormat::Tessera);
  auto list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  RunnerLimits limits;
  limits.iterationLimit = 3;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  ASSERT_FALSE(report.iterations.empty());
  const IterationReport& last = report.iterations.back();
  EXPECT_EQ(last.enodes, egraph.numNodes());
  EXPECT_EQ(last.filteredEnodes, egraph.numFiltered());
  EXPECT_GT(last.filteredEnodes, 0u);
  EXPECT_EQ(last.liveEnodes() + last.filteredEnodes, last.enodes);
}

TEST(Runner, TensatQkvMergeFiresOnABertLikeGraph) {
  // Two attention-like layers: q, k, v projections of each layer's input, the next layer's input
  // made from the last matmul (as TENSAT's bert.rs chains them).
  Graph g;
  ValueRef input = {g.addInput("x", f32({8, 16}))};
  for (int layer = 0; layer < 2; ++layer) {
    auto weight = [&](const char* name) {
      return ValueRef{g.addWeight(std::string(name) + std::to_string(layer), Tensor::splat(f32({16, 16}), 0.01))};
    };
    ValueRef q = {g.addNode(OpKind::MatMul, {input, weight("wq")})};
    ValueRef k = {g.addNode(OpKind::MatMul, {input, weight("wk")})};
    ValueRef v = {g.addNode(OpKind::MatMul, {input, weight("wv")})};
    ValueRef scores = {g.addNode(OpKind::MatMul, {q, {g.addNode(OpKind::Transpose, {k}, {{"perm", std::vector<int64_t>{1, 0}}})}})};
    input = {g.addNode(OpKind::MatMul, {scores, v})};
  }
  g.addOutput(input);
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  RunnerLimits limits; // TENSAT's: multi-pattern rules first, egg's backoff scheduler
  limits.backoffMatchLimit = 1000;
  limits.multiIterations = 2;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  // Each layer's three projections pair up three ways, once each: at least those six merges.
  EXPECT_GE(report.rulesApplied["tensat-m05"], 6u);
  EXPECT_EQ(egraph.checkInvariants(), "");
}

TEST(Runner, LateMultiPatternIterationsStillComeBeforeTheIterationLimit) {
  // Associativity on a long chain does not settle in four iterations; the late schedule still
  // gives the relu merge its k_multi iterations at the end.
  Graph g = chain(9);
  g.addOutput({g.addNode(OpKind::Relu, {{g.addInput("x", f32({2, 4}))}})});
  g.addOutput({g.addNode(OpKind::Relu, {{g.addInput("y", f32({2, 4}))}})});
  RuleSet rules = assoc();
  rules.append(reluMerge());
  auto list = all(rules);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  RunnerLimits limits;
  limits.iterationLimit = 4;
  limits.multiSchedule = RunnerLimits::MultiSchedule::Late;
  limits.multiIterations = 1;
  RunReport report = runSaturation(egraph, seed.outputs, list, limits);
  EXPECT_EQ(report.stopReason, StopReason::IterationLimit);
  ASSERT_EQ(report.iterations.size(), 4u);
  EXPECT_EQ(report.iterations[2].multiApplied, 0u);
  EXPECT_EQ(report.iterations[3].multiApplied, 1u);
}
