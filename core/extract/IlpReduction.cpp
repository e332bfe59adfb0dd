// Presolve for the extraction ILP: self loops, dominance, bound pruning, unbuildable nodes.
#include "extract/IlpReduction.h"

#include "extract/Dominance.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace tessera::extract {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Lower bound on the DAG cost of any acyclic term of each class (max-plus fixpoint from 0; every
// sweep keeps it a valid lower bound, so the sweep cap only costs tightness).
std::vector<double> termLowerBounds(const ExtractionProblem& problem, const std::vector<uint8_t>& alive) {
  std::vector<double> below(problem.classCount(), 0.0);
  std::vector<uint32_t> order = bottomUpClassOrder(problem);
  const size_t maxSweeps = std::min<size_t>(problem.classCount() + 1, 64);
  for (size_t sweep = 0; sweep < maxSweeps; ++sweep) {
    bool changed = false;
    for (uint32_t eclass : order) {
      double best = kInf;
      for (uint32_t n : problem.classNodes[eclass]) {
        if (!alive[n]) continue;
        double deepest = 0;
        for (uint32_t child : problem.nodes[n].children) deepest = std::max(deepest, below[child]);
        best = std::min(best, problem.nodes[n].cost + deepest);
      }
      if (best == kInf || best <= below[eclass]) continue;
      below[eclass] = best;
      changed = true;
    }
    if (!changed) break;
  }
  return below;
}

// Cheapest path cost from any root down to each class, paying each node on the way (Dijkstra).
std::vector<double> pathCostsFromRoots(const ExtractionProblem& problem, const std::vector<uint8_t>& alive) {
  std::vector<double> above(problem.classCount(), kInf);
  using Entry = std::pair<double, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
  for (uint32_t root : problem.roots) {
    above[root] = 0;
    frontier.push({0.0, root});
  }
  while (!frontier.empty()) {
    auto [distance, eclass] = frontier.top();
    frontier.pop();
    if (distance > above[eclass]) continue;
    for (uint32_t n : problem.classNodes[eclass]) {
      if (!alive[n]) continue;
      double next = distance + problem.nodes[n].cost;
      for (uint32_t child : problem.nodes[n].children) {
        if (next >= above[child]) continue;
        above[child] = next;
        frontier.push({next, child});
      }
    }
  }
  return above;
}

} // namespace

IlpReduction reduceForIlp(const ExtractionProblem& problem, double upperBound, bool prune) {
  const size_t classes = problem.classCount();
  const size_t nodes = problem.nodes.size();
  IlpReduction reduced;
  reduced.nodeAlive.assign(nodes, 1);

  std::vector<std::vector<uint32_t>> childSets(nodes);
  for (uint32_t n = 0; n < nodes; ++n) {
    childSets[n] = distinctChildren(problem.nodes[n]);
    std::sort(childSets[n].begin(), childSets[n].end());
    if (std::binary_search(childSets[n].begin(), childSets[n].end(), problem.nodes[n].eclass)) {
      reduced.nodeAlive[n] = 0;
      ++reduced.removedBySelfLoop;
    }
  }

  reduced.replacement.assign(nodes, -1);
  if (prune) reduced.replacement = findDominators(problem, reduced.nodeAlive);
  for (uint32_t n = 0; n < nodes; ++n) {
    if (!reduced.nodeAlive[n] || reduced.replacement[n] < 0) continue;
    reduced.nodeAlive[n] = 0;
    ++reduced.removedByDominance;
  }

  // Bound pruning; the tolerance keeps a solution that costs exactly the bound (the warm start).
  const double limit = upperBound + 1e-9 * std::max(1.0, std::abs(upperBound));
  std::vector<double> below, above;
  if (prune) {
    below = termLowerBounds(problem, reduced.nodeAlive);
    above = pathCostsFromRoots(problem, reduced.nodeAlive);
  }
  for (uint32_t n = 0; n < nodes && prune; ++n) {
    if (!reduced.nodeAlive[n]) continue;
    const ExtractionNode& node = problem.nodes[n];
    if (above[node.eclass] == kInf) continue; // unreachable: dropped below anyway
    double deepest = 0;
    for (uint32_t child : childSets[n]) deepest = std::max(deepest, below[child]);
    if (above[node.eclass] + node.cost + deepest <= limit) continue;
    reduced.nodeAlive[n] = 0;
    ++reduced.removedByBound;
  }

  // Classes that lost all their nodes take their parents with them, transitively.
  std::vector<uint32_t> aliveCount(classes, 0);
  for (uint32_t n = 0; n < nodes; ++n) aliveCount[problem.nodes[n].eclass] += reduced.nodeAlive[n];
  ParentIndex parents = parentIndex(problem);
  std::vector<uint32_t> emptied;
  for (uint32_t c = 0; c < classes; ++c)
    if (aliveCount[c] == 0) emptied.push_back(c);
  while (!emptied.empty()) {
    uint32_t eclass = emptied.back();
    emptied.pop_back();
    for (uint32_t parent : parents.of(eclass)) {
      if (!reduced.nodeAlive[parent]) continue;
      reduced.nodeAlive[parent] = 0;
      ++reduced.removedAsUnbuildable;
      if (--aliveCount[problem.nodes[parent].eclass] == 0) emptied.push_back(problem.nodes[parent].eclass);
    }
  }

  reduced.classInModel.assign(classes, 0);
  reduced.aliveNodes.assign(classes, {});
  std::vector<uint32_t> stack;
  for (uint32_t root : problem.roots)
    if (!reduced.classInModel[root]) {
      reduced.classInModel[root] = 1;
      stack.push_back(root);
    }
  while (!stack.empty()) {
    uint32_t eclass = stack.back();
    stack.pop_back();
    for (uint32_t n : problem.classNodes[eclass]) {
      if (!reduced.nodeAlive[n]) continue;
      reduced.aliveNodes[eclass].push_back(n);
      for (uint32_t child : childSets[n])
        if (!reduced.classInModel[child]) {
          reduced.classInModel[child] = 1;
          stack.push_back(child);
        }
    }
  }
  return reduced;
}

} // namespace tessera::extract
