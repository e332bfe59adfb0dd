#include "egraph/GraphConversion.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/MultiPatternJoin.h"
#include "rewrite/RuleSet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

RuleSet rule(const std::string& text) { return parseRules(text, "test.rules", RuleFileFormat::Tessera); }

// TENSAT's QKV merge (tensat-m05), symmetric or not.
RuleSet sharedLeftOperand(bool symmetric) {
  return rule(std::string("m05 [multi") + (symmetric ? ",symmetric" : "") +
              "]: (matmul 0 ?a ?b) => (split_0 (split 1 (matmul 0 ?a (concat 1 2 ?b ?c)))) && "
              "(matmul 0 ?a ?c) => (split_1 (split 1 (matmul 0 ?a (concat 1 2 ?b ?c))))");
}

// TENSAT's relu merge (tensat-m08): no shared variable, so every pair of relus joins.
RuleSet reluPairs(bool symmetric) {
  return rule(std::string("m08 [multi") + (symmetric ? ",symmetric" : "") +
              "]: (relu ?a) => (split_0 (split 1 (relu (concat 1 2 ?a ?b)))) && "
              "(relu ?b) => (split_1 (split 1 (relu (concat 1 2 ?a ?b))))");
}

std::vector<RuleMatch> drain(const Rule& rule, const EGraph& egraph) {
  std::vector<RuleMatch> out;
  std::unique_ptr<MatchStream> stream = rule.stream(egraph);
  RuleMatch match;
  while (stream->next(match)) out.push_back(match);
  return out;
}

std::set<std::pair<EClassId, EClassId>> rootPairs(const std::vector<RuleMatch>& matches) {
  std::set<std::pair<EClassId, EClassId>> pairs;
  for (const RuleMatch& m : matches) pairs.emplace(m.roots[0], m.roots[1]);
  return pairs;
}

// x times three weights, each [4, 4].
Graph threeProjections() {
  Graph g;
  NodeId x = g.addInput("x", f32({2, 4}));
  for (int i = 0; i < 3; ++i)
    g.addOutput({g.addNode(OpKind::MatMul, {{x}, {g.addWeight("w" + std::to_string(i), Tensor::splat(f32({4, 4}), 0.1))}})});
  return g;
}
} // namespace

TEST(MultiPatternJoin, SymmetricRulesUseEachUnorderedPairOnce) {
  EGraph egraph;
  seedEGraph(egraph, threeProjections());
  RuleSet symmetric = sharedLeftOperand(true), ordered = sharedLeftOperand(false);
  EXPECT_TRUE(symmetric.rule(0).isSymmetric());
  EXPECT_FALSE(ordered.rule(0).isSymmetric());

  std::vector<RuleMatch> once = drain(symmetric.rule(0), egraph);
  std::vector<RuleMatch> both = drain(ordered.rule(0), egraph);
  EXPECT_EQ(once.size(), 3u); // {0,1} {0,2} {1,2}
  EXPECT_EQ(both.size(), 6u);
  for (const auto& [a, b] : rootPairs(once)) {
    EXPECT_LT(a, b);
    EXPECT_TRUE(rootPairs(both).count({a, b}));
    EXPECT_TRUE(rootPairs(both).count({b, a}));
  }
  // search() yields what the stream does.
  EXPECT_EQ(symmetric.rule(0).search(egraph, 100).size(), 3u);
}

TEST(MultiPatternJoin, SymmetryNeedsOnePatternOnBothSides) {
  // Labelled symmetric, but the sources differ beyond renaming (tensat-m01): every ordered pair.
  RuleSet rules = rule("m01 [multi,symmetric]: (matmul 0 (matmul 0 ?a ?b) ?a) => (matmul 0 ?a (matmul 0 ?b ?a)) && "
                       "(matmul 0 ?b (matmul 0 ?a ?b)) => (matmul 0 (matmul 0 ?b ?a) ?b)");
  EXPECT_FALSE(rules.rule(0).isSymmetric());
  EXPECT_TRUE(defaultRules().find("tensat-m05")->isSymmetric());
  EXPECT_FALSE(defaultRules().find("predef-enlarge-concat-a0")->isSymmetric());
}

TEST(MultiPatternJoin, SkipsPairsOfOneClass) {
  Graph g;
  NodeId x = g.addInput("x", f32({2, 4}));
  g.addOutput({g.addNode(OpKind::Relu, {{x}})});
  EGraph egraph;
  seedEGraph(egraph, g);
  EXPECT_TRUE(drain(reluPairs(false).rule(0), egraph).empty());
}

TEST(MultiPatternJoin, RejectsPairsWhoseRootLiesBelowAnInput) {
  // r1 = relu(x); r2 = relu(tanh(r1)); r3 = relu(y). Merging r1 with r2 would make r1 depend on
  // itself (r1 lies below r2's input); r1 with r3 and r2 with r3 are fine.
  Graph g;
  NodeId x = g.addInput("x", f32({2, 4}));
  NodeId r1 = g.addNode(OpKind::Relu, {{x}});
  NodeId r2 = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Tanh, {{r1}})}});
  NodeId r3 = g.addNode(OpKind::Relu, {{g.addInput("y", f32({2, 4}))}});
  // r4 = relu(r1): r1 is r4's input itself (TENSAT's strict descendant sets would let this through).
  NodeId r4 = g.addNode(OpKind::Relu, {{r1}});
  for (NodeId out : {r2, r3, r4}) g.addOutput({out});
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, g);
  auto cls = [&](NodeId id) { return egraph.find(*egraph.lookup(seed.enodesOf[id][0])); };
  std::set<std::pair<EClassId, EClassId>> pairs = rootPairs(drain(reluPairs(false).rule(0), egraph));
  EXPECT_TRUE(pairs.count({cls(r1), cls(r3)}));
  EXPECT_TRUE(pairs.count({cls(r3), cls(r2)}));
  EXPECT_FALSE(pairs.count({cls(r1), cls(r2)}));
  EXPECT_FALSE(pairs.count({cls(r2), cls(r1)}));
  EXPECT_FALSE(pairs.count({cls(r1), cls(r4)}));
  EXPECT_FALSE(pairs.count({cls(r4), cls(r1)}));
  EXPECT_TRUE(pairs.count({cls(r2), cls(r4)})); // siblings over r1: neither lies below the other
}

TEST(MultiPatternJoin, AgreesWithANaiveJoinOnRandomGraphs) {
  // Random DAGs of matmuls over a few inputs; the naive join pairs every two matmul classes with
  // the same left operand, then drops the pairs where either root is reachable from an input.
  std::mt19937 rng(7);
  size_t pairsSeen = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Graph g;
    std::vector<NodeId> values;
    for (int i = 0; i < 3; ++i) values.push_back(g.addInput("in" + std::to_string(i), f32({4, 4})));
    for (int i = 0; i < 12; ++i) {
      NodeId a = values[rng() % values.size()], b = values[rng() % values.size()];
      values.push_back(g.addNode(OpKind::MatMul, {{a}, {b}}));
    }
    g.addOutput({values.back()});
    for (size_t i = 3; i + 1 < values.size(); ++i) g.addOutput({values[i]});
    EGraph egraph;
    seedEGraph(egraph, g);

    std::function<bool(EClassId, EClassId)> reaches = [&](EClassId from, EClassId to) {
      if (egraph.find(from) == egraph.find(to)) return true;
      for (const ENode& node : egraph.eclass(from).nodes)
        for (EClassId child : node.children)
          if (reaches(child, to)) return true;
      return false;
    };
    std::multiset<std::vector<EClassId>> expected;
    for (EClassId a : egraph.classesWithOp(OpKind::MatMul))
      for (EClassId b : egraph.classesWithOp(OpKind::MatMul)) {
        const ENode& na = egraph.eclass(a).nodes[0];
        const ENode& nb = egraph.eclass(b).nodes[0];
        if (a == b || egraph.find(na.children[0]) != egraph.find(nb.children[0])) continue;
        bool cycle = false;
        for (EClassId input : {na.children[0], na.children[1], nb.children[1]}) cycle |= reaches(input, a) || reaches(input, b);
        if (cycle) continue;
        expected.insert({egraph.find(a), egraph.find(b), egraph.find(na.children[0]), egraph.find(na.children[1]),
                         egraph.find(nb.children[1])});
      }
    RuleSet rules = sharedLeftOperand(false);
    const Rule& join = rules.rule(0);
    std::multiset<std::vector<EClassId>> actual;
    for (const RuleMatch& m : drain(join, egraph)) {
      std::vector<EClassId> row{m.roots[0], m.roots[1]};
      row.insert(row.end(), m.bindings.begin(), m.bindings.end());
      actual.insert(row);
    }
    EXPECT_EQ(actual, expected) << "trial " << trial;
    pairsSeen += expected.size();
  }
  EXPECT_GT(pairsSeen, 20u); // the graphs do share left operands
}
