// MCTS-guided e-graph construction (PACT'24, after MCTS-GEB): a tree search over which rule to
// apply next, rewarded by the drop in extracted cost, committing one action per step.
#pragma once

#include "search/Strategy.h"

#include <memory>

namespace tessera {

std::unique_ptr<Strategy> makeMctsStrategy();

} // namespace tessera
