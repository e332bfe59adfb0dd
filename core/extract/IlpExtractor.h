// Exact extraction on DAG cost: a 0/1 integer program solved with CBC, warm-started from the DAG
// greedy, with acyclicity enforced by level variables where cycles are possible.
#pragma once

#include "extract/Extraction.h"

namespace tessera::extract {

struct IlpOptions {
  double timeLimitSeconds = 0; // wall clock for the whole call; <= 0 means no limit
  bool warmStart = true;       // give CBC the DAG greedy's solution as its first incumbent
  bool presolve = true;        // dominance and bound pruning (reduceForIlp); off only to compare
};

// The model (x_n binary per e-node, cost = sum cost_n x_n; y_c = sum_{n in c} x_n):
//   - y_c = 1 for each root class, y_c <= 1 for every other class;
//   - a chosen node's child classes are chosen: for each class c and child class k of its nodes,
//     y_k >= u_ck = sum of x_n over the nodes n of c that have k as a child;
//   - valid inequalities y_k >= y_c for the classes k every term of c must contain
//     (RequiredClasses.h), offered to CBC as cuts: they change no integer solution but lift the
//     LP bound;
//   - acyclicity only where a cycle is possible, i.e. inside strongly connected components of the
//     class graph: a level l_c in [0, |SCC|-1] per such class and, for each class c with child
//     class k in the same SCC, l_c - l_k >= 1 - |SCC| (1 - u_ck) (big-M ordering).
// Before building it, reduceForIlp() (IlpReduction.h) drops self loops, dominated nodes and nodes
// that cannot be part of a solution cheaper than the greedy's, then what can no longer be built or
// reached. On an acyclic e-graph no level variable exists. The warm start is the `dag` greedy with
// ten times its default swap budget (dominated nodes swapped for their dominators).
// Deterministic (one thread, fixed seeds) unless the time limit cuts the search. When the limit
// is hit the best incumbent is returned with provenOptimal = false and CBC's lower bound. The limit
// covers the whole call, but CBC only looks at its clock between steps (the root LP and a root cut
// round run to completion), so large e-graphs can overrun it by a second or two.
Extraction extractIlp(const ExtractionProblem& problem, const IlpOptions& options = {});

} // namespace tessera::extract
