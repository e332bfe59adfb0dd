// Judging a choice (DAG cost, completeness, cycles), problem validation, SCCs and the acyclic repair.
#include "ProblemBuilder.h"

#include "extract/AcyclicChoice.h"
#include "extract/Extraction.h"
#include "extract/StronglyConnected.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::extract;
using tessera::extract::test::ProblemBuilder;

namespace {

// root r = add(P, Q); P = f(S); Q = g(S); S = leaf. Shared S is paid once in DAG cost.
struct Diamond {
  ExtractionProblem problem;
  uint32_t r, p, q, s;       // classes
  uint32_t add, f, g, leaf;  // nodes
};

Diamond diamond() {
  ProblemBuilder b;
  Diamond d{};
  d.r = b.addClass(), d.p = b.addClass(), d.q = b.addClass(), d.s = b.addClass();
  d.add = b.addNode(d.r, 1, {d.p, d.q});
  d.f = b.addNode(d.p, 2, {d.s});
  d.g = b.addNode(d.q, 3, {d.s});
  d.leaf = b.addNode(d.s, 10);
  b.addRoot(d.r);
  d.problem = b.build();
  return d;
}

std::vector<int32_t> choose(size_t classes, std::initializer_list<std::pair<uint32_t, uint32_t>> picks) {
  std::vector<int32_t> choice(classes, -1);
  for (auto [eclass, node] : picks) choice[eclass] = static_cast<int32_t>(node);
  return choice;
}

} // namespace

TEST(DagCost, CountsASharedClassOnce) {
  Diamond d = diamond();
  auto choice = choose(4, {{d.r, d.add}, {d.p, d.f}, {d.q, d.g}, {d.s, d.leaf}});
  EXPECT_DOUBLE_EQ(dagCost(d.problem, choice), 1 + 2 + 3 + 10); // tree cost would be 26
  EXPECT_TRUE(isValidChoice(d.problem, choice));
}

TEST(DagCost, IgnoresClassesTheRootsDoNotReach) {
  ProblemBuilder b;
  uint32_t root = b.addClass(), unused = b.addClass();
  uint32_t leaf = b.addNode(root, 4);
  uint32_t expensive = b.addNode(unused, 100);
  b.addRoot(root);
  ExtractionProblem problem = b.build();
  auto choice = choose(2, {{root, leaf}, {unused, expensive}});
  EXPECT_DOUBLE_EQ(dagCost(problem, choice), 4);
  EXPECT_EQ(restrictToReachable(problem, choice), choose(2, {{root, leaf}}));
}

TEST(DagCost, IsInfiniteWhenANeededClassHasNoChoice) {
  Diamond d = diamond();
  auto choice = choose(4, {{d.r, d.add}, {d.p, d.f}, {d.q, d.g}});
  EXPECT_TRUE(std::isinf(dagCost(d.problem, choice)));
  EXPECT_NE(choiceDefect(d.problem, choice).find("has no chosen node"), std::string::npos);
}

TEST(ChoiceDefect, NamesANodeOfTheWrongClass) {
  Diamond d = diamond();
  auto choice = choose(4, {{d.r, d.add}, {d.p, d.g}, {d.q, d.g}, {d.s, d.leaf}});
  EXPECT_NE(choiceDefect(d.problem, choice).find("of class"), std::string::npos);
}

TEST(ChoiceDefect, FindsACycleAndNamesItsClasses) {
  ProblemBuilder b;
  uint32_t a = b.addClass(), c = b.addClass();
  uint32_t a1 = b.addNode(a, 1, {c});
  uint32_t c1 = b.addNode(c, 0, {a});
  b.addNode(c, 5);
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  std::string defect = choiceDefect(problem, choose(2, {{a, a1}, {c, c1}}));
  EXPECT_NE(defect.find("cycle through classes 0 -> 1 -> 0"), std::string::npos) << defect;
}

TEST(ChoiceDefect, SurvivesADeepChainWithoutRecursion) {
  ProblemBuilder b;
  const uint32_t depth = 200000;
  for (uint32_t c = 0; c < depth; ++c) b.addClass();
  for (uint32_t c = 0; c + 1 < depth; ++c) b.addNode(c, 1, {c + 1});
  b.addNode(depth - 1, 1);
  b.addRoot(0);
  ExtractionProblem problem = b.build();
  std::vector<int32_t> choice(depth);
  for (uint32_t c = 0; c < depth; ++c) choice[c] = static_cast<int32_t>(c);
  EXPECT_TRUE(isValidChoice(problem, choice));
  EXPECT_DOUBLE_EQ(dagCost(problem, choice), depth);
}

TEST(ValidateProblem, RejectsEachKindOfMalformedProblem) {
  auto expectError = [](ExtractionProblem problem, const std::string& mentions) {
    try {
      validateProblem(problem, "p.json");
      ADD_FAILURE() << "accepted a problem that should mention: " << mentions;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("p.json: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
    }
  };
  Diamond d = diamond();
  ExtractionProblem p = d.problem;
  p.roots.clear();
  expectError(p, "no root");
  p = d.problem;
  p.roots = {7};
  expectError(p, "root class 7");
  p = d.problem;
  p.nodes[0].children.push_back(9);
  expectError(p, "child class 9");
  p = d.problem;
  p.nodes[1].cost = -1;
  expectError(p, "cost");
  p = d.problem;
  p.nodes[1].cost = std::nan("");
  expectError(p, "cost");
  p = d.problem;
  p.classNodes.push_back({});
  expectError(p, "has no nodes");
  p = d.problem;
  p.classNodes[0].push_back(1);
  expectError(p, "of another class");
  p = d.problem;
  p.classNodes[3].push_back(42);
  expectError(p, "does not exist");
}

TEST(StronglyConnected, FindsCyclesAndSelfLoops) {
  // 0 -> 1 -> 2 -> 0, 3 -> 3, 4 -> 0
  DirectedGraph graph{{0, 1, 2, 3, 4, 5}, {1, 2, 0, 3, 0}};
  Components components = stronglyConnectedComponents(graph);
  EXPECT_EQ(components.componentOf[0], components.componentOf[1]);
  EXPECT_EQ(components.componentOf[1], components.componentOf[2]);
  EXPECT_NE(components.componentOf[0], components.componentOf[4]);
  EXPECT_TRUE(onCycle(graph, components, 0));
  EXPECT_TRUE(onCycle(graph, components, 3));
  EXPECT_FALSE(onCycle(graph, components, 4));
  EXPECT_EQ(components.sizes[components.componentOf[0]], 3u);
}

TEST(AcyclicChoice, BreaksAPreferredCycleAndKeepsTheOtherPreferences) {
  // root R = h(A, C); A prefers a1 = f(B), B prefers b1 = g(A): a cycle. B's leaf b2 (cost 3) is
  // cheaper than A's leaf a2 (cost 9), so the cycle is broken at B. C keeps its preferred c1.
  ProblemBuilder b;
  uint32_t r = b.addClass(), a = b.addClass(), bb = b.addClass(), c = b.addClass();
  uint32_t h = b.addNode(r, 1, {a, c});
  uint32_t a1 = b.addNode(a, 1, {bb});
  b.addNode(a, 9);
  uint32_t b1 = b.addNode(bb, 0, {a});
  uint32_t b2 = b.addNode(bb, 3);
  b.addNode(c, 1);
  uint32_t c2 = b.addNode(c, 2);
  b.addRoot(r);
  ExtractionProblem problem = b.build();
  std::vector<double> score(problem.nodes.size());
  for (uint32_t n = 0; n < score.size(); ++n) score[n] = problem.nodes[n].cost;
  auto preferred = choose(4, {{r, h}, {a, a1}, {bb, b1}, {c, c2}});
  auto repaired = acyclicChoice(problem, preferred, score);
  EXPECT_EQ(repaired, choose(4, {{r, h}, {a, a1}, {bb, b2}, {c, c2}}));
  EXPECT_EQ(validChoiceFrom(problem, repaired, score), repaired); // already valid: unchanged
}

TEST(AcyclicChoice, ReportsARootWithoutAnAcyclicTerm) {
  ProblemBuilder b;
  uint32_t a = b.addClass();
  uint32_t loop = b.addNode(a, 1, {a});
  b.addRoot(a);
  ExtractionProblem problem = b.build();
  EXPECT_THROW(acyclicChoice(problem, {static_cast<int32_t>(loop)}, {1.0}), Error);
}
