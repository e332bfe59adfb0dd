#include "search/mcts/MctsTree.h"

#include <algorithm>

namespace tessera::mcts {

uint32_t MctsTree::addRoot(size_t enodes) {
  MctsNode root;
  root.id = static_cast<uint32_t>(nodes_.size());
  root.parent = root.id;
  root.enodes = enodes;
  nodes_.push_back(std::move(root));
  return nodes_.back().id;
}

uint32_t MctsTree::addChild(uint32_t parent, uint16_t action, size_t enodes) {
  MctsNode child;
  child.id = static_cast<uint32_t>(nodes_.size());
  child.parent = parent;
  child.action = action;
  child.depth = nodes_[parent].depth + 1;
  child.enodes = enodes;
  nodes_.push_back(std::move(child));
  nodes_[parent].children.push_back(nodes_.back().id);
  return nodes_.back().id;
}

uint32_t MctsTree::selectChild(uint32_t id, double exploration, const std::function<bool(uint16_t)>& allowed) const {
  const MctsNode& parent = nodes_[id];
  const double logVisits = std::log(std::max<uint32_t>(parent.visits, 1));
  uint32_t best = kNone;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (uint32_t childId : parent.children) {
    const MctsNode& child = nodes_[childId];
    if (!allowed(child.action)) continue;
    // Every child is visited by the simulation that created it, so visits > 0 here.
    double score = child.meanValue() + exploration * std::sqrt(logVisits / std::max<uint32_t>(child.visits, 1));
    if (score > bestScore) {
      bestScore = score;
      best = childId;
    }
  }
  return best;
}

uint32_t MctsTree::selectPuctChild(uint32_t id, double cPuct, const std::function<bool(uint16_t)>& allowed,
                                   const ValueBounds* bounds) const {
  const MctsNode& parent = nodes_[id];
  uint32_t best = kNone;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (uint32_t childId : parent.children) {
    const MctsNode& child = nodes_[childId];
    if (!allowed(child.action)) continue;
    const double q = bounds ? bounds->normalised(child.meanValue()) : child.meanValue();
    const double score = puctScore(q, child.prior, parent.visits, child.visits, cPuct);
    if (score > bestScore) {
      bestScore = score;
      best = childId;
    }
  }
  return best;
}

uint32_t MctsTree::bestChild(uint32_t id, const std::function<bool(uint16_t)>& allowed) const {
  uint32_t best = kNone;
  for (uint32_t childId : nodes_[id].children) {
    const MctsNode& child = nodes_[childId];
    if (!allowed(child.action)) continue;
    if (best == kNone) {
      best = childId;
      continue;
    }
    const MctsNode& incumbent = nodes_[best];
    if (child.meanValue() > incumbent.meanValue() ||
        (child.meanValue() == incumbent.meanValue() && child.visits > incumbent.visits))
      best = childId;
  }
  return best;
}

void MctsTree::replanFrom(uint32_t id, std::vector<uint16_t> actions) {
  MctsNode& root = nodes_[id];
  // Abandoned subtrees stay in the id space (the views keep drawing them) but free their work lists.
  std::vector<uint32_t> abandoned = root.children;
  while (!abandoned.empty()) {
    MctsNode& gone = nodes_[abandoned.back()];
    abandoned.pop_back();
    abandoned.insert(abandoned.end(), gone.children.begin(), gone.children.end());
    std::vector<uint16_t>().swap(gone.untried);
    std::vector<float>().swap(gone.actionPriors);
    std::vector<uint32_t>().swap(gone.ruleMatches);
  }
  root.children.clear();
  root.untried = std::move(actions);
  root.visits = 0;
  root.totalValue = 0;
}

} // namespace tessera::mcts
