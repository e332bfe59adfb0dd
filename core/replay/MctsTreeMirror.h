// The MCTS search tree as a run's events describe it: every node the planner created, its visits,
// value and last reward, and the path of actions the search committed to.
#pragma once

#include "events/Event.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct MirrorMctsNode {
  uint32_t id = 0;
  uint32_t parent = 0;      // itself for a root
  std::string action;       // the rule from the parent; empty for a root
  int depth = 0;
  size_t enodes = 0;        // e-graph size in the node's state
  std::optional<double> prior; // PUCT's prior of `action` at the parent; absent for plain MCTS
  uint32_t visits = 0;
  double totalValue = 0;
  double lastReward = 0;
  int committedStep = -1;   // the step that committed this node, -1 when not on the committed path
  uint64_t lastTouched = 0; // sequence of the last event about the node
  std::vector<uint32_t> children;

  double meanValue() const { return visits ? totalValue / visits : 0.0; }
  bool committed() const { return committedStep >= 0; }
  bool isRoot() const { return parent == id; }
};

// PUCT: where a node stands among its siblings by the guide's prior and by visits (1 is first; ties
// share a place), so a view can tell where the search overruled the network.
struct SiblingRanks {
  size_t byPrior = 1;
  size_t byVisits = 1;
  size_t siblings = 1; // the node included
  // The search's choice among its siblings: the one it committed, or where it committed none, the
  // one it visited most (alone).
  bool searchChoice = false;
  // The search chose this node although the network preferred another sibling.
  bool overruled() const { return searchChoice && byPrior != 1; }
};

class MctsTreeMirror {
public:
  // Ids beyond this are treated as damage and ignored, so a corrupt log cannot exhaust memory.
  static constexpr uint32_t kMaxNodes = 1u << 22;

  void created(const MctsNodeCreated& event, uint64_t sequence);
  void visited(uint32_t id, uint64_t sequence);
  void backedUp(uint32_t id, uint32_t visits, double totalValue, double reward, uint64_t sequence);
  void committed(uint32_t id, int step, uint64_t sequence);

  bool has(uint32_t id) const { return id < nodes_.size() && nodes_[id].lastTouched != kUnseen; }
  const MirrorMctsNode* node(uint32_t id) const { return has(id) ? &nodes_[id] : nullptr; }
  size_t size() const { return count_; }
  uint32_t root() const { return root_; } // the first root created; 0 when none
  bool empty() const { return count_ == 0; }
  // Committed nodes from the root down, in step order.
  const std::vector<uint32_t>& committedPath() const { return path_; }
  uint32_t maxVisits() const { return maxVisits_; }
  // Among the siblings that carry a prior; nullopt when the node carries none.
  std::optional<SiblingRanks> siblingRanks(uint32_t id) const;

private:
  static constexpr uint64_t kUnseen = ~uint64_t{0};
  MirrorMctsNode* ensure(uint32_t id, uint64_t sequence);

  std::vector<MirrorMctsNode> nodes_;
  std::vector<uint32_t> path_;
  size_t count_ = 0;
  uint32_t root_ = 0;
  bool hasRoot_ = false;
  uint32_t maxVisits_ = 0;
};

} // namespace tessera
