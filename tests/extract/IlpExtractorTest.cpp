// The CBC ILP: equal to the exhaustive optimum on random problems (with and without cycles),
// acyclic where an unconstrained ILP would close a cycle, deterministic, and within its time limit.
#include "ProblemBuilder.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/IlpExtractor.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::extract;
using tessera::extract::test::bruteForceOptimum;
using tessera::extract::test::ProblemBuilder;
using tessera::extract::test::randomProblem;
using tessera::extract::test::RandomProblemShape;

TEST(IlpExtractor, BeatsTheGreediesWhenSharingAcrossSiblingsPays) {
  // R = add(A, B); A: a1 = f(S) (1) or leaf (5); B: b1 = h(S) (1) or leaf (5); S = leaf (7).
  // Each class alone prefers its leaf (5 < 8), so both greedies pay 10; a1 + b1 + S = 9.
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass(), bb = b.addClass(), s = b.addClass();
  b.addNode(r, 0, {a, bb});
  uint32_t a1 = b.addNode(a, 1, {s});
  b.addNode(a, 5);
  uint32_t b1 = b.addNode(bb, 1, {s});
  b.addNode(bb, 5);
  b.addNode(s, 7);
  b.addRoot(r);
  ExtractionProblem problem = b.build();
  EXPECT_DOUBLE_EQ(extractDagGreedy(problem).dagCost, 10);
  Extraction ilp = extractIlp(problem);
  EXPECT_EQ(choiceDefect(problem, ilp.choice), "");
  EXPECT_DOUBLE_EQ(ilp.dagCost, 9);
  EXPECT_EQ(ilp.choice[a], static_cast<int32_t>(a1));
  EXPECT_EQ(ilp.choice[bb], static_cast<int32_t>(b1));
  EXPECT_TRUE(ilp.provenOptimal);
  EXPECT_DOUBLE_EQ(ilp.lowerBound, 9);
}

TEST(IlpExtractor, RefusesTheCheaperCyclicSolution) {
  // A: a1 = f(B) (1) or leaf (5); B: b1 = g(A) (0) or leaf (4). Without acyclicity the ILP would
  // pick a1 + b1 for 1; the cheapest real term is the leaf a2 = 5 (a1 + b2 = 5 ties; both valid).
  ProblemBuilder b;
  uint32_t a = b.addClass(), bb = b.addClass();
  b.addNode(a, 1, {bb});
  b.addNode(a, 5);
  b.addNode(bb, 0, {a});
  b.addNode(bb, 4);
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  for (bool warmStart : {true, false}) {
    Extraction ilp = extractIlp(problem, {0, warmStart});
    EXPECT_EQ(choiceDefect(problem, ilp.choice), "");
    EXPECT_DOUBLE_EQ(ilp.dagCost, 5);
    EXPECT_TRUE(ilp.provenOptimal);
  }
}

TEST(IlpExtractor, MatchesTheExhaustiveOptimumOnRandomProblems) {
  std::mt19937 rng(7);
  int checked = 0, withCycles = 0;
  for (int trial = 0; trial < 150; ++trial) {
    RandomProblemShape shape;
    shape.classes = 3 + trial % 6;
    shape.backEdgeProbability = trial % 2 == 0 ? 0.25 : 0.0;
    ExtractionProblem problem = randomProblem(rng, shape);
    test::BruteForceResult truth = bruteForceOptimum(problem);
    if (std::isinf(truth.cost)) {
      EXPECT_THROW(extractIlp(problem), Error);
      continue;
    }
    // Cold start too, so the warm start cannot hide a wrong model.
    for (bool warmStart : {true, false}) {
      Extraction ilp = extractIlp(problem, {0, warmStart});
      EXPECT_EQ(choiceDefect(problem, ilp.choice), "") << "trial " << trial;
      EXPECT_NEAR(ilp.dagCost, truth.cost, 1e-9) << "trial " << trial << " warm " << warmStart;
      EXPECT_TRUE(ilp.provenOptimal);
    }
    ++checked;
    withCycles += shape.backEdgeProbability > 0;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(withCycles, 40);
}

TEST(IlpExtractor, IsDeterministic) {
  std::mt19937 rng(99);
  RandomProblemShape shape;
  shape.classes = 60;
  shape.maxNodesPerClass = 4;
  shape.backEdgeProbability = 0.05;
  ExtractionProblem problem = randomProblem(rng, shape);
  Extraction first = extractIlp(problem), second = extractIlp(problem);
  EXPECT_EQ(first.choice, second.choice);
  EXPECT_EQ(first.dagCost, second.dagCost);
}

TEST(IlpExtractor, HonoursItsTimeLimitAndReturnsAValidIncumbent) {
  std::mt19937 rng(5);
  RandomProblemShape shape;
  shape.classes = 400;
  shape.maxNodesPerClass = 4;
  shape.maxChildren = 3;
  shape.backEdgeProbability = 0.1;
  ExtractionProblem problem = randomProblem(rng, shape);
  Extraction greedy = extractDagGreedy(problem);
  Extraction ilp = extractIlp(problem, {0.2, true});
  EXPECT_EQ(choiceDefect(problem, ilp.choice), "");
  EXPECT_LE(ilp.dagCost, greedy.dagCost + 1e-9);
  EXPECT_LE(ilp.lowerBound, ilp.dagCost + 1e-9);
  EXPECT_LT(ilp.seconds, 0.2 + 1.0) << "the limit covers the whole call, with slack for a slow CI machine";
  if (!ilp.provenOptimal) EXPECT_LT(ilp.lowerBound, ilp.dagCost + 1e-9);
}
