// Greedy extraction on the true DAG cost, in the spirit of extraction-gym's faster-greedy-dag: a
// class's cost is the sum over the distinct classes its current term uses, so sharing is paid once.
#pragma once

#include "extract/Extraction.h"

#include <cstdint>

namespace tessera::extract {

// A worklist of nodes driven by parent pointers, seeded bottom-up. A node is evaluated by walking
// the *current* choices below it with a visit stamp: its cost is its own cost plus the costs of the
// distinct classes reached. A node whose walk reaches its own class is rejected, so the choices
// never contain a cycle (extraction-gym instead keeps a set per class, which costs O(classes^2)
// memory and can go stale). A class adopts a node only when it is strictly cheaper than the
// refreshed cost of its current node; any change re-queues the parents. The number of evaluations
// is capped (sharing makes the cost non-monotone, so a fixpoint is not guaranteed in theory).
// Dominated nodes (Dominance.h) are never priced, nor, when the class graph is acyclic, classes
// left with a single node. The better of this and the tree greedy (so never worse than `tree`) is
// then improved by single-class swaps and joint swaps of classes that can share a new class
// (LocalImprovement.h) within a work budget.
struct DagGreedyOptions {
  uint64_t swapWorkBudget = 0; // class visits the swap search may spend; 0 = defaultSwapWorkBudget()
};
Extraction extractDagGreedy(const ExtractionProblem& problem, const DagGreedyOptions& options = {});

// 200 visits per e-node plus a million: several full swap rounds on e-graphs of a few thousand
// nodes (milliseconds), bounded on huge ones so `dag` stays fast inside a search loop.
uint64_t defaultSwapWorkBudget(const ExtractionProblem& problem);

} // namespace tessera::extract
