#include "replay/EGraphMirror.h"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace tessera {

uint32_t EGraphMirror::slotOf(EClassId id) {
  auto [it, inserted] = classIndex_.try_emplace(id, static_cast<uint32_t>(slots_.size()));
  if (!inserted) return it->second;
  MirrorClass fresh;
  fresh.id = id;
  fresh.members.push_back(id);
  slots_.push_back(std::move(fresh));
  live_.push_back(true);
  ++liveClasses_;
  return it->second;
}

void EGraphMirror::addNode(EClassId eclass, const ENode& node, uint64_t sequence) {
  const uint32_t slot = slotOf(eclass);
  MirrorNode added;
  added.node = node;
  added.addedTo = eclass;
  added.sequence = sequence;
  if (!seedClosed_ && nodes_.size() < seedOrigins_.size()) std::tie(added.rule, added.step) = seedOrigins_[nodes_.size()];
  slots_[slot].nodes.push_back(static_cast<MirrorNodeId>(nodes_.size()));
  nodes_.push_back(std::move(added));
}

void EGraphMirror::merge(EClassId kept, EClassId absorbed, uint64_t sequence) {
  const uint32_t keptSlot = slotOf(kept);
  const uint32_t absorbedSlot = slotOf(absorbed);
  if (keptSlot == absorbedSlot) return;
  // Move the smaller side into the larger one, so replaying n merges costs O(n log n).
  const bool keepInPlace = slots_[keptSlot].members.size() >= slots_[absorbedSlot].members.size();
  const uint32_t into = keepInPlace ? keptSlot : absorbedSlot;
  const uint32_t from = keepInPlace ? absorbedSlot : keptSlot;
  const EClassId canonical = slots_[keptSlot].id;
  MirrorClass& target = slots_[into];
  MirrorClass& source = slots_[from];
  for (EClassId member : source.members) classIndex_[member] = into;
  target.members.insert(target.members.end(), source.members.begin(), source.members.end());
  const auto middle = target.nodes.insert(target.nodes.end(), source.nodes.begin(), source.nodes.end());
  std::inplace_merge(target.nodes.begin(), middle, target.nodes.end());
  target.id = canonical;
  target.lastMergeSequence = sequence;
  source = MirrorClass{};
  live_[from] = false;
  --liveClasses_;
  ++merges_;
}

void EGraphMirror::attributePending(const std::string& rule, int step, uint32_t newNodes,
                                    const std::vector<EClassId>& results) {
  const int index = ruleIndex(rule);
  const size_t pending = nodes_.size() - pendingFrom_;
  size_t claimed = std::min<size_t>(pending, newNodes);
  if (!seedClosed_) claimed = std::min(claimed, rightHandSideSuffix(results));
  for (size_t i = nodes_.size() - claimed; i < nodes_.size(); ++i) {
    nodes_[i].rule = index;
    nodes_[i].step = step;
  }
  pendingFrom_ = nodes_.size();
  seedClosed_ = true;
}

size_t EGraphMirror::rightHandSideSuffix(const std::vector<EClassId>& results) const {
  // A right-hand side is built children first, so its nodes are the newest ones: a root added to a
  // result class, or a node that a newer node of the right-hand side uses. Ids are compared as they
  // were when the nodes were added (before the application's merges), so the seed before it is not
  // reachable that way.
  std::unordered_set<EClassId> wanted(results.begin(), results.end());
  size_t count = 0;
  for (size_t i = nodes_.size(); i-- > pendingFrom_; ++count) {
    const MirrorNode& node = nodes_[i];
    if (node.node.isLeaf() || !wanted.count(node.addedTo)) break;
    wanted.insert(node.node.children.begin(), node.node.children.end());
  }
  return count;
}

void EGraphMirror::closeSeed() {
  pendingFrom_ = nodes_.size();
  seedClosed_ = true;
}

int EGraphMirror::ruleIndex(const std::string& rule) {
  auto [it, inserted] = ruleIndex_.try_emplace(rule, static_cast<int>(ruleNames_.size()));
  if (inserted) ruleNames_.push_back(rule);
  return it->second;
}

void EGraphMirror::rebase(const std::vector<SeedOrigin>& seed) {
  nodes_.clear();
  slots_.clear();
  live_.clear();
  classIndex_.clear();
  liveClasses_ = 0;
  merges_ = 0;
  pendingFrom_ = 0;
  seedClosed_ = false;
  ++epoch_;
  seedOrigins_.clear();
  for (const SeedOrigin& origin : seed)
    seedOrigins_.emplace_back(origin.rule.empty() ? -1 : ruleIndex(origin.rule), origin.rule.empty() ? kOriginalStep : origin.step);
}

EClassId EGraphMirror::find(EClassId id) const {
  auto it = classIndex_.find(id);
  return it == classIndex_.end() ? id : slots_[it->second].id;
}

const MirrorClass* EGraphMirror::eclass(EClassId id) const {
  auto it = classIndex_.find(id);
  return it == classIndex_.end() ? nullptr : &slots_[it->second];
}

std::vector<const MirrorClass*> EGraphMirror::classes() const {
  std::vector<const MirrorClass*> out;
  out.reserve(liveClasses_);
  for (size_t i = 0; i < slots_.size(); ++i)
    if (live_[i]) out.push_back(&slots_[i]);
  return out;
}

const std::string& EGraphMirror::ruleOf(const MirrorNode& node) const {
  static const std::string original;
  if (node.rule < 0 || node.rule >= static_cast<int>(ruleNames_.size())) return original;
  return ruleNames_[static_cast<size_t>(node.rule)];
}

} // namespace tessera
