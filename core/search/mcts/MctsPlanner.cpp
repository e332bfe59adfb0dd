#include "search/mcts/MctsPlanner.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessera::mcts {

std::vector<uint16_t> MctsPlanner::shuffledActions(std::vector<uint16_t> actions) {
  std::shuffle(actions.begin(), actions.end(), c_.rng);
  return actions;
}

int MctsPlanner::plan(uint32_t root) {
  valueBounds_ = ValueBounds(); // rewards count from this step's root
  int done = 0;
  while (done < c_.params.simulations && simulate(root)) ++done;
  keepApplied(0);
  return done;
}

void MctsPlanner::keepApplied(size_t depth) {
  if (applied_.size() <= depth) return;
  c_.egraph.rollback(applied_[depth].before);
  applied_.resize(depth);
}

uint16_t MctsPlanner::nextUntried(const MctsNode& node, const ActionSpace& space) {
  // Pinned actions first; vetoed ones stay untried in case the veto is lifted.
  const std::vector<uint16_t>& untried = node.untried;
  auto next = std::find_if(untried.begin(), untried.end(), [&](uint16_t a) { return space.pinned[a]; });
  if (next == untried.end()) next = std::find_if(untried.begin(), untried.end(), [&](uint16_t a) { return space.allowed[a]; });
  return next == untried.end() ? kNoAction : *next;
}

bool MctsPlanner::expandBeforeDescending(uint32_t id, uint32_t best, const ActionSpace& space) const {
  const MctsNode& node = c_.tree.node(id);
  const uint16_t next = nextUntried(node, space);
  if (next == kNoAction) return false;
  if (best == MctsTree::kNone || space.pinned[next]) return true;
  const double prior = node.actionPriors.empty() ? 0.0 : node.actionPriors[next];
  const MctsNode& child = c_.tree.node(best);
  return MctsTree::puctScore(0.0, prior, node.visits, 0, c_.params.cPuct) >
         MctsTree::puctScore(selectionValue(child), child.prior, node.visits, child.visits, c_.params.cPuct);
}

double MctsPlanner::selectionValue(const MctsNode& node) const {
  return c_.params.normaliseQ ? valueBounds_.normalised(node.meanValue()) : node.meanValue();
}

uint32_t MctsPlanner::expand(uint32_t id, const ActionSpace& space) {
  // One frame for all attempts: an action that changes nothing leaves the e-graph as it was.
  const EGraph::Checkpoint before = c_.egraph.checkpoint();
  for (;;) {
    std::vector<uint16_t>& untried = c_.tree.node(id).untried;
    const uint16_t action = nextUntried(c_.tree.node(id), space);
    if (action == kNoAction) {
      c_.egraph.rollback(before);
      return MctsTree::kNone;
    }
    untried.erase(std::find(untried.begin(), untried.end(), action));

    ActionOutcome outcome = applyRuleAction(c_.egraph, c_.seed.outputs, space.rule(action), c_.params.nodeLimit);
    if (!outcome.changed()) continue; // saturated in this state: pruned from this node's actions
    path_.push_back(action);
    const uint32_t child = c_.tree.addChild(id, action, c_.egraph.numNodes());
    applied_.push_back({child, before});
    MctsNode& node = c_.tree.node(child);
    const std::vector<float>& parentPriors = c_.tree.node(id).actionPriors;
    if (!parentPriors.empty()) node.prior = parentPriors[action];
    node.full = outcome.hitNodeLimit || c_.egraph.numNodes() >= c_.params.nodeLimit;
    node.stateCost = c_.coster.cost(c_.egraph, c_.seed, path_);
    if (!node.full) {
      std::vector<uint16_t> all(space.rules.size());
      std::iota(all.begin(), all.end(), uint16_t{0});
      node.untried = shuffledActions(std::move(all));
      if (c_.guide && !c_.guide(child, path_)) guideStopped_ = true;
    }
    if (c_.events.wants(EventKind::MctsNodeCreated)) {
      MctsNodeCreated created{child, id, space.rule(action).name(), node.depth, node.enodes};
      if (!parentPriors.empty()) created.prior = node.prior;
      c_.events.publish(std::move(created));
    }
    return child;
  }
}

bool MctsPlanner::simulate(uint32_t root) {
  if (c_.shouldStop()) return false;
  const ActionSpace& space = c_.actions();
  auto allowed = [&](uint16_t action) { return space.allowed[action]; };
  path_.clear();
  nodePath_.assign(1, root);

  // Selection and expansion: descend through fully expanded nodes, expand the first that is not.
  uint32_t id = root;
  while (!c_.tree.node(id).full) {
    if (c_.shouldStop()) {
      keepApplied(0);
      return false;
    }
    keepApplied(path_.size()); // the e-graph must hold exactly this node's state
    const uint32_t puctChoice =
        c_.guide ? c_.tree.selectPuctChild(id, c_.params.cPuct, allowed, c_.params.normaliseQ ? &valueBounds_ : nullptr) : MctsTree::kNone;
    uint32_t child = !c_.guide || expandBeforeDescending(id, puctChoice, space) ? expand(id, space) : MctsTree::kNone;
    if (child != MctsTree::kNone) {
      nodePath_.push_back(child);
      id = child;
      break;
    }
    child = c_.guide ? puctChoice : c_.tree.selectChild(id, c_.params.exploration, allowed);
    if (child == MctsTree::kNone) break; // every action is saturated here
    const uint16_t action = c_.tree.node(child).action;
    const size_t depth = path_.size();
    if (applied_.size() <= depth || applied_[depth].node != child) {
      keepApplied(depth);
      const EGraph::Checkpoint before = c_.egraph.checkpoint();
      applyRuleAction(c_.egraph, c_.seed.outputs, space.rule(action), c_.params.nodeLimit);
      applied_.push_back({child, before});
    }
    path_.push_back(action);
    nodePath_.push_back(child);
    id = child;
  }
  if (guideStopped_) {
    // Out of time (or stopped) with the leaf unread: no value to back up, and no more work.
    guideStopped_ = false;
    keepApplied(0);
    return false;
  }
  keepApplied(path_.size());
  if (c_.events.wants(EventKind::MctsNodeVisited))
    for (uint32_t visited : nodePath_) c_.events.publish(MctsNodeVisited{visited});

  // Rollout, then the cheapest state of the trajectory.
  const size_t treeDepth = path_.size();
  const EGraph::Checkpoint beforeRollout = c_.egraph.checkpoint();
  const double valueMix = c_.guide ? c_.params.valueMix : 0.0;
  if (!c_.tree.node(id).full && valueMix < 1.0) {
    RolloutContext rollout{c_.egraph, c_.seed, space, c_.params.nodeLimit, c_.coster, c_.rng, c_.shouldStop};
    c_.rollout.run(rollout, c_.params.rolloutDepth, path_);
  }
  const double rootCost = c_.tree.node(root).stateCost;
  double bestCost = rootCost;
  size_t bestDepth = 0;
  for (size_t k = 1; k < nodePath_.size(); ++k) {
    double cost = c_.tree.node(nodePath_[k]).stateCost;
    if (cost < bestCost) {
      bestCost = cost;
      bestDepth = k;
    }
  }
  if (path_.size() > treeDepth) {
    double endCost = c_.coster.cost(c_.egraph, c_.seed, path_);
    if (endCost < bestCost) {
      bestCost = endCost;
      bestDepth = path_.size();
    }
  }
  c_.egraph.rollback(beforeRollout);

  double reward = std::pow(c_.params.gamma, static_cast<double>(bestDepth)) * std::max(rootCost - bestCost, 0.0) * c_.rewardScale;
  if (valueMix > 0) {
    // The guide's value of the leaf stands in for (a share of) the rollout, as AlphaGo's mix.
    double treeCost = rootCost;
    size_t treeDepthOfBest = 0;
    for (size_t k = 1; k < nodePath_.size(); ++k)
      if (c_.tree.node(nodePath_[k]).stateCost < treeCost) {
        treeCost = c_.tree.node(nodePath_[k]).stateCost;
        treeDepthOfBest = k;
      }
    const MctsNode& leaf = c_.tree.node(id);
    const double treeReward = std::pow(c_.params.gamma, static_cast<double>(treeDepthOfBest)) * std::max(rootCost - treeCost, 0.0) * c_.rewardScale;
    const double leafValue = std::pow(c_.params.gamma, static_cast<double>(nodePath_.size() - 1)) *
                             ((rootCost - leaf.stateCost) * c_.rewardScale + (leaf.full ? 0.0 : leaf.guideValue));
    reward = (1 - valueMix) * reward + valueMix * std::max(treeReward, leafValue);
  }
  backup(nodePath_, reward);
  c_.rollout.learn(path_, reward);
  return true;
}

void MctsPlanner::backup(const std::vector<uint32_t>& nodePath, double reward) {
  const bool report = c_.events.wants(EventKind::MctsBackedUp);
  for (auto it = nodePath.rbegin(); it != nodePath.rend(); ++it) {
    MctsNode& node = c_.tree.node(*it);
    ++node.visits;
    node.totalValue += reward;
    if (c_.params.normaliseQ) valueBounds_.include(node.meanValue());
    if (report) c_.events.publish(MctsBackedUp{node.id, node.visits, node.totalValue, reward});
  }
}

} // namespace tessera::mcts
