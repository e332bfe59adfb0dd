// The result every extractor returns, and the functions that judge a choice independently of how
// it was found: its DAG cost, and whether it is complete and acyclic.
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::extract {

struct Extraction {
  std::vector<int32_t> choice; // class id -> chosen node index, -1 where the class is not needed
  double dagCost = 0;          // sum of node costs over distinct chosen classes reachable from the roots
  double seconds = 0;          // wall time of the extractor itself
  std::string method;          // "tree", "ocf", "dag" or "ilp"
  bool provenOptimal = false;  // only the ILP can prove it (and only when it finished in time)
  double lowerBound = 0;       // best proven lower bound on the DAG cost (ILP; 0 when unknown)
};

// Sum of the chosen nodes' costs over the distinct classes reachable from the roots through the
// choice. Shared classes count once. +infinity when a reachable class has no (valid) choice.
double dagCost(const ExtractionProblem& problem, const std::vector<int32_t>& choice);

// Empty when `choice` is a valid extraction: every class reachable from the roots chooses a node of
// its own class, and following the choices never comes back to a class (no cycle). Otherwise one
// sentence naming the first defect found. Iterative: deep e-graphs do not exhaust the stack.
std::string choiceDefect(const ExtractionProblem& problem, const std::vector<int32_t>& choice);
inline bool isValidChoice(const ExtractionProblem& problem, const std::vector<int32_t>& choice) {
  return choiceDefect(problem, choice).empty();
}

// Keeps only the choices of classes reachable from the roots (others become -1), so results of
// different extractors compare entry by entry.
std::vector<int32_t> restrictToReachable(const ExtractionProblem& problem, const std::vector<int32_t>& choice);

} // namespace tessera::extract
