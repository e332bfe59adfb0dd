// The three greedy extractors on hand-made problems with known answers, and their guarantees on
// random ones: complete, acyclic, never below the optimum, and `dag` never worse than `tree`.
#include "ProblemBuilder.h"

#include "extract/DagGreedyExtractor.h"
#include "extract/Extractors.h"
#include "extract/SharedCostExtractor.h"
#include "extract/TreeExtractor.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::extract;
using tessera::extract::test::bruteForceOptimum;
using tessera::extract::test::ProblemBuilder;
using tessera::extract::test::randomProblem;
using tessera::extract::test::RandomProblemShape;

namespace {

// The "(* (sq x) (sq x))" case: A's node a1 = mul(M, M) uses class M twice. Tree cost
// 1 + 4 + 4 = 9 loses to the leaf a2 (6); as a DAG a1 costs 1 + 4 = 5 and wins.
struct SquareShared {
  ExtractionProblem problem;
  uint32_t root, a, m, x;
  uint32_t neg, mul, leaf, sq, input;
};

SquareShared squareShared() {
  ProblemBuilder b;
  SquareShared s{};
  s.root = b.addClass(), s.a = b.addClass(), s.m = b.addClass(), s.x = b.addClass();
  s.neg = b.addNode(s.root, 1, {s.a});
  s.mul = b.addNode(s.a, 1, {s.m, s.m});
  s.leaf = b.addNode(s.a, 6);
  s.sq = b.addNode(s.m, 4, {s.x});
  s.input = b.addNode(s.x, 0);
  b.addRoot(s.root);
  s.problem = b.build();
  return s;
}

// R: r1 = add(P, Q) (cost 1) or r2 = leaf (20); P = f(S) (2), Q = g(S) (3), S = leaf (10).
// Tree: r1 = 1 + 12 + 13 = 26 > 20, so tree takes r2. DAG cost of r1 is 16.
// OCF by hand: P = 12 with history {S:10}; Q = 13 with {S:10}; r1 = 1 + 12 (P, adopts {S:10},
// records P:12) + (13 - 10) (Q overlaps S) = 16 < 20, so OCF takes r1 too.
struct Diamond {
  ExtractionProblem problem;
  uint32_t r1, r2;
};

Diamond diamond() {
  ProblemBuilder b;
  uint32_t r = b.addClass(), p = b.addClass(), q = b.addClass(), s = b.addClass();
  Diamond d{};
  d.r1 = b.addNode(r, 1, {p, q});
  d.r2 = b.addNode(r, 20);
  b.addNode(p, 2, {s});
  b.addNode(q, 3, {s});
  b.addNode(s, 10);
  b.addRoot(r);
  d.problem = b.build();
  return d;
}

void expectValid(const ExtractionProblem& problem, const Extraction& result) {
  EXPECT_EQ(choiceDefect(problem, result.choice), "") << result.method;
  EXPECT_DOUBLE_EQ(result.dagCost, dagCost(problem, result.choice)) << result.method;
}

} // namespace

TEST(TreeExtractor, PaysASharedSubtermTwiceAndMissesTheCheaperDag) {
  SquareShared s = squareShared();
  std::vector<double> tree = treeCosts(s.problem);
  EXPECT_DOUBLE_EQ(tree[s.m], 4);
  EXPECT_DOUBLE_EQ(tree[s.a], 6);    // min(1 + 4 + 4, 6)
  EXPECT_DOUBLE_EQ(tree[s.root], 7); // 1 + 6
  Extraction result = extractTree(s.problem);
  expectValid(s.problem, result);
  EXPECT_EQ(result.choice[s.a], static_cast<int32_t>(s.leaf));
  EXPECT_DOUBLE_EQ(result.dagCost, 7);
}

TEST(DagGreedyExtractor, PaysASharedSubtermOnce) {
  SquareShared s = squareShared();
  Extraction result = extractDagGreedy(s.problem);
  expectValid(s.problem, result);
  EXPECT_EQ(result.choice[s.a], static_cast<int32_t>(s.mul));
  EXPECT_DOUBLE_EQ(result.dagCost, 6); // neg 1 + mul 1 + sq 4 + x 0: the optimum
  EXPECT_DOUBLE_EQ(bruteForceOptimum(s.problem).cost, 6);
}

TEST(SharedCostExtractor, DiscountsTheSharedPartOfADiamond) {
  Diamond d = diamond();
  Extraction tree = extractTree(d.problem);
  Extraction ocf = extractSharedCost(d.problem);
  Extraction dag = extractDagGreedy(d.problem);
  expectValid(d.problem, tree);
  expectValid(d.problem, ocf);
  expectValid(d.problem, dag);
  EXPECT_EQ(tree.choice[0], static_cast<int32_t>(d.r2));
  EXPECT_DOUBLE_EQ(tree.dagCost, 20);
  EXPECT_EQ(ocf.choice[0], static_cast<int32_t>(d.r1));
  EXPECT_DOUBLE_EQ(ocf.dagCost, 16);
  EXPECT_DOUBLE_EQ(dag.dagCost, 16);
}

TEST(GreedyExtractors, AvoidTheCycleInACyclicEGraph) {
  // A: a1 = f(B) (1) or a2 = leaf (5); B: b1 = g(A) (0) or b2 = leaf (2). Choosing a1 and b1
  // would "cost" 1 but is a cycle; the cheapest real term is a1 over b2 = 3.
  ProblemBuilder b;
  uint32_t a = b.addClass(), bb = b.addClass();
  uint32_t a1 = b.addNode(a, 1, {bb});
  b.addNode(a, 5);
  b.addNode(bb, 0, {a});
  uint32_t b2 = b.addNode(bb, 2);
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  for (ExtractionMethod method : {ExtractionMethod::Tree, ExtractionMethod::SharedCost, ExtractionMethod::DagGreedy}) {
    Extraction result = extract::extract(problem, method);
    expectValid(problem, result);
    EXPECT_EQ(result.choice[a], static_cast<int32_t>(a1)) << result.method;
    EXPECT_EQ(result.choice[bb], static_cast<int32_t>(b2)) << result.method;
    EXPECT_DOUBLE_EQ(result.dagCost, 3) << result.method;
  }
}

TEST(GreedyExtractors, ReportARootWhoseOnlyTermsAreCyclic) {
  ProblemBuilder b;
  uint32_t a = b.addClass(), bb = b.addClass();
  b.addNode(a, 1, {bb});
  b.addNode(bb, 1, {a});
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  for (ExtractionMethod method : {ExtractionMethod::Tree, ExtractionMethod::SharedCost, ExtractionMethod::DagGreedy,
                                  ExtractionMethod::Ilp})
    EXPECT_THROW(extract::extract(problem, method), Error) << extractionMethodName(method);
}

TEST(GreedyExtractors, RejectAMalformedProblemInsteadOfCrashing) {
  Diamond d = diamond();
  d.problem.nodes[0].children.push_back(99);
  for (ExtractionMethod method : {ExtractionMethod::Tree, ExtractionMethod::SharedCost, ExtractionMethod::DagGreedy,
                                  ExtractionMethod::Ilp})
    EXPECT_THROW(extract::extract(d.problem, method), Error) << extractionMethodName(method);
}

TEST(GreedyExtractors, AreValidAndDagIsNeverWorseThanTreeOnRandomProblems) {
  std::mt19937 rng(20240607);
  int dagStrictlyBetter = 0, checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    RandomProblemShape shape;
    shape.classes = 3 + trial % 6;
    shape.backEdgeProbability = trial % 3 == 0 ? 0.2 : 0.0;
    ExtractionProblem problem = randomProblem(rng, shape);
    double optimum = bruteForceOptimum(problem).cost;
    if (std::isinf(optimum)) { // no acyclic term: every extractor must say so
      EXPECT_THROW(extractTree(problem), Error);
      EXPECT_THROW(extractDagGreedy(problem), Error);
      continue;
    }
    Extraction tree = extractTree(problem), ocf = extractSharedCost(problem), dag = extractDagGreedy(problem);
    for (const Extraction* result : {&tree, &ocf, &dag}) {
      expectValid(problem, *result);
      EXPECT_GE(result->dagCost, optimum - 1e-9) << result->method << " beat the exhaustive optimum?";
    }
    EXPECT_LE(dag.dagCost, tree.dagCost + 1e-9) << "trial " << trial;
    dagStrictlyBetter += dag.dagCost < tree.dagCost - 1e-9;
    ++checked;
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(dagStrictlyBetter, 0) << "the random problems never exercise sharing";
}

TEST(DagGreedyExtractor, HandlesADeepChainWithoutRecursion) {
  ProblemBuilder b;
  const uint32_t depth = 3000; // the DAG walk is quadratic in depth: keep the test fast
  for (uint32_t c = 0; c < depth; ++c) b.addClass();
  for (uint32_t c = 0; c + 1 < depth; ++c) {
    b.addNode(c, 1, {c + 1});
    b.addNode(c, 1e6); // an expensive leaf alternative at every level
  }
  b.addNode(depth - 1, 1);
  b.addRoot(0);
  ExtractionProblem problem = b.build();
  for (ExtractionMethod method : {ExtractionMethod::Tree, ExtractionMethod::DagGreedy}) {
    Extraction result = extract::extract(problem, method);
    expectValid(problem, result);
    EXPECT_DOUBLE_EQ(result.dagCost, depth) << result.method;
  }
}
