// Event logs for replay and live-view tests: a real equality-saturation run on a bundled model, and
// synthetic MCTS sequences shaped like the MCTS strategy's (created, visited, backed up, committed).
#pragma once

#include "events/Event.h"

#include <string>
#include <vector>

namespace tessera::recorded {

// Runs `strategy` on samples/<model>.onnx with the analytic cost model and records every event.
std::vector<Event> recordSearchRun(const std::string& strategy, const std::string& model, size_t nodeLimit,
                                   double timeLimitSeconds = 20, const std::string& extractMethod = "dag");
inline std::vector<Event> recordEqsatRun(const std::string& model, size_t nodeLimit = 2000) {
  return recordSearchRun("eqsat", model, nodeLimit);
}

// A synthetic MCTS log: `steps` committed steps, each planned with `simulations` simulations that
// expand a node under the current root, visit the path and back a reward up. Deterministic.
std::vector<Event> syntheticMctsRun(int steps, int simulations, uint64_t seed = 7);

} // namespace tessera::recorded
