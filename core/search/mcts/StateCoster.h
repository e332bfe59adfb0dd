// Prices e-graph states for MCTS rewards with a fast extraction of the whole e-graph, remembering
// each state's cost by the actions that led to it from the committed root (PathCache.h), so a
// repeated state is never extracted twice. A guided search (PUCT) also keeps the last extraction,
// so the guide reads the leaf's graph from it instead of extracting the same e-graph again.
#pragma once

#include "extract/Extractors.h"
#include "search/EGraphExtraction.h"
#include "search/mcts/PathCache.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::mcts {

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
  void forgetStates();

  // From now on keep the last extraction cost() runs (a guided search reads the leaf's graph from it).
  void keepExtractions() { keepExtractions_ = true; }
  // The graph of the DAG greedy extraction the last cost() call ran, when that call was for `path`,
  // extracted (no cache hit) by the DAG greedy, and the e-graph has not changed since: call it
  // before anything else changes the e-graph. Empty otherwise. It equals a fresh
  // extractGraph(egraph, seed, enodeCoster(), "dag") of the state.
  std::optional<ExtractedGraph> lastExtraction(const EGraph& egraph, const SeededGraph& seed, const ActionPath& path) const;

  ENodeCoster& enodeCoster() { return coster_; }
  extract::ExtractionMethod method() const { return method_; }
  size_t extractions() const { return extractions_; }
  size_t cacheHits() const { return hits_; }
  double seconds() const { return seconds_; }
  double lastSeconds() const { return lastSeconds_; }

private:
  struct Extracted {
    EGraphProblem converted;
    extract::Extraction extraction;
  };
  struct KeptExtraction {
    ActionPath path;
    size_t enodes = 0; // the e-graph's size when it was extracted: a cheap check that it still holds that state
    Extracted state;
  };
  Extracted extractState(const EGraph& egraph, const SeededGraph& seed);

  ENodeCoster coster_;
  extract::ExtractionMethod method_;
  PathCache<double> cache_;
  bool keepExtractions_ = false;
  std::optional<KeptExtraction> kept_;
  size_t extractions_ = 0, hits_ = 0;
  double seconds_ = 0, lastSeconds_ = 0;
};

} // namespace tessera::mcts
