// The e-graph as a run's events describe it: e-nodes with the rule application that created them,
// e-classes merged through a union-find. Rebuilt from ENodeAdded, ClassesMerged, RuleApplied and
// EGraphRebased alone, so a stored session can be replayed without the engine.
#pragma once

#include "egraph/ENode.h"
#include "events/Event.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

// Index into EGraphMirror::nodes(), in the order the e-nodes were added.
using MirrorNodeId = uint32_t;
inline constexpr int kOriginalStep = -1;

struct MirrorNode {
  ENode node;            // as added; children are class ids as they were then (use EGraphMirror::find)
  EClassId addedTo = 0;  // the class id the node was added to
  uint64_t sequence = 0; // the ENodeAdded event
  int rule = -1;         // index into EGraphMirror::ruleNames(); -1: from the original model (or not yet attributed)
  int step = kOriginalStep;
};

struct MirrorClass {
  EClassId id = 0;                  // the canonical id (the "kept" side of every merge)
  std::vector<MirrorNodeId> nodes;  // in insertion order
  std::vector<EClassId> members;    // every class id merged into this one, itself included
  uint64_t lastMergeSequence = 0;   // 0: never merged
};

class EGraphMirror {
public:
  void addNode(EClassId eclass, const ENode& node, uint64_t sequence);
  // Ids nobody has seen are created empty, so a merge never fails on a damaged log.
  void merge(EClassId kept, EClassId absorbed, uint64_t sequence);
  // A rule application claims the `newNodes` e-nodes added since the previous application. Before
  // the seed is closed, only the newest nodes that build the right-hand side into `results` count.
  void attributePending(const std::string& rule, int step, uint32_t newNodes, const std::vector<EClassId>& results);
  // Nodes added so far (the seed) are the original model's: the first application does not own them.
  void closeSeed();
  // The engine replaced its e-graph (EGraphRebased): everything is dropped, the epoch advances, and
  // the next `seed.size()` nodes added take their origins from `seed`. Rule names are kept.
  void rebase(const std::vector<SeedOrigin>& seed);
  // How many times the e-graph was rebased: ids of different epochs name different things.
  int epoch() const { return epoch_; }

  // The canonical id of a class id; unknown ids map to themselves.
  EClassId find(EClassId id) const;
  bool hasClass(EClassId id) const { return classIndex_.count(id) != 0; }
  // Null for an unknown id; follows merges.
  const MirrorClass* eclass(EClassId id) const;
  // Every live class, in the order each was first seen (stable, so layouts can rely on it).
  std::vector<const MirrorClass*> classes() const;

  const std::vector<MirrorNode>& nodes() const { return nodes_; }
  size_t numNodes() const { return nodes_.size(); }
  size_t numClasses() const { return liveClasses_; }
  size_t numMerges() const { return merges_; }
  const std::vector<std::string>& ruleNames() const { return ruleNames_; }
  // "" for the original model.
  const std::string& ruleOf(const MirrorNode& node) const;

private:
  uint32_t slotOf(EClassId id); // creates the class when absent
  int ruleIndex(const std::string& rule);
  size_t rightHandSideSuffix(const std::vector<EClassId>& results) const;

  std::vector<MirrorNode> nodes_;
  std::vector<MirrorClass> slots_;                    // one per class ever seen; absorbed ones are emptied
  std::vector<bool> live_;
  std::unordered_map<EClassId, uint32_t> classIndex_; // class id (any member) -> slot
  size_t liveClasses_ = 0;
  size_t merges_ = 0;
  size_t pendingFrom_ = 0; // first node not yet claimed by a rule application
  bool seedClosed_ = false;
  int epoch_ = 0;
  std::vector<std::pair<int, int>> seedOrigins_; // (rule index, step) of each node of a rebased seed
  std::vector<std::string> ruleNames_;
  std::unordered_map<std::string, int> ruleIndex_;
};

} // namespace tessera
