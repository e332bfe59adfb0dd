// The simulations of one MCTS step: select down the tree by UCT, expand one untried action, roll
// out, price the states reached, back the reward up, and roll the e-graph back to the committed
// state. Simulations run on the live e-graph under checkpoints and never touch its listener.
// The tree path of the last simulation stays applied (one nested checkpoint per level) and is
// rolled back only from where the next simulation's path leaves it, so UCT revisiting a subtree
// does not re-apply its actions; rollouts are always rolled back. plan() returns with the e-graph
// back in the committed state.
//
// With a learned guide (PUCT, mcts/PriorModel.h), selection scores the children and the next
// untried action (at Q = 0) by Q + c_puct P sqrt(N) / (1 + n), untried actions are expanded in
// order of prior, and the reward mixes the rollout's with the guide's value of the leaf:
//   reward = (1 - lambda) rollout reward + lambda max(tree reward, gamma^d_leaf (drop to the leaf + value)),
// skipping the rollout when lambda is 1.
//
// Reward: with C_root the cost of the committed state and C* the cheapest state the simulation
// reached (tree nodes and the rollout's end), d* actions below the root,
//   reward = gamma^d* * max(C_root - C*, 0) / C_original * 100,
// i.e. percentage points of the original cost, so the UCT constant means the same on every model.
#pragma once

#include "events/EventSink.h"
#include "search/mcts/MctsParameters.h"
#include "search/mcts/MctsTree.h"
#include "search/mcts/RolloutPolicy.h"
#include "search/mcts/RuleAction.h"
#include "search/mcts/StateCoster.h"

#include <functional>
#include <random>

namespace tessera::mcts {

struct PlanContext {
  EGraph& egraph;
  const SeededGraph& seed;
  MctsTree& tree;
  StateCoster& coster;
  RolloutPolicy& rollout;
  std::mt19937_64& rng;
  EventStream& events;
  const MctsParameters& params;
  double rewardScale;                             // 100 / original cost
  std::function<const ActionSpace&()> actions;    // current pins and vetoes
  std::function<bool()> shouldStop;               // stop requested or out of time
  // PUCT only: asks the learned guide about the node whose state the e-graph holds (reached by the
  // path from the root), filling its actionPriors and guideValue and ordering its untried actions
  // by prior. False when the search had to stop before the guide read the state: the simulation
  // is then abandoned. Empty: plain UCT, exactly as without a guide.
  std::function<bool(uint32_t node, const ActionPath& path)> guide = {};
};

class MctsPlanner {
public:
  explicit MctsPlanner(PlanContext context) : c_(std::move(context)) {}

  // Runs up to params.simulations simulations from `root` (whose stateCost is set). Returns how
  // many completed; fewer when shouldStop() fired.
  int plan(uint32_t root);

  // A new node's untried actions: the whole pack in a seeded random order (pins are taken first
  // at expansion time, vetoes skipped, so later changes of either apply to old nodes too).
  std::vector<uint16_t> shuffledActions(std::vector<uint16_t> actions);

private:
  bool simulate(uint32_t root);
  uint32_t expand(uint32_t id, const ActionSpace& space);
  // The untried action expand() takes next at `node` (pinned first), kNoAction when none is allowed.
  static uint16_t nextUntried(const MctsNode& node, const ActionSpace& space);
  // PUCT: whether expanding the next untried action (at Q = 0) scores above the best child (`best`).
  bool expandBeforeDescending(uint32_t id, uint32_t best, const ActionSpace& space) const;
  // Keeps the first `depth` applied tree levels and rolls back the rest.
  void keepApplied(size_t depth);
  // Q as PUCT's selection reads it: normalised with q_norm.
  double selectionValue(const MctsNode& node) const;
  void backup(const std::vector<uint32_t>& nodePath, double reward);

  PlanContext c_;
  ActionPath path_;               // the simulated state's name, reused between simulations
  std::vector<uint32_t> nodePath_;
  struct Applied {
    uint32_t node;                // the tree node whose state this level holds
    EGraph::Checkpoint before;    // taken just before its action was applied
  };
  std::vector<Applied> applied_;  // the tree path currently applied to the e-graph, root excluded
  bool guideStopped_ = false;     // the last expansion stopped before its guided evaluation
  ValueBounds valueBounds_;       // PUCT with q_norm: this step's backed-up mean values
};

} // namespace tessera::mcts
