// Shrinks an extraction problem before it becomes an integer program, keeping every solution that
// can beat a known upper bound (and an optimal one among them).
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <vector>

namespace tessera::extract {

struct IlpReduction {
  std::vector<uint8_t> nodeAlive;                // nodes the ILP may choose
  std::vector<int32_t> replacement;              // dominated node -> its undominated dominator, else -1
  std::vector<uint8_t> classInModel;             // classes reachable from the roots through alive nodes
  std::vector<std::vector<uint32_t>> aliveNodes; // per class in the model
  size_t removedBySelfLoop = 0, removedByDominance = 0, removedByBound = 0, removedAsUnbuildable = 0;
};

// Removes, in order:
//   - nodes that have their own class as a child (never part of an acyclic term);
//   - dominated nodes (Dominance.h); `replacement` records the swap so a warm start carries over;
//   - nodes that cannot be in a solution cheaper than `upperBound`: any solution using node n of
//     class c pays for a path from a root down to c (at least `above(c)`, a shortest path over node
//     costs) plus n's own term, whose DAG cost is at least cost(n) + max over child classes of a
//     lower bound `below(k)` (max-plus fixpoint: a term's DAG cost is at least its node's cost plus
//     the DAG cost of each child term). The path's classes lie above c, so none is in n's term;
//   - nodes left with a child class that has no node, transitively;
// and keeps the classes the roots can still reach. With `prune` false only self loops, what cannot
// be built and what cannot be reached go (the model over the whole e-graph, for comparison).
IlpReduction reduceForIlp(const ExtractionProblem& problem, double upperBound, bool prune = true);

} // namespace tessera::extract
