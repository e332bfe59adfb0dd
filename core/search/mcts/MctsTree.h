// The MCTS search tree of one run: nodes, UCT selection, backup, and the commit rule.
//
// Node ids are dense and unique within the run: the first root is 0 and every created node takes
// the next id. A re-plan keeps the committed node, id included, as the new root (its old
// statistics and unexplored subtree are dropped: their rewards were measured against the previous
// baseline), so the views can draw the whole run as one tree in which each committed node hangs
// below the previous one. `depth` counts actions from the original model.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace tessera::mcts {

constexpr uint16_t kNoAction = UINT16_MAX;           // the first root's action
constexpr uint16_t kRebaseTreeAction = UINT16_MAX - 1; // a root that starts a rebased e-graph

struct MctsNode {
  uint32_t id = 0;
  uint32_t parent = 0;
  uint16_t action = kNoAction;   // the rule (index into the pack) leading here from the parent
  int depth = 0;
  std::vector<uint32_t> children;
  std::vector<uint16_t> untried; // actions not yet expanded here, in expansion order
  uint32_t visits = 0;
  double totalValue = 0;         // Q: the sum of the rewards backed up through this node
  double stateCost = std::numeric_limits<double>::quiet_NaN(); // reward-extraction cost of the state
  size_t enodes = 0;
  bool full = false;             // the e-graph reached the node limit here: nothing expands below
  // PUCT only (a learned guide, mcts/PriorModel.h): the guide's prior of the action leading here,
  // and, once the guide has read this state, its prior per action and its value.
  float prior = 0;
  std::vector<float> actionPriors;
  double guideValue = 0;
  // PUCT only: per action, its matches in this state, counted for the guide and kept, so a
  // committed child does not recount them as the next root.
  std::vector<uint32_t> ruleMatches;

  double meanValue() const { return visits ? totalValue / visits : 0.0; }
};

// MuZero's normalisation of Q for PUCT ("q_norm"): the mean values backed up in one step's search
// span [low, high], and selection reads a Q as its place in that span, so the prior's term weighs
// the same on a model whose rewards are tenths of a point as on one where they are tens. Until two
// values differ a Q is read as it is.
class ValueBounds {
public:
  void include(double value) {
    low_ = std::min(low_, value);
    high_ = std::max(high_, value);
  }
  double normalised(double q) const { return high_ > low_ ? (q - low_) / (high_ - low_) : q; }

private:
  double low_ = std::numeric_limits<double>::infinity();
  double high_ = -std::numeric_limits<double>::infinity();
};

class MctsTree {
public:
  // Creates the first root (id 0).
  uint32_t addRoot(size_t enodes);
  uint32_t addChild(uint32_t parent, uint16_t action, size_t enodes);
  MctsNode& node(uint32_t id) { return nodes_[id]; }
  const MctsNode& node(uint32_t id) const { return nodes_[id]; }
  size_t size() const { return nodes_.size(); }

  // UCT: argmax Q/N + c sqrt(ln N_parent / N_child) over the children whose action is allowed;
  // ties go to the earlier child. Returns nullopt-like UINT32_MAX when there is none.
  uint32_t selectChild(uint32_t id, double exploration, const std::function<bool(uint16_t)>& allowed) const;
  // PUCT: argmax Q/N + c P sqrt(N_parent) / (1 + N_child) over the allowed children, ties to the
  // earlier child; kNone when there is none. With `bounds`, Q/N is read normalised.
  uint32_t selectPuctChild(uint32_t id, double cPuct, const std::function<bool(uint16_t)>& allowed,
                           const ValueBounds* bounds = nullptr) const;
  static double puctScore(double meanValue, double prior, uint32_t parentVisits, uint32_t visits, double cPuct) {
    return meanValue + cPuct * prior * std::sqrt(static_cast<double>(parentVisits)) / (1.0 + visits);
  }
  // The child to commit: the best mean value, then the most visits, then the earliest.
  uint32_t bestChild(uint32_t id, const std::function<bool(uint16_t)>& allowed) const;
  // Re-plan from `id`: forget its statistics and children, expand `actions` next.
  void replanFrom(uint32_t id, std::vector<uint16_t> actions);

  static constexpr uint32_t kNone = UINT32_MAX;

private:
  std::vector<MctsNode> nodes_;
};

} // namespace tessera::mcts
