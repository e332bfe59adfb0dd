// egg's greedy extractor: each class takes the node with the least tree cost (own cost plus the
// children's best tree costs). Fast, but a subterm used twice is paid twice.
#pragma once

#include "extract/Extraction.h"

namespace tessera::extract {

// Fixpoint over the classes below the roots (bottom-up order, repeated until nothing improves);
// nodes whose children have no finite cost yet are skipped, which is how cycles are avoided: with
// costs >= 0 and strict improvement only, the chosen nodes never form a cycle.
// Throws tessera::Error when a root has no acyclic term.
Extraction extractTree(const ExtractionProblem& problem);

// The tree cost of each class's best term (+inf where none exists); for tests and for the views.
std::vector<double> treeCosts(const ExtractionProblem& problem);

// The node each class prefers under tree cost (-1 where no term), for extractors that already
// validated the problem and computed bottomUpClassOrder(); a valid choice by the argument above.
std::vector<int32_t> treePreferences(const ExtractionProblem& problem, const std::vector<uint32_t>& order);

} // namespace tessera::extract
