// The CBC ILP: equal to the exhaustive optimum on random problems (with and without cycles),
// acyclic where an unconstrained ILP would close a cycle, deterministic, and within its time limit.
#include "ProblemBuilder.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/IlpExtractor.h"
#include "extract/TreeExtractor.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::extract;
using tessera::extract::test::bruteForceOptimum;
using tessera::extract::test::ProblemBuilder;
using tessera::extract::test::layeredProblem;
using tessera::extract::test::randomProblem;
using tessera::extract::test::RandomProblemShape;

TEST(IlpExtractor, BeatsTheGreediesWhenSharingAcrossSiblingsPays) {
  // R = add(A, B, C); A: a1 = f(S, T) (1) or leaf (5); B: b1 = g(S) (1) or leaf (5); C: c1 = h(T)
  // (1) or leaf (5); S = T = leaf (5.5). All leaves cost 15; only all three switching pays
  // (3 + 11 = 14): no single swap, and no joint move at S (A and B: 18) or T (A and C: 18), finds it.
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass(), bb = b.addClass(), c = b.addClass();
  uint32_t s = b.addClass(), t = b.addClass();
  b.addNode(r, 0, {a, bb, c});
  uint32_t a1 = b.addNode(a, 1, {s, t});
  b.addNode(a, 5);
  uint32_t b1 = b.addNode(bb, 1, {s});
  b.addNode(bb, 5);
  uint32_t c1 = b.addNode(c, 1, {t});
  b.addNode(c, 5);
  b.addNode(s, 5.5);
  b.addNode(t, 5.5);
  b.addRoot(r);
  ExtractionProblem problem = b.build();
  EXPECT_DOUBLE_EQ(extractDagGreedy(problem).dagCost, 15);
  Extraction ilp = extractIlp(problem);
  EXPECT_EQ(choiceDefect(problem, ilp.choice), "");
  EXPECT_DOUBLE_EQ(ilp.dagCost, 14);
  EXPECT_EQ(ilp.choice[a], static_cast<int32_t>(a1));
  EXPECT_EQ(ilp.choice[bb], static_cast<int32_t>(b1));
  EXPECT_EQ(ilp.choice[c], static_cast<int32_t>(c1));
  EXPECT_TRUE(ilp.provenOptimal);
  EXPECT_DOUBLE_EQ(ilp.lowerBound, 14);
  EXPECT_DOUBLE_EQ(bruteForceOptimum(problem).cost, 14);
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
    // Cold start too, so the warm start cannot hide a wrong model, and without the presolve, so a
    // wrong pruning rule cannot hide behind the model either.
    for (IlpOptions options : {IlpOptions{0, true, true}, IlpOptions{0, false, true}, IlpOptions{0, true, false}}) {
      Extraction ilp = extractIlp(problem, options);
      EXPECT_EQ(choiceDefect(problem, ilp.choice), "") << "trial " << trial;
      EXPECT_NEAR(ilp.dagCost, truth.cost, 1e-9)
          << "trial " << trial << " warm " << options.warmStart << " presolve " << options.presolve;
      EXPECT_TRUE(ilp.provenOptimal);
    }
    ++checked;
    withCycles += shape.backEdgeProbability > 0;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(withCycles, 40);
}

TEST(IlpExtractor, IsDeterministicAndNeverWorseThanItsWarmStart) {
  std::mt19937 rng(99);
  ExtractionProblem problem = layeredProblem(rng, 60);
  Extraction first = extractIlp(problem), second = extractIlp(problem);
  EXPECT_TRUE(first.provenOptimal);
  EXPECT_EQ(first.choice, second.choice);
  EXPECT_EQ(first.dagCost, second.dagCost);
  EXPECT_EQ(choiceDefect(problem, first.choice), "");
  Extraction dag = extractDagGreedy(problem), tree = extractTree(problem);
  EXPECT_LE(first.dagCost, dag.dagCost + 1e-9);
  EXPECT_LE(dag.dagCost, tree.dagCost + 1e-9);
  EXPECT_LT(first.dagCost, tree.dagCost) << "sharing in the layered problem should pay";
}

TEST(IlpExtractor, HonoursItsTimeLimitAndReturnsAValidIncumbent) {
  // 4000 layers: CBC needs more than 5 s to prove this one optimal, so 0.5 s cuts it short.
  std::mt19937 rng(2);
  ExtractionProblem problem = layeredProblem(rng, 4000);
  Extraction greedy = extractDagGreedy(problem);
  Extraction ilp = extractIlp(problem, {0.5, true});
  EXPECT_EQ(choiceDefect(problem, ilp.choice), "");
  EXPECT_LE(ilp.dagCost, greedy.dagCost + 1e-9);
  EXPECT_FALSE(ilp.provenOptimal);
  EXPECT_GT(ilp.lowerBound, 0);
  EXPECT_LT(ilp.lowerBound, ilp.dagCost);
  EXPECT_LT(ilp.seconds, 0.5 + 1.0) << "CBC checks its clock between steps; allow slack for a loaded CI machine";
}
