// MCTS's state pricing (core/search/mcts/StateCoster): states remembered by their path from the
// committed root and re-rooted at a commit (PathCache), and the last extraction, kept for a guided
// search, which must be the graph a fresh extraction of the state gives.
#include "cost/CostModel.h"
#include "egraph/GraphConversion.h"
#include "ir/GraphHash.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/mcts/RuleAction.h"
#include "search/mcts/StateCoster.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::mcts;

TEST(PathCache, ACommitKeepsTheStatesBelowTheCommittedActionReRooted) {
  PathCache<int> cache;
  cache.insert({1}, 10);
  cache.insert({1, 2}, 12);
  cache.insert({2}, 20);
  cache.insert({2, 1}, 21);
  cache.commit(1);
  EXPECT_EQ(cache.size(), 2u);
  ASSERT_NE(cache.find({}), nullptr);
  EXPECT_EQ(*cache.find({}), 10);
  ASSERT_NE(cache.find({2}), nullptr);
  EXPECT_EQ(*cache.find({2}), 12) << "the state reached by 1 then 2 is now reached by 2";
  EXPECT_EQ(cache.find({1}), nullptr);
  cache.clear();
  EXPECT_EQ(cache.find({}), nullptr);
}

TEST(StateCoster, TheKeptExtractionIsTheGraphAFreshExtractionGives) {
  const Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/nasrnn.onnx");
  RuleSet rules = defaultRules();
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  EGraph egraph;
  const SeededGraph seed = seedEGraph(egraph, model);
  egraph.rebuild();
  // The first rule of the pack that changes the model: its state is a leaf a search would price.
  uint16_t action = 0;
  for (;; ++action) {
    ASSERT_LT(action, rules.rules().size()) << "no rule of the pack changes nasrnn";
    if (applyRuleAction(egraph, seed.outputs, *rules.rules()[action], 2000).changed()) break;
  }
  const ActionPath path{action};

  StateCoster coster(*cost, extract::ExtractionMethod::DagGreedy);
  coster.keepExtractions();
  const double ms = coster.cost(egraph, seed, path);
  const std::optional<ExtractedGraph> kept = coster.lastExtraction(egraph, seed, path);
  ASSERT_TRUE(kept.has_value());
  const ExtractedGraph fresh = extractGraph(egraph, seed, coster.enodeCoster(), "dag");
  EXPECT_EQ(ms, fresh.dagCostMs);
  EXPECT_EQ(kept->dagCostMs, fresh.dagCostMs);
  EXPECT_TRUE(structurallyEqual(kept->graph, fresh.graph));
  EXPECT_EQ(kept->graph.size(), fresh.graph.size());
  EXPECT_EQ(kept->sources.size(), fresh.sources.size());

  // Nothing is kept for another state, after a cache hit, without keepExtractions, or for another method.
  coster.cost(egraph, seed, path); // the same state again: a hit
  EXPECT_EQ(coster.cacheHits(), 1u);
  EXPECT_FALSE(coster.lastExtraction(egraph, seed, path).has_value());
  coster.forgetStates();
  coster.cost(egraph, seed, path);
  EXPECT_TRUE(coster.lastExtraction(egraph, seed, path).has_value());
  EXPECT_FALSE(coster.lastExtraction(egraph, seed, ActionPath{static_cast<uint16_t>(action + 1)}).has_value());
  coster.commit(action);
  EXPECT_FALSE(coster.lastExtraction(egraph, seed, {}).has_value()) << "a commit renames every state";
  StateCoster plain(*cost, extract::ExtractionMethod::DagGreedy);
  plain.cost(egraph, seed, path);
  EXPECT_FALSE(plain.lastExtraction(egraph, seed, path).has_value()) << "plain MCTS keeps nothing";
  StateCoster ocf(*cost, extract::ExtractionMethod::SharedCost);
  ocf.keepExtractions();
  ocf.cost(egraph, seed, path);
  EXPECT_FALSE(ocf.lastExtraction(egraph, seed, path).has_value()) << "the guide reads the DAG greedy's graph";
}
