// Dominated e-nodes: another node of the same class costs no more and needs only a subset of its
// child classes. Swapping the dominator in never costs more and adds no edge (so no cycle), so
// extractors may ignore dominated nodes without losing any solution quality.
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <vector>

namespace tessera::extract {

// For each node, a node of its class that dominates it and is itself undominated, or -1. Equal
// nodes are broken by index so exactly one of them survives. Nodes with `eligible[n] == 0` neither
// dominate nor are reported (pass an empty vector to consider all nodes). Classes with more than
// `maxClassSize` nodes are skipped: the pairwise test is quadratic in the class size.
std::vector<int32_t> findDominators(const ExtractionProblem& problem, const std::vector<uint8_t>& eligible = {},
                                    size_t maxClassSize = 512);

} // namespace tessera::extract
