// Distinct graphs one model's e-graph can produce, to judge a cost model against the device
// (`costs accuracy`): the original, the cheapest by the cost model, and random extractions, some
// near the cheapest (node costs perturbed a little), some far from it (perturbed a lot, or a
// random node preferred in every class). Distinct means structurally different (GraphSet).
#pragma once

#include "cost/CostModel.h"
#include "ir/Graph.h"
#include "rewrite/Rule.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

struct CandidateSamplerOptions {
  size_t count = 8;               // graphs wanted, the original and the cheapest included
  uint64_t seed = 1;
  size_t nodeLimit = 5000;        // of the saturation that grows the e-graph
  double timeLimitSeconds = 30;
  int iterationLimit = 15;
  size_t attemptsPerCandidate = 20; // random extractions tried per graph still missing
  std::function<void(const std::string&)> progress;
};

struct SampledCandidate {
  std::string label; // "original", "optimised", "random 3 (perturbed x2.0)", ...
  Graph graph;
};

// Fewer than `count` graphs when the e-graph has fewer distinct extractions (or the attempts run
// out). Deterministic for a seed and a deterministic cost model. Throws tessera::Error when the
// model cannot be put into an e-graph.
std::vector<SampledCandidate> sampleCandidates(const Graph& original, std::span<const Rule* const> rules, CostModel& cost,
                                               const CandidateSamplerOptions& options);

} // namespace tessera
