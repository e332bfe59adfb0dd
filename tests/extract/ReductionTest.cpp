// What the ILP presolve may and may not remove, and which classes it finds required, on problems
// small enough to check by hand.
#include "ProblemBuilder.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/Dominance.h"
#include "extract/IlpReduction.h"
#include "extract/RequiredClasses.h"
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

TEST(RequiredClasses, FindsWhatEveryAlternativeReachesAndKeepsTheNearest) {
  // The fused-activation diamond: A = relu(B) or conv_relu(X); B = conv(X); X = f(Y); Y = leaf.
  // Every term of A contains X (and so Y) though no node of A has X as a child in both forms.
  ProblemBuilder b;
  uint32_t a = b.addClass(), bb = b.addClass(), x = b.addClass(), y = b.addClass(), z = b.addClass();
  b.addNode(a, 1, {bb});
  b.addNode(a, 2, {x});
  b.addNode(a, 9, {z}); // dead in the model below
  b.addNode(bb, 1, {x});
  b.addNode(x, 1, {y});
  b.addNode(y, 0);
  b.addNode(z, 0);
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  std::vector<std::vector<uint32_t>> alive = problem.classNodes;
  alive[a].pop_back();
  alive[z].clear();
  std::vector<std::vector<uint32_t>> required = nearestRequiredClasses(problem, alive);
  EXPECT_EQ(required[a], std::vector<uint32_t>{x}); // Y is implied through X
  EXPECT_EQ(required[bb], std::vector<uint32_t>{x});
  EXPECT_EQ(required[x], std::vector<uint32_t>{y});
  EXPECT_TRUE(required[y].empty());
  // With the third node alive A can avoid X: nothing is required.
  EXPECT_TRUE(nearestRequiredClasses(problem, problem.classNodes)[a].empty());
  EXPECT_TRUE(nearestRequiredClasses(problem, alive, 2)[a].empty()) << "over the size cap: no rows";
}
