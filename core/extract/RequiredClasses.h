// Classes that every term of a class must contain: the valid inequalities y_k >= y_c that give
// the extraction ILP its strength on e-graphs whose alternatives reconverge.
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::extract {

// For each class c of the model (aliveNodes[c] non-empty), the classes k != c that every term of c
// built from alive nodes contains, keeping only the nearest ones: a required class that another
// class required by c also requires is left out, since y_k >= y_j >= y_c follows from the rows of j.
// Required(c) = intersection over c's alive nodes of the union over their child classes k of
// {k} and Required(k), computed in one bottom-up pass; a child met before its own entry (on a
// cycle) contributes only itself, so every listed class really is required (the sets may only be
// smaller than the exact ones). Empty lists for all classes when the model has more than
// `maxClasses` classes (the pass keeps one bit per pair of classes).
std::vector<std::vector<uint32_t>> nearestRequiredClasses(const ExtractionProblem& problem,
                                                          const std::vector<std::vector<uint32_t>>& aliveNodes,
                                                          size_t maxClasses = 16384);

} // namespace tessera::extract
