// Test helpers for extraction: a terse builder for hand-made problems, a random problem generator
// and a brute-force optimum that enumerates every choice (ground truth for small problems).
#pragma once

#include "extract/ExtractionProblem.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tessera::extract::test {

class ProblemBuilder {
public:
  uint32_t addClass() { return classes_++; }
  // Adds a node to `eclass` and returns its index.
  uint32_t addNode(uint32_t eclass, double cost, std::vector<uint32_t> children = {}, std::string op = "op") {
    problem_.nodes.push_back({std::move(op), cost, eclass, std::move(children)});
    return static_cast<uint32_t>(problem_.nodes.size() - 1);
  }
  void addRoot(uint32_t eclass) { problem_.roots.push_back(eclass); }
  ExtractionProblem build() const {
    ExtractionProblem result = problem_;
    indexClasses(result);
    result.classNodes.resize(std::max<size_t>(result.classNodes.size(), classes_));
    return result;
  }

private:
  ExtractionProblem problem_;
  uint32_t classes_ = 0;
};

struct RandomProblemShape {
  uint32_t classes = 6;
  uint32_t maxNodesPerClass = 3;
  uint32_t maxChildren = 3;
  double backEdgeProbability = 0; // > 0 allows children at or below the own class index (cycles)
  int maxCost = 10;               // integer costs in [0, maxCost]
};

// Class 0 is the root; without back edges children always have a higher index, so the problem is
// acyclic and the last class (all leaves) guarantees every class has a term.
ExtractionProblem randomProblem(std::mt19937& rng, const RandomProblemShape& shape);

// Shaped like a rewritten network: a chain of ops (class i uses i-1, sometimes a residual input
// further back), where about half the ops also have "fused" alternatives that skip a class and cost
// 0.6-1.15x the pair they replace. Sharing makes it hard for greedies and for the ILP alike.
ExtractionProblem layeredProblem(std::mt19937& rng, uint32_t layers);

struct BruteForceResult {
  double cost = std::numeric_limits<double>::infinity(); // +inf when no valid extraction exists
  std::vector<int32_t> choice;
};

// Enumerates every combination of one node per class (product of class sizes; keep it small).
BruteForceResult bruteForceOptimum(const ExtractionProblem& problem);

} // namespace tessera::extract::test
