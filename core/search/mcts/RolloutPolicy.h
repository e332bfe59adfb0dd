// How a simulation continues past the tree: up to `rollout_depth` more rule applications on the
// live e-graph (rolled back with the rest of the simulation). Pinned rules go first wherever they
// still change something; vetoed rules are never tried.
//   random    - any allowed rule, uniformly; a rule that changes nothing still spends the step.
//   pruned    - uniformly among the rules not yet seen saturated in this rollout; a rule that
//               changes nothing is pruned and another drawn, so every step changes the e-graph.
//   heavy     - pruned, but half of the draws take the rule with the best average reward so far in
//               this run (MAST, the move-average sampling technique), learned from every backup.
//   lookahead - pruned, but each step tries up to four drawn rules, prices each resulting state
//               and keeps the cheapest (four extractions a step: the slowest, the least noisy).
#pragma once

#include "search/mcts/MctsParameters.h"
#include "search/mcts/RuleAction.h"
#include "search/mcts/StateCoster.h"

#include <functional>
#include <random>

namespace tessera::mcts {

struct RolloutContext {
  EGraph& egraph;
  const SeededGraph& seed;
  const ActionSpace& actions;
  size_t nodeLimit;
  StateCoster& coster;
  std::mt19937_64& rng;
  std::function<bool()> shouldStop; // stop requested or out of time
};

class RolloutPolicy {
public:
  RolloutPolicy(RolloutKind kind, size_t actionCount) : kind_(kind), rewardSum_(actionCount, 0.0), rewardCount_(actionCount, 0) {}

  // Applies up to `depth` actions from the current state, appending each that changed the
  // e-graph to `path` (the state's name from the committed root).
  void run(RolloutContext& context, int depth, ActionPath& path);
  // Heavy rollouts learn which rules pay: every action of a finished simulation shares its reward.
  void learn(const ActionPath& actions, double reward);
  size_t applications() const { return applications_; }

private:
  uint16_t draw(RolloutContext& context, const std::vector<uint16_t>& live);
  bool tryAction(RolloutContext& context, uint16_t action, ActionPath& path, bool& full);
  bool lookaheadStep(RolloutContext& context, std::vector<uint16_t>& live, ActionPath& path, bool& full);

  RolloutKind kind_;
  std::vector<double> rewardSum_;
  std::vector<uint32_t> rewardCount_;
  size_t applications_ = 0;
};

} // namespace tessera::mcts
