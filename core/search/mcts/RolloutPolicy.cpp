#include "search/mcts/RolloutPolicy.h"

#include <algorithm>
#include <optional>

namespace tessera::mcts {

namespace {
constexpr int kLookaheadWidth = 4;

void erase(std::vector<uint16_t>& live, uint16_t action) { live.erase(std::find(live.begin(), live.end(), action)); }
} // namespace

void RolloutPolicy::learn(const ActionPath& actions, double reward) {
  if (kind_ != RolloutKind::Heavy) return;
  for (uint16_t action : actions) {
    rewardSum_[action] += reward;
    ++rewardCount_[action];
  }
}

uint16_t RolloutPolicy::draw(RolloutContext& context, const std::vector<uint16_t>& live) {
  // Pinned rules lead `live` (ActionSpace order), so the first live action is pinned if any is.
  if (context.actions.pinned[live.front()]) return live.front();
  if (kind_ == RolloutKind::Heavy && std::uniform_int_distribution<int>(0, 1)(context.rng) == 0) {
    uint16_t best = live.front();
    double bestMean = -1;
    for (uint16_t action : live) {
      double mean = rewardCount_[action] ? rewardSum_[action] / rewardCount_[action] : 0.0;
      if (mean > bestMean) {
        bestMean = mean;
        best = action;
      }
    }
    if (bestMean > 0) return best;
  }
  return live[std::uniform_int_distribution<size_t>(0, live.size() - 1)(context.rng)];
}

bool RolloutPolicy::tryAction(RolloutContext& context, uint16_t action, ActionPath& path, bool& full) {
  ++applications_;
  ActionOutcome outcome = applyRuleAction(context.egraph, context.seed.outputs, context.actions.rule(action), context.nodeLimit);
  full = outcome.hitNodeLimit || context.egraph.numNodes() >= context.nodeLimit;
  if (!outcome.changed()) return false;
  path.push_back(action);
  return true;
}

bool RolloutPolicy::lookaheadStep(RolloutContext& context, std::vector<uint16_t>& live, ActionPath& path, bool& full) {
  // Price up to kLookaheadWidth different rules one step ahead, then take the cheapest for real.
  std::vector<uint16_t> pool = live;
  std::optional<uint16_t> best;
  double bestCost = 0;
  for (int tried = 0; tried < kLookaheadWidth && !pool.empty() && !context.shouldStop(); ++tried) {
    uint16_t action = draw(context, pool);
    erase(pool, action);
    EGraph::Checkpoint checkpoint = context.egraph.checkpoint();
    if (tryAction(context, action, path, full)) {
      double cost = context.coster.cost(context.egraph, context.seed, path);
      path.pop_back();
      if (!best || cost < bestCost) {
        best = action;
        bestCost = cost;
      }
    } else {
      erase(live, action); // saturated here, and so for the rest of this rollout
    }
    context.egraph.rollback(checkpoint);
  }
  if (!best) return false;
  return tryAction(context, *best, path, full);
}

void RolloutPolicy::run(RolloutContext& context, int depth, ActionPath& path) {
  std::vector<uint16_t> live = context.actions.order;
  bool full = context.egraph.numNodes() >= context.nodeLimit;
  for (int step = 0; step < depth && !full && !live.empty(); ++step) {
    if (context.shouldStop()) return;
    if (kind_ == RolloutKind::Random) {
      tryAction(context, draw(context, live), path, full);
      continue;
    }
    if (kind_ == RolloutKind::Lookahead) {
      if (!lookaheadStep(context, live, path, full)) return;
      continue;
    }
    // Pruned and heavy: draw until something changes, pruning what does not.
    while (!live.empty() && !context.shouldStop()) {
      uint16_t action = draw(context, live);
      if (tryAction(context, action, path, full)) break;
      erase(live, action);
    }
  }
}

} // namespace tessera::mcts
