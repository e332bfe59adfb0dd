#include "rl/RewriteEnvironment.h"

#include "RlTestGraphs.h"

#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "search/taso/GraphRewriter.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessera;
using namespace tessera::test;

namespace {

class RewriteEnvironmentTest : public ::testing::Test {
protected:
  RewriteEnvironment environment(RewriteEnvironmentOptions options = {}) { return RewriteEnvironment(pack.list, *cost, std::move(options)); }

  RulePack pack;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
};

} // namespace

TEST_F(RewriteEnvironmentTest, CandidatesAreDistinctRewritesListedCheapestFirst) {
  RewriteEnvironment env = environment();
  env.reset(smallModel());
  const auto& candidates = env.candidates();
  ASSERT_GE(candidates.size(), 3u);
  EXPECT_FALSE(env.done());
  for (size_t i = 0; i < candidates.size(); ++i) {
    const RewriteCandidate& c = candidates[i];
    const Graph& graph = env.candidateGraph(i);
    EXPECT_NEAR(c.costMs, graphCost(graph, *cost).totalMs, 1e-12) << i;
    EXPECT_EQ(c.ops, graph.opCount()) << i;
    EXPECT_FALSE(structurallyEqual(graph, env.graph())) << "candidate " << i << " is the current graph";
    EXPECT_FALSE(env.leadsBack(i)) << i;
    if (i > 0) {
      EXPECT_LE(candidates[i - 1].costMs, c.costMs) << i;
    }
    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(structurallyEqual(graph, env.candidateGraph(j))) << i << " repeats " << j;
    ASSERT_FALSE(c.location.empty()) << i;
    for (NodeId node : c.location) {
      ASSERT_LT(node, env.graph().size());
      OpKind kind = env.graph().node(node).kind;
      EXPECT_TRUE(kind != OpKind::Input && kind != OpKind::Weight) << i;
    }
  }
  EXPECT_EQ(env.stopAction(), candidates.size());
  EXPECT_GE(env.previewed(), candidates.size());
}

TEST_F(RewriteEnvironmentTest, EveryDistinctRewriteIsListedOnce) {
  // Without a cap, the candidates are exactly the distinct graphs all matches give, less the
  // current one: what deduplication by building every rewrite would list.
  RewriteEnvironmentOptions uncapped;
  uncapped.maxCandidates = 100000;
  RewriteEnvironment env = environment(uncapped);
  env.reset(smallModel());
  GraphSet seen;
  seen.insert(env.graph());
  for (size_t i = 0; i < env.candidates().size(); ++i) EXPECT_TRUE(seen.insert(env.candidateGraph(i))) << i;

  GraphSet all;
  all.insert(env.graph());
  GraphRewriter rewriter(env.graph(), env.origins(), *cost);
  for (const Rule* rule : pack.list)
    for (const RuleMatch& match : rewriter.matches(*rule, 10000)) {
      auto built = rewriter.rewrite(*rule, match, 0, [](const RewritePreview&) { return true; }, [](const Graph&) { return true; });
      if (built && built->graph.opCount() <= 2 * env.graph().opCount()) all.insert(built->graph);
    }
  EXPECT_EQ(all.size(), seen.size());
}

TEST_F(RewriteEnvironmentTest, AStepTakesTheCandidatesGraphAndItsOrigins) {
  RewriteEnvironment env = environment();
  env.reset(smallModel());
  const size_t action = 1;
  const Graph expected = env.candidateGraph(action);
  const std::string rule = env.rule(env.candidates()[action].ruleIndex).name();
  env.step(action);
  EXPECT_TRUE(structurallyEqual(env.graph(), expected));
  ASSERT_EQ(env.origins().size(), env.graph().size());
  size_t stamped = 0;
  for (const NodeOrigin& origin : env.origins())
    if (!origin.rule.empty()) {
      EXPECT_EQ(origin.rule, rule);
      EXPECT_EQ(origin.step, 0);
      ++stamped;
    }
  EXPECT_EQ(stamped, env.lastNewNodes());
  EXPECT_GT(stamped, 0u);
}

TEST_F(RewriteEnvironmentTest, LeadsBackFlagsExactlyTheCandidatesThatReturnToAnEarlierGraph) {
  // tensat-s024, (ewadd c (ewadd a b)) => (ewadd b (ewadd a c)), undoes itself: every other
  // state offers the way back.
  Graph sum;
  NodeId a = sum.addInput("a", f32({4, 4})), b = sum.addInput("b", f32({4, 4})), c = sum.addInput("c", f32({4, 4}));
  sum.addOutput({sum.addNode(OpKind::Add, {{c}, {sum.addNode(OpKind::Add, {{a}, {b}})}})}, "y");
  std::vector<const Rule*> selfInverse = pack.only({"tensat-s024"});
  RewriteEnvironment env(selfInverse, *cost, {});
  env.reset(sum);
  std::vector<Graph> earlier{env.graph()};
  size_t flagged = 0;
  for (int step = 0; step < 3 && !env.done(); ++step) {
    ASSERT_FALSE(env.candidates().empty());
    for (size_t i = 0; i < env.candidates().size(); ++i) {
      const bool returns = std::any_of(earlier.begin(), earlier.end(), [&](const Graph& g) { return structurallyEqual(env.candidateGraph(i), g); });
      EXPECT_EQ(env.leadsBack(i), returns) << "step " << step << " candidate " << i;
      flagged += returns;
    }
    env.step(0);
    earlier.push_back(env.graph());
  }
  EXPECT_GT(flagged, 0u);
}

TEST_F(RewriteEnvironmentTest, TheCapKeepsTheCheapestCandidates) {
  RewriteEnvironment all = environment();
  all.reset(smallModel());
  RewriteEnvironmentOptions capped;
  capped.maxCandidates = 2;
  RewriteEnvironment two = environment(capped);
  two.reset(smallModel());
  ASSERT_EQ(two.candidates().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(two.candidates()[i].costMs, all.candidates()[i].costMs);
    EXPECT_TRUE(structurallyEqual(two.candidateGraph(i), all.candidateGraph(i)));
  }
}

TEST_F(RewriteEnvironmentTest, RewardsArePercentagesOfTheInitialCostAndSumToTheSpeedup) {
  RewriteEnvironment env = environment();
  env.reset(smallModel());
  const double initial = env.initialCostMs();
  ASSERT_GT(initial, 0.0);
  double total = 0;
  int steps = 0;
  while (!env.done() && steps < 5) {
    const double before = env.costMs();
    const size_t action = env.candidates().size() - 1; // the costliest: rewards of both signs
    const double expected = 100.0 * (before - env.candidates()[action].costMs) / initial;
    StepOutcome outcome = env.step(action);
    EXPECT_NEAR(outcome.reward, expected, 1e-9);
    EXPECT_NEAR(env.costMs(), graphCost(env.graph(), *cost).totalMs, 1e-12);
    total += outcome.reward;
    ++steps;
  }
  EXPECT_EQ(env.steps(), steps);
  EXPECT_NEAR(total, 100.0 * (initial - env.costMs()) / initial, 1e-9);
}

TEST_F(RewriteEnvironmentTest, StopEndsTheEpisodeWithoutReward) {
  RewriteEnvironment env = environment();
  env.reset(smallModel());
  const double cost = env.costMs();
  StepOutcome outcome = env.step(env.stopAction());
  EXPECT_TRUE(outcome.done);
  EXPECT_TRUE(env.done());
  EXPECT_EQ(outcome.reward, 0.0);
  EXPECT_EQ(env.costMs(), cost);
  EXPECT_TRUE(env.candidates().empty());
}

TEST_F(RewriteEnvironmentTest, TheHorizonEndsTheEpisode) {
  RewriteEnvironmentOptions options;
  options.horizon = 2;
  RewriteEnvironment env = environment(options);
  env.reset(smallModel());
  EXPECT_FALSE(env.step(0).done);
  EXPECT_TRUE(env.step(0).done);
  EXPECT_TRUE(env.done());
  // A reset starts over.
  env.reset(smallModel());
  EXPECT_FALSE(env.done());
  EXPECT_EQ(env.steps(), 0);
}

TEST_F(RewriteEnvironmentTest, AModelWithNoApplicableRewriteIsDoneAtOnce) {
  RewriteEnvironment env = environment();
  env.reset(expChain(5));
  EXPECT_TRUE(env.done());
  EXPECT_TRUE(env.candidates().empty());
  EXPECT_EQ(env.observation().graph.nodes, 5);
}

TEST_F(RewriteEnvironmentTest, AModelWithAnOpaqueOpIsRewrittenAroundIt) {
  Graph g = pairedBranchesWithTail(2);
  NodeId a = g.outputs()[0].value.node;
  NodeId opaque = g.addOpaque(OpaqueOp{"", "MysteryOp", {}}, {{a}}, {f32({1, 8, 8, 8})}, "mystery");
  g.mutableOutputs()[0].value = {opaque, 0};
  RewriteEnvironment env = environment();
  env.reset(g);
  ASSERT_FALSE(env.done());
  while (!env.done()) env.step(0);
  EXPECT_LE(env.graph().opCount(), 2 * g.opCount());
}

TEST_F(RewriteEnvironmentTest, RulesThatAreNotAllowedAreNeverListed) {
  RewriteEnvironment plain = environment();
  plain.reset(smallModel());
  ASSERT_FALSE(plain.candidates().empty());
  const std::string vetoed = plain.rule(plain.candidates().front().ruleIndex).name();

  RewriteEnvironmentOptions options;
  options.allowed = [&](const Rule& rule) { return rule.name() != vetoed; };
  RewriteEnvironment env = environment(options);
  env.reset(smallModel());
  ASSERT_FALSE(env.candidates().empty());
  for (const RewriteCandidate& c : env.candidates()) EXPECT_NE(env.rule(c.ruleIndex).name(), vetoed);
}

TEST_F(RewriteEnvironmentTest, TheObservationDescribesTheGraphAndEachCandidate) {
  RewriteEnvironment env = environment();
  env.reset(smallModel());
  const Observation& seen = env.observation();
  const GraphObservation& graph = seen.graph;
  EXPECT_EQ(graph.nodes, static_cast<int64_t>(env.graph().opCount()));
  ASSERT_EQ(graph.ops.size(), static_cast<size_t>(graph.nodes));
  EXPECT_EQ(graph.figures.size(), static_cast<size_t>(graph.nodes * nodeFigureSize()));
  EXPECT_EQ(graph.globals.size(), static_cast<size_t>(globalFeatureSize()));
  EXPECT_FLOAT_EQ(graph.globals[0], 1.0f); // the start graph costs what it costs
  for (int32_t op : graph.ops) EXPECT_TRUE(op >= 0 && op < opKindCount());
  ASSERT_EQ(graph.senders.size(), graph.receivers.size());
  int selfLoops = 0;
  for (size_t e = 0; e < graph.senders.size(); ++e) {
    EXPECT_TRUE(graph.senders[e] >= 0 && graph.senders[e] < graph.nodes);
    EXPECT_TRUE(graph.receivers[e] >= 0 && graph.receivers[e] < graph.nodes);
    selfLoops += graph.senders[e] == graph.receivers[e];
  }
  EXPECT_EQ(selfLoops, graph.nodes);
  // Data edges between ops go both ways: 3 conv->relu, 3 relu->concat, concat->tanh.
  EXPECT_EQ(graph.senders.size(), static_cast<size_t>(graph.nodes + 2 * 7));

  ASSERT_EQ(seen.candidates.size(), env.candidates().size());
  for (size_t i = 0; i < seen.candidates.size(); ++i) {
    const CandidateObservation& c = seen.candidates[i];
    EXPECT_EQ(static_cast<size_t>(c.rule), env.candidates()[i].ruleIndex);
    EXPECT_EQ(c.rows.size(), env.candidates()[i].location.size());
    for (int32_t row : c.rows) EXPECT_TRUE(row >= 0 && row < graph.nodes);
    EXPECT_NEAR(c.costDeltaPct, 100.0 * (env.candidates()[i].costMs - env.costMs()) / env.initialCostMs(), 1e-4);
  }
}

TEST_F(RewriteEnvironmentTest, GreedysTrapIsInTheActionsAndEscapingItPays) {
  std::vector<const Rule*> two = pack.only({"tensat-m08", "tensat-s115"});
  RewriteEnvironment env(two, *cost, {});
  env.reset(pairedBranchesWithTail(40));
  ASSERT_FALSE(env.candidates().empty());
  for (const RewriteCandidate& c : env.candidates()) EXPECT_GT(c.costMs, env.costMs()) << "greedy would stop here";
  // Pair the relus (a loss), then fold the two convs (a gain bigger than the loss).
  double total = env.step(0).reward;
  EXPECT_LT(total, 0.0);
  double best = total;
  for (int i = 0; i < 3 && !env.done(); ++i) {
    auto it = std::min_element(env.candidates().begin(), env.candidates().end(),
                               [](const RewriteCandidate& a, const RewriteCandidate& b) { return a.costMs < b.costMs; });
    total += env.step(static_cast<size_t>(it - env.candidates().begin())).reward;
    best = std::max(best, total);
  }
  EXPECT_GT(best, 0.0);
}
