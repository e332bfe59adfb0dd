#include "replay/MctsTreeMirror.h"

#include <algorithm>

namespace tessera {

MirrorMctsNode* MctsTreeMirror::ensure(uint32_t id, uint64_t sequence) {
  if (id >= kMaxNodes) return nullptr;
  if (id >= nodes_.size()) {
    const size_t old = nodes_.size();
    nodes_.resize(std::max<size_t>(id + 1, old * 3 / 2));
    for (size_t i = old; i < nodes_.size(); ++i) nodes_[i].lastTouched = kUnseen;
  }
  MirrorMctsNode& node = nodes_[id];
  if (node.lastTouched == kUnseen) {
    node = MirrorMctsNode{};
    node.id = id;
    node.parent = id;
    ++count_;
  }
  node.lastTouched = sequence;
  return &node;
}

void MctsTreeMirror::created(const MctsNodeCreated& event, uint64_t sequence) {
  const uint32_t id = event.id, parent = event.parent;
  const bool known = has(id);
  MirrorMctsNode* node = ensure(id, sequence);
  if (!node) return;
  node->action = event.action;
  node->depth = event.depth;
  node->enodes = event.enodes;
  node->prior = event.prior;
  if (parent == id || parent >= kMaxNodes) {
    node->parent = id;
    if (!hasRoot_) {
      root_ = id;
      hasRoot_ = true;
    }
    return;
  }
  node->parent = parent;
  if (known) return; // re-announced: keep the child list as it is
  MirrorMctsNode* parentNode = ensure(parent, sequence);
  parentNode->children.push_back(id);
  // ensure() may have grown the vector; nothing above keeps a stale pointer past this line.
}

void MctsTreeMirror::visited(uint32_t id, uint64_t sequence) {
  if (!has(id)) return;
  nodes_[id].lastTouched = sequence;
}

void MctsTreeMirror::backedUp(uint32_t id, uint32_t visits, double totalValue, double reward, uint64_t sequence) {
  if (!has(id)) return;
  MirrorMctsNode& node = nodes_[id];
  node.visits = visits;
  node.totalValue = totalValue;
  node.lastReward = reward;
  node.lastTouched = sequence;
  maxVisits_ = std::max(maxVisits_, visits);
}

void MctsTreeMirror::committed(uint32_t id, int step, uint64_t sequence) {
  if (!has(id)) return;
  MirrorMctsNode& node = nodes_[id];
  if (node.committed()) return;
  node.committedStep = step;
  node.lastTouched = sequence;
  path_.push_back(id);
}

std::optional<SiblingRanks> MctsTreeMirror::siblingRanks(uint32_t id) const {
  const MirrorMctsNode* node = this->node(id);
  if (!node || !node->prior || node->isRoot()) return std::nullopt;
  const MirrorMctsNode* parent = this->node(node->parent);
  if (!parent) return SiblingRanks{};
  SiblingRanks ranks{1, 1, 0};
  bool mostVisitedAlone = node->visits > 0, siblingCommitted = false;
  for (uint32_t sibling : parent->children) {
    const MirrorMctsNode* other = this->node(sibling);
    if (!other || !other->prior) continue;
    ++ranks.siblings;
    if (*other->prior > *node->prior) ++ranks.byPrior;
    if (other->visits > node->visits) ++ranks.byVisits;
    if (sibling == id) continue;
    mostVisitedAlone = mostVisitedAlone && other->visits < node->visits;
    siblingCommitted = siblingCommitted || other->committed();
  }
  ranks.searchChoice = node->committed() || (!siblingCommitted && mostVisitedAlone);
  return ranks;
}

} // namespace tessera
