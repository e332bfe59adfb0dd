// Turns per-class preferences (which may form cycles) into a valid extraction: the safety net the
// greedy extractors end with, since only the tree greedy is acyclic by construction.
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <vector>

namespace tessera::extract {

// Resolves classes bottom-up (Kahn's algorithm over e-nodes): a class takes its preferred node as
// soon as all of that node's child classes are resolved. When no preferred node can proceed (the
// preferences form a cycle, or depend on one), the ready alternative with the lowest `nodeScore`
// is taken instead. The result is acyclic by construction and equals `preferred` wherever the
// preferences are acyclic; it is restricted to the classes reachable from the roots.
// Throws tessera::Error when a root class has no acyclic term at all.
// `preferred`: class -> node or -1 (no preference); `nodeScore`: per node, lower is better.
std::vector<int32_t> acyclicChoice(const ExtractionProblem& problem, const std::vector<int32_t>& preferred,
                                   const std::vector<double>& nodeScore);

// `preferred` restricted to the reachable classes when that is already a valid extraction (the usual
// case, checked in linear time), otherwise acyclicChoice(). What every greedy extractor ends with.
std::vector<int32_t> validChoiceFrom(const ExtractionProblem& problem, const std::vector<int32_t>& preferred,
                                     const std::vector<double>& nodeScore);

} // namespace tessera::extract
