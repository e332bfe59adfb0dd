// Why a search stopped: one vocabulary for the runner, every strategy, the session and the views
// (egg's StopReason, plus the graph-level searches' own limits).
#pragma once

#include <optional>
#include <string_view>

namespace tessera {

enum class StopReason {
  Saturated,      // nothing left to apply (e-graph saturated, all rules saturated, TASO's queue empty)
  NodeLimit,      // e-nodes (eqsat, mcts) or ops (taso) reached the limit
  IterationLimit, // eqsat iterations
  TimeLimit,
  StoppedByUser,
  Budget,         // taso / greedy: graphs popped
  StepLimit,      // mcts: committed steps
};

// The stored spelling: "saturated", "node_limit", "iteration_limit", "time_limit",
// "stopped_by_user", "budget", "steps".
std::string_view stopReasonName(StopReason reason);
std::optional<StopReason> parseStopReason(std::string_view name);

} // namespace tessera
