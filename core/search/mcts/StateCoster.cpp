#include "search/mcts/StateCoster.h"

#include <chrono>

namespace tessera::mcts {

double StateCoster::cost(const EGraph& egraph, const SeededGraph& seed, const ActionPath& path) {
  auto it = cache_.find(path);
  if (it != cache_.end()) {
    ++hits_;
    return it->second;
  }
  double ms = price(egraph, seed);
  cache_.emplace(path, ms);
  return ms;
}

double StateCoster::price(const EGraph& egraph, const SeededGraph& seed) {
  auto start = std::chrono::steady_clock::now();
  EGraphProblem converted = toExtractionProblem(egraph, seed.outputs, coster_);
  double ms = extract::extract(converted.problem, method_).dagCost;
  lastSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  seconds_ += lastSeconds_;
  ++extractions_;
  return ms;
}

void StateCoster::commit(uint16_t action) {
  std::map<ActionPath, double> kept;
  for (auto& [path, ms] : cache_)
    if (!path.empty() && path.front() == action) kept.emplace(ActionPath(path.begin() + 1, path.end()), ms);
  cache_ = std::move(kept);
}

} // namespace tessera::mcts
