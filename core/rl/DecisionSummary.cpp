#include "rl/DecisionSummary.h"

#include "rl/RewriteEnvironment.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <vector>

namespace tessera {

OriginalOps::OriginalOps(const Graph& original) {
  for (NodeId id = 0; id < original.size(); ++id)
    if (!original.node(id).name.empty()) byName_.emplace(original.node(id).name, id);
}

std::optional<NodeId> OriginalOps::find(const Graph& graph, NodeId node) const {
  const std::string& name = graph.node(node).name;
  if (name.empty()) return std::nullopt;
  auto found = byName_.find(name);
  if (found == byName_.end()) return std::nullopt;
  return found->second;
}

AgentDecided summarizeDecision(int step, double value, std::span<const float> probabilities, size_t chosen,
                               const RewriteEnvironment& environment, const OriginalOps& original, size_t topN) {
  const std::vector<RewriteCandidate>& candidates = environment.candidates();
  assert(probabilities.size() == candidates.size() + 1 && "one probability per candidate and stop");
  assert(chosen <= candidates.size() && "the chosen action is a candidate or stop");
  assert(topN >= 1 && "the chosen action needs a place");

  std::vector<size_t> order(probabilities.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return probabilities[a] > probabilities[b]; });
  if (order.size() > topN) {
    order.resize(topN);
    // A chosen action outside the top N is what a reader most needs to see: it takes the last place.
    if (std::find(order.begin(), order.end(), chosen) == order.end()) order.back() = chosen;
  }

  AgentDecided decision;
  decision.step = step;
  decision.value = value;
  decision.listed = static_cast<uint32_t>(probabilities.size());
  for (size_t action : order) {
    if (action == chosen) decision.chosen = static_cast<int>(decision.candidates.size());
    AgentCandidate entry;
    entry.probability = probabilities[action];
    if (action == environment.stopAction()) {
      entry.rule = std::string(kAgentStopAction);
    } else {
      const RewriteCandidate& candidate = candidates[action];
      entry.rule = environment.rule(candidate.ruleIndex).name();
      entry.location.assign(candidate.location.begin(), candidate.location.end());
      for (NodeId node : candidate.location)
        if (std::optional<NodeId> id = original.find(environment.graph(), node)) entry.originalOps.push_back(*id);
      entry.costDeltaMs = candidate.costMs - environment.costMs();
    }
    decision.candidates.push_back(std::move(entry));
  }
  return decision;
}

} // namespace tessera
