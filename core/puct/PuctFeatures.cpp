#include "puct/PuctFeatures.h"

#include "cost/GraphCost.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace tessera {

PuctInput observeSearchState(const mcts::SearchState& state) {
  PuctInput input;
  std::optional<ExtractedGraph> fresh;
  if (!state.extraction) fresh = extractGraph(state.egraph, state.seed, state.enodeCoster, "dag");
  const ExtractedGraph& extracted = state.extraction ? *state.extraction : *fresh;
  const double original = state.originalCostMs > 0 ? state.originalCostMs : 1.0;
  input.stateSpeedupPct = 100.0 * (original - extracted.dagCostMs) / original;
  EpisodeProgress progress;
  progress.initialCostMs = original;
  std::vector<int32_t> rowOfNode;
  input.observation.graph = observeGraph(extracted.graph, graphCost(extracted.graph, state.cost), progress, rowOfNode);

  const size_t rules = state.space.rules.size();
  if (state.matches.size() != rules) throw Error("puct: the search gave match counts of another action space");
  input.ruleFeatures.assign(rules * kPuctRuleFeatures, 0.0f);
  input.canAct.assign(rules, 0);
  for (size_t r = 0; r < rules; ++r) {
    const auto action = static_cast<uint16_t>(r);
    const size_t matches = state.space.allowed[action] ? state.matches[r] : 0;
    const uint32_t applied = r < state.timesApplied.size() ? state.timesApplied[r] : 0;
    float* features = &input.ruleFeatures[r * kPuctRuleFeatures];
    features[0] = static_cast<float>(std::log1p(static_cast<double>(matches)) / 5.0);
    features[1] = static_cast<float>(std::log1p(static_cast<double>(applied)) / 3.0);
    features[2] = matches > 0 ? 1.0f : 0.0f;
    input.canAct[r] = matches > 0 ? 1 : 0;
  }
  input.stateFeatures = {static_cast<float>(static_cast<double>(state.egraph.numNodes()) / static_cast<double>(std::max<size_t>(state.nodeLimit, 1))),
                         static_cast<float>(std::max(0.0, 1.0 - static_cast<double>(state.step) / std::max(state.maxSteps, 1)))};
  return input;
}

} // namespace tessera
