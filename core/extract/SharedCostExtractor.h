// The PACT'24 greedy ("OCF"): egg's fixpoint with a cost function that discounts subgraphs a node's
// children share, so a shared subterm is paid roughly once instead of once per use.
#pragma once

#include "extract/Extraction.h"

namespace tessera::extract {

// What it computes (after Hartmann, He & Yoneki, "Optimizing Tensor Computation Graphs with
// Equality Saturation and Monte Carlo Tree Search", PACT 2024, and their artifact's TensorCost):
// each class keeps, with its best cost, a *history*: the descendant classes its best term paid for,
// each with the amount it contributed. A node's cost is its own cost plus, child by child:
//   - the first child with a history: its full cost, and its history is adopted;
//   - a child already in the history: 0 (that subterm is already paid for);
//   - any other child: its cost minus the largest contribution among the classes of its own
//     history that are already in the node's history (a subterm's cost includes everything below
//     it, so the largest overlapping entry approximates the shared part without subtracting nested
//     parts twice), floored at 0; its unseen history entries are added.
// Each child with a positive contribution is recorded. The class keeps the cheapest node, with
// strict improvement only, as egg does. Differences from the artifact, all deliberate: histories are
// stored together with the cost they produced (the artifact could keep the history of a node it did
// not adopt), nodes whose child histories contain their own class are skipped (cycle guard), the
// sweeps are capped at |classes| + 2 (the cost is not monotone, so convergence is not guaranteed),
// and the final choice goes through acyclicChoice(). The reported dagCost is the exact DAG cost of
// the chosen nodes, not the heuristic estimate.
Extraction extractSharedCost(const ExtractionProblem& problem);

} // namespace tessera::extract
