// What an agent's decision looks like from outside: the AgentDecided event a strategy publishes
// (the top candidates with their probabilities, the value estimate, the action taken), built from
// the environment the agent acted in. Kept apart from the agent so it needs no libtorch.
#pragma once

#include "events/Event.h"

#include "ir/Graph.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

namespace tessera {

class RewriteEnvironment;

// Finds a rewritten graph's ops in the model it started from. Rewriting keeps the names of the
// model's ops it leaves alone and gives new ops none, so a name identifies an op across steps.
class OriginalOps {
public:
  explicit OriginalOps(const Graph& original);
  // The original's id of `graph`'s op `node`; nullopt for an op an earlier rewrite made.
  std::optional<NodeId> find(const Graph& graph, NodeId node) const;

private:
  std::unordered_map<std::string, NodeId> byName_;
};

// `probabilities` holds one entry per action of `environment`'s current state (its candidates,
// then stop); `chosen` is the action taken, which may differ from the most probable one (a rewrite
// back to a visited graph, a pinned rule). At most `topN` candidates, most probable first (ties by
// action order), the chosen one always among them; each location also as `original`'s ids.
AgentDecided summarizeDecision(int step, double value, std::span<const float> probabilities, size_t chosen,
                               const RewriteEnvironment& environment, const OriginalOps& original,
                               size_t topN = kAgentDecisionTopN);

} // namespace tessera
