#include "search/mcts/StateCoster.h"

#include <cassert>
#include <chrono>

namespace tessera::mcts {

double StateCoster::cost(const EGraph& egraph, const SeededGraph& seed, const ActionPath& path) {
  kept_.reset();
  if (const double* known = cache_.find(path)) {
    ++hits_;
    return *known;
  }
  Extracted state = extractState(egraph, seed);
  const double ms = state.extraction.dagCost;
  cache_.insert(path, ms);
  if (keepExtractions_ && method_ == extract::ExtractionMethod::DagGreedy) kept_ = KeptExtraction{path, egraph.numNodes(), std::move(state)};
  return ms;
}

double StateCoster::price(const EGraph& egraph, const SeededGraph& seed) {
  kept_.reset();
  return extractState(egraph, seed).extraction.dagCost;
}

StateCoster::Extracted StateCoster::extractState(const EGraph& egraph, const SeededGraph& seed) {
  auto start = std::chrono::steady_clock::now();
  Extracted state;
  state.converted = toExtractionProblem(egraph, seed.outputs, coster_);
  state.extraction = extract::extract(state.converted.problem, method_);
  lastSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  seconds_ += lastSeconds_;
  ++extractions_;
  return state;
}

std::optional<ExtractedGraph> StateCoster::lastExtraction(const EGraph& egraph, const SeededGraph& seed, const ActionPath& path) const {
  if (!kept_ || kept_->path != path) return std::nullopt;
  assert(kept_->enodes == egraph.numNodes() && "the e-graph changed since its state was extracted");
  ExtractedGraph extracted;
  const Extracted& state = kept_->state;
  extracted.graph = graphFromProblemChoice(egraph, seed, state.converted, state.extraction.choice, &extracted.sources);
  extracted.dagCostMs = state.extraction.dagCost;
  extracted.method = state.extraction.method;
  return extracted;
}

void StateCoster::commit(uint16_t action) {
  kept_.reset();
  cache_.commit(action);
}

void StateCoster::forgetStates() {
  kept_.reset();
  cache_.clear();
}

} // namespace tessera::mcts
