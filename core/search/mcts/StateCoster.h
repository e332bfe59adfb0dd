// Prices e-graph states for MCTS rewards with a fast extraction of the whole e-graph, remembering
// each state's cost by the actions that led to it from the committed root: the same action
// sequence from the same state always builds the same e-graph, so a repeated state is never
// extracted twice.
#pragma once

#include "extract/Extractors.h"
#include "search/EGraphExtraction.h"

#include <cstdint>
#include <map>
#include <vector>

namespace tessera::mcts {

using ActionPath = std::vector<uint16_t>; // rule indices, in the order they changed the e-graph

class StateCoster {
public:
  StateCoster(CostModel& model, extract::ExtractionMethod method) : coster_(model), method_(method) {}

  // The DAG cost of the current e-graph's extraction; `path` names the state (from the committed root).
  double cost(const EGraph& egraph, const SeededGraph& seed, const ActionPath& path);
  // Uncached, for states that are never revisited.
  double price(const EGraph& egraph, const SeededGraph& seed);
  // The committed root moved along `action`: keep the states below it, re-rooted, drop the rest.
  void commit(uint16_t action);
  // A new e-graph (a rebase): no state of the old one is a state of the new one.
  void forgetStates() { cache_.clear(); }

  ENodeCoster& enodeCoster() { return coster_; }
  extract::ExtractionMethod method() const { return method_; }
  size_t extractions() const { return extractions_; }
  size_t cacheHits() const { return hits_; }
  double seconds() const { return seconds_; }
  double lastSeconds() const { return lastSeconds_; }

private:
  ENodeCoster coster_;
  extract::ExtractionMethod method_;
  std::map<ActionPath, double> cache_; // ordered: commit() walks it deterministically
  size_t extractions_ = 0, hits_ = 0;
  double seconds_ = 0, lastSeconds_ = 0;
};

} // namespace tessera::mcts
