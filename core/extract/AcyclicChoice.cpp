// Bottom-up resolution of preferred nodes into an acyclic choice.
#include "extract/AcyclicChoice.h"

#include "extract/Extraction.h"
#include "extract/StronglyConnected.h"
#include "support/Error.h"

#include <cassert>
#include <queue>
#include <utility>

namespace tessera::extract {

std::vector<int32_t> acyclicChoice(const ExtractionProblem& problem, const std::vector<int32_t>& preferred,
                                   const std::vector<double>& nodeScore) {
  assert(preferred.size() == problem.classCount() && "one preference per class");
  assert(nodeScore.size() == problem.nodes.size() && "one score per node");
  const size_t classes = problem.classCount();
  ParentIndex parents = parentIndex(problem);
  std::vector<uint32_t> unresolvedChildren(problem.nodes.size());
  std::vector<int32_t> resolved(classes, -1);

  // Classes that block progress by themselves: those whose preferences form a cycle and those
  // without a usable preference. Alternatives are taken there first, so that classes which merely
  // wait on them keep their preferred node.
  std::vector<uint8_t> blocker(classes, 0);
  {
    DirectedGraph preferenceGraph;
    preferenceGraph.offsets.reserve(classes + 1);
    preferenceGraph.offsets.push_back(0);
    for (uint32_t c = 0; c < classes; ++c) {
      int32_t node = preferred[c];
      bool usable = node >= 0 && static_cast<size_t>(node) < problem.nodes.size() && problem.nodes[node].eclass == c;
      if (!usable) blocker[c] = 1;
      if (usable)
        for (uint32_t child : distinctChildren(problem.nodes[node])) preferenceGraph.targets.push_back(child);
      preferenceGraph.offsets.push_back(static_cast<uint32_t>(preferenceGraph.targets.size()));
    }
    Components components = stronglyConnectedComponents(preferenceGraph);
    for (uint32_t c = 0; c < classes; ++c)
      if (onCycle(preferenceGraph, components, c)) blocker[c] = 1;
  }

  std::vector<std::pair<uint32_t, uint32_t>> preferredReady; // (class, node), LIFO is fine
  using Scored = std::pair<double, uint32_t>;
  using MinHeap = std::priority_queue<Scored, std::vector<Scored>, std::greater<>>;
  MinHeap blockerAlternatives, otherAlternatives;

  auto becameReady = [&](uint32_t node) {
    uint32_t eclass = problem.nodes[node].eclass;
    if (resolved[eclass] >= 0) return;
    if (preferred[eclass] == static_cast<int32_t>(node))
      preferredReady.push_back({eclass, node});
    else
      (blocker[eclass] ? blockerAlternatives : otherAlternatives).push({nodeScore[node], node});
  };
  for (uint32_t n = 0; n < problem.nodes.size(); ++n) {
    unresolvedChildren[n] = static_cast<uint32_t>(distinctChildren(problem.nodes[n]).size());
    if (unresolvedChildren[n] == 0) becameReady(n);
  }

  auto resolve = [&](uint32_t eclass, uint32_t node) {
    resolved[eclass] = static_cast<int32_t>(node);
    for (uint32_t parent : parents.of(eclass))
      if (--unresolvedChildren[parent] == 0) becameReady(parent);
  };
  while (true) {
    if (!preferredReady.empty()) {
      auto [eclass, node] = preferredReady.back();
      preferredReady.pop_back();
      if (resolved[eclass] < 0) resolve(eclass, node);
      continue;
    }
    MinHeap& heap = !blockerAlternatives.empty() ? blockerAlternatives : otherAlternatives;
    if (heap.empty()) break;
    uint32_t node = heap.top().second;
    heap.pop();
    uint32_t eclass = problem.nodes[node].eclass;
    if (resolved[eclass] >= 0) continue;
    // Nothing preferred can proceed: take the cheapest way out, at a blocking class if possible.
    resolve(eclass, node);
  }

  for (uint32_t root : problem.roots)
    if (resolved[root] < 0)
      throw Error("no acyclic term exists for root class " + problem.className(root) +
                  " (every way of computing it depends on itself)");
  std::vector<int32_t> result = restrictToReachable(problem, resolved);
  assert(isValidChoice(problem, result) && "bottom-up resolution cannot create a cycle");
  return result;
}

std::vector<int32_t> validChoiceFrom(const ExtractionProblem& problem, const std::vector<int32_t>& preferred,
                                     const std::vector<double>& nodeScore) {
  if (isValidChoice(problem, preferred)) return restrictToReachable(problem, preferred);
  return acyclicChoice(problem, preferred, nodeScore);
}

} // namespace tessera::extract
