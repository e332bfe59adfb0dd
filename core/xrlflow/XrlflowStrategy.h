// X-RLflow (He, Parker, Yoneki, MLSys'23) as a search strategy: a trained agent rewrites the
// model one whole-graph rewrite at a time, taking the most probable action of its policy (argmax)
// in the RL environment (rl/RewriteEnvironment.h), leaving out rewrites back to a graph it has
// already visited (argmax would loop), until it chooses stop, no rewrite is left, or `max_steps`.
// Unlike greedy it may take a rewrite that costs more now to reach a cheaper graph.
// Every graph on the way that is cheaper than all before it is a candidate; the best one wins.
//
// Parameters: checkpoint (default: the agent shipped in resources/agents/xrlflow.ckpt),
// max_steps (default 250). Vetoed rules are never listed; when a
// pinned rule has candidates, the agent chooses among those. Stop reasons: "saturated" (the agent
// chose stop, or no rewrite is left), "steps", "time_limit", "stopped_by_user".
// SearchResult: steps = rewrites taken, enodes = rewrites priced, rulesApplied = the rewrites on
// the path to the best graph. Deterministic for a checkpoint.
#pragma once

#include "search/Strategy.h"

#include <memory>
#include <string>

namespace tessera {

std::unique_ptr<Strategy> makeXrlflowStrategy();

// Makes "xrlflow" known to makeStrategy (core/search cannot name an area above it).
void registerXrlflowStrategy();

// The agent shipped with Tessera.
std::string defaultXrlflowCheckpoint();

} // namespace tessera
