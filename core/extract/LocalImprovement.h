// Hill climbing on a finished extraction: change one class's node, or several classes' nodes
// together, whenever that lowers the DAG cost of the whole extraction. It finds sharing the
// greedies cannot see, because they price each class alone (e.g. two classes that both become
// cheaper by using a third, or that only pay off when both switch to share a new one).
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <vector>

namespace tessera::extract {

// Tries, for every class the extraction uses, every other node of that class (first improvement,
// repeated until a whole round finds none). When no single swap helps, joint moves: for each
// sharing point (a class outside the extraction that nodes of two or more classes use), the used
// classes with a node leading up to it switch together, cheapest alone first, and the best prefix
// of two or more swaps is taken if it lowers the cost; then single swaps again, and so on. Classes
// a new node needs that the extraction does not use take their node from `background` (a choice
// for as many classes as possible, e.g. a greedy's full state), except on the way from a joint
// move's nodes down to its sharing point. A move is priced incrementally with reference counts
// (only the classes that join or leave the extraction are visited) and rejected when it would
// close a cycle or not lower the cost. `workBudget` caps the number of class visits so big
// e-graphs stay fast. Returns a valid choice (restricted to what the roots reach) with DAG cost no
// higher than `choice`'s. `choice` must be valid. Dominated nodes are not tried. `dominators`
// (findDominators()) and `flat` (flatten()) may be passed when at hand; empty / null: computed
// here. `finalCost`, when given, receives the result's DAG cost. Deterministic.
std::vector<int32_t> improveBySwaps(const ExtractionProblem& problem, std::vector<int32_t> choice,
                                    const std::vector<int32_t>& background, uint64_t workBudget,
                                    std::vector<int32_t> dominators = {}, const FlatProblem* flat = nullptr,
                                    double* finalCost = nullptr);

} // namespace tessera::extract
