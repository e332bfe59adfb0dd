// What the ILP presolve and the swap search may and may not remove or change, on problems small
// enough to check by hand.
#include "ProblemBuilder.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/Dominance.h"
#include "extract/IlpReduction.h"
#include "extract/LocalImprovement.h"
#include "extract/TreeExtractor.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera::extract;
using tessera::extract::test::bruteForceOptimum;
using tessera::extract::test::ProblemBuilder;
using tessera::extract::test::randomProblem;
using tessera::extract::test::RandomProblemShape;

TEST(Dominance, ACheaperNodeWithFewerChildrenDominates) {
  ProblemBuilder b;
  uint32_t r = b.addClass(), x = b.addClass(), y = b.addClass();
  uint32_t wide = b.addNode(r, 3, {x, y});
  uint32_t narrow = b.addNode(r, 2, {x});
  uint32_t pricier = b.addNode(r, 4, {x, x}); // same child set as `narrow`, dearer
  uint32_t other = b.addNode(r, 1, {y});      // cheaper but needs y, which `narrow` does not
  b.addNode(x, 0);
  b.addNode(y, 0);
  b.addRoot(r);
  std::vector<int32_t> dominator = findDominators(b.build());
  // Both `narrow` ({x}, 2) and `other` ({y}, 1) dominate `wide` ({x, y}, 3); either may be named.
  EXPECT_TRUE(dominator[wide] == static_cast<int32_t>(narrow) || dominator[wide] == static_cast<int32_t>(other));
  EXPECT_EQ(dominator[pricier], static_cast<int32_t>(narrow));
  EXPECT_EQ(dominator[narrow], -1);
  EXPECT_EQ(dominator[other], -1);
}

TEST(Dominance, OfTwoEqualNodesExactlyOneSurvives) {
  ProblemBuilder b;
  uint32_t r = b.addClass(), x = b.addClass();
  uint32_t first = b.addNode(r, 2, {x});
  uint32_t second = b.addNode(r, 2, {x});
  b.addNode(x, 0);
  b.addRoot(r);
  std::vector<int32_t> dominator = findDominators(b.build());
  EXPECT_EQ(dominator[first], -1);
  EXPECT_EQ(dominator[second], static_cast<int32_t>(first));
  // An ineligible node neither dominates nor is reported.
  std::vector<uint8_t> eligible = {0, 1, 1};
  dominator = findDominators(b.build(), eligible);
  EXPECT_EQ(dominator[second], -1);
}

TEST(IlpReduction, PrunesANodeWhoseCheapestUseExceedsTheBound) {
  // r (1) -> A; A: a1 (1) -> B (leaf 5), a2 (1.5) -> C (leaf 10). Greedy total 7. a2's own cost
  // is below 7, but any solution with it pays r + a2 + C = 12.5 > 7, so it goes, and C with it.
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass(), bb = b.addClass(), c = b.addClass();
  b.addNode(r, 1, {a});
  uint32_t a1 = b.addNode(a, 1, {bb});
  uint32_t a2 = b.addNode(a, 1.5, {c});
  b.addNode(bb, 5);
  b.addNode(c, 10);
  b.addRoot(r);
  ExtractionProblem problem = b.build();
  IlpReduction reduced = reduceForIlp(problem, 7);
  EXPECT_EQ(reduced.removedByBound, 2u); // a2, and C's leaf (above(C) = 2.5, 2.5 + 10 > 7)
  EXPECT_TRUE(reduced.nodeAlive[a1]);
  EXPECT_FALSE(reduced.nodeAlive[a2]);
  EXPECT_FALSE(reduced.classInModel[c]);
  // With a looser bound nothing is pruned.
  EXPECT_EQ(reduceForIlp(problem, 20).removedByBound, 0u);
}

TEST(IlpReduction, DropsSelfLoopsAndWhatCannotBeBuilt) {
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass();
  uint32_t loop = b.addNode(r, 0, {r});
  uint32_t viaA = b.addNode(r, 1, {a});
  uint32_t leaf = b.addNode(r, 3);
  b.addNode(a, 0, {a}); // A's only node is a self loop: A cannot be built, nor r's viaA
  b.addRoot(r);
  IlpReduction reduced = reduceForIlp(b.build(), 100);
  EXPECT_EQ(reduced.removedBySelfLoop, 2u);
  EXPECT_FALSE(reduced.nodeAlive[loop]);
  EXPECT_FALSE(reduced.nodeAlive[viaA]);
  EXPECT_TRUE(reduced.nodeAlive[leaf]);
  EXPECT_EQ(reduced.aliveNodes[r], std::vector<uint32_t>{leaf});
}

TEST(LocalImprovement, ASingleSwapSharesWhatTheGreedyPricedAlone) {
  // R = add(A, B); A's only node uses S (6); B: b1 uses S (1) or a leaf (3). Priced alone B takes
  // the leaf (3 < 7), total 10; since A pays for S anyway, b1 makes it 8 (the optimum).
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass(), bb = b.addClass(), s = b.addClass();
  uint32_t add = b.addNode(r, 0, {a, bb});
  uint32_t a1 = b.addNode(a, 1, {s});
  uint32_t b1 = b.addNode(bb, 1, {s});
  uint32_t b2 = b.addNode(bb, 3);
  uint32_t leaf = b.addNode(s, 6);
  b.addRoot(r);
  ExtractionProblem problem = b.build();
  EXPECT_DOUBLE_EQ(extractTree(problem).dagCost, 10);
  std::vector<int32_t> start = {int32_t(add), int32_t(a1), int32_t(b2), int32_t(leaf)};
  std::vector<int32_t> improved = improveBySwaps(problem, start, start, 1000);
  EXPECT_EQ(improved[bb], static_cast<int32_t>(b1));
  EXPECT_DOUBLE_EQ(dagCost(problem, improved), 8);
  EXPECT_DOUBLE_EQ(extractDagGreedy(problem).dagCost, 8);
  EXPECT_DOUBLE_EQ(bruteForceOptimum(problem).cost, 8);
  // Without budget nothing changes.
  EXPECT_EQ(improveBySwaps(problem, start, start, 0), start);
}

TEST(LocalImprovement, NeverAcceptsASwapThatClosesACycle) {
  // A: a1 = f(B) (1) or leaf (5); B: b1 = g(A) (0) or leaf (4). From {a2} the swap A -> a1 with
  // background B -> b1 would "cost" 1 but is a cycle; with B -> b2 it costs 5: no improvement.
  ProblemBuilder b;
  uint32_t a = b.addClass(), bb = b.addClass();
  b.addNode(a, 1, {bb});
  uint32_t a2 = b.addNode(a, 5);
  uint32_t b1 = b.addNode(bb, 0, {a});
  b.addNode(bb, 4);
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  std::vector<int32_t> start = {int32_t(a2), -1};
  std::vector<int32_t> background = {int32_t(a2), int32_t(b1)};
  std::vector<int32_t> improved = improveBySwaps(problem, start, background, 1000);
  EXPECT_EQ(choiceDefect(problem, improved), "");
  EXPECT_DOUBLE_EQ(dagCost(problem, improved), 5);
}

TEST(LocalImprovement, EndsWhereNoSingleSwapHelpsOnRandomProblems) {
  // Checked the slow way: every other node of every used class, priced with dagCost().
  std::mt19937 rng(11);
  int checked = 0, improvedSome = 0;
  for (int trial = 0; trial < 200; ++trial) {
    RandomProblemShape shape;
    shape.classes = 4 + trial % 10;
    shape.backEdgeProbability = trial % 2 ? 0.15 : 0.0;
    ExtractionProblem problem = randomProblem(rng, shape);
    if (std::isinf(bruteForceOptimum(problem).cost)) continue;
    std::vector<int32_t> background = treePreferences(problem, bottomUpClassOrder(problem));
    std::vector<int32_t> start = restrictToReachable(problem, background);
    double startCost = dagCost(problem, start), finalCost = -1;
    std::vector<int32_t> result = improveBySwaps(problem, start, background, 1u << 30, {}, nullptr, &finalCost);
    ASSERT_EQ(choiceDefect(problem, result), "") << "trial " << trial;
    double cost = dagCost(problem, result);
    EXPECT_DOUBLE_EQ(finalCost, cost) << "trial " << trial;
    EXPECT_LE(cost, startCost + 1e-9);
    improvedSome += cost < startCost - 1e-9;
    for (uint32_t c = 0; c < problem.classCount(); ++c) {
      if (result[c] < 0) continue;
      for (uint32_t node : problem.classNodes[c]) {
        std::vector<int32_t> swapped = result;
        swapped[c] = static_cast<int32_t>(node);
        for (uint32_t k = 0; k < swapped.size(); ++k)
          if (swapped[k] < 0) swapped[k] = background[k];
        if (!isValidChoice(problem, swapped)) continue;
        EXPECT_GE(dagCost(problem, swapped), cost - 1e-9) << "trial " << trial << ": class " << c << " node " << node;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 150);
  EXPECT_GT(improvedSome, 5);
}
