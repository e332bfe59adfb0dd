// MCTS-guided e-graph construction (PACT'24, after MCTS-GEB): a tree search over which rule to
// apply next, rewarded by the drop in extracted cost, committing one action per step.
//
// State: the e-graph. Action: one rule applied at all its matches, then rebuild and cycle filter
// (mcts/RuleAction.h). Each step runs `simulations` simulations on the live e-graph under
// checkpoints (mcts/MctsPlanner.h), commits the root child with the best mean reward and re-plans
// from there; a pinned rule that changes the committed state is committed without planning, and
// vetoed rules are never applied, not even in simulations. Stops on the node limit
// (SearchOptions::nodeLimit, default 10,000; PACT'24 ran 2,000), `max_steps`, the time limit (final extraction
// included), a stop request, or when no rule changes the committed state ("node_limit", "steps",
// "time_limit", "stopped_by_user", "saturated"). The final graph is extracted with
// SearchOptions::extractMethod; each committed state cheaper than all before it also yields a
// candidate. Parameters (mcts/MctsParameters.h): simulations, rollout_depth, exploration, gamma,
// max_steps, rollout (random | pruned | heavy | lookahead, mcts/RolloutPolicy.h), reward_extract.
// MCTS node ids in events: see mcts/MctsTree.h. With a learned guide (`prior=CKPT`, or one given
// to makeMctsStrategy for self-play) the search is PUCT: c_puct, value_mix, q_norm and prior_floor
// (mcts/MctsPlanner.h, mcts/MctsParameters.h); it checks the time limit before every guided evaluation.
#pragma once

#include "search/Strategy.h"

#include <memory>

namespace tessera {

namespace mcts {
class PriorModel;
}

// `guide`: a learned guide to use instead of the one `prior=CKPT` loads (self-play training).
std::unique_ptr<Strategy> makeMctsStrategy(std::shared_ptr<mcts::PriorModel> guide = {});

} // namespace tessera
