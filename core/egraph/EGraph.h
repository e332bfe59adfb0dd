// The e-graph: e-classes of equivalent e-nodes, a union-find over class ids, a hashcons from
// canonical e-node to class, deferred rebuild() that restores congruence (egg's design), an
// e-class analysis (tensor type, all-weights flag) and checkpoints that roll mutations back
// through an undo trail, so a search can branch without copying the e-graph.
#pragma once

#include "egraph/AttributeTable.h"
#include "egraph/ENode.h"
#include "ir/Graph.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera {

// What the e-class analysis knows about every value in a class.
struct EClassData {
  TensorType type;
  bool allWeights = false; // the value depends only on weights (can be precomputed)
};

struct EClass {
  EClassId id = 0;
  std::vector<ENode> nodes;
  std::vector<std::pair<ENode, EClassId>> parents; // nodes that use this class, and their class
  EClassData data;
};

// An input, weight or opaque op of the model, referenced by ENode::payload.
struct Leaf {
  Node node; // name, types, weight value or opaque op; inputs are not used
};

// Notified of every change; the search's event stream and views hang off this.
class EGraphListener {
public:
  virtual ~EGraphListener() = default;
  virtual void nodeAdded(const ENode& node, EClassId eclass) = 0;
  virtual void classesMerged(EClassId kept, EClassId absorbed) = 0;
};

class EGraph {
public:
  EGraph();
  ~EGraph();
  EGraph(const EGraph&) = delete;
  EGraph& operator=(const EGraph&) = delete;
  // A search replaces its e-graph with a fresh one by move-assignment (the listener moves too).
  EGraph(EGraph&&) noexcept;
  EGraph& operator=(EGraph&&) noexcept;

  // Registers an Input or Weight (deduplicated by kind and name) or an opaque op (one entry per
  // call) and returns its leaf id, the payload of its e-nodes.
  uint32_t registerLeaf(const Node& node);
  // The class of an Input or Weight node.
  EClassId addLeaf(const Node& node);
  // Adds an e-node (children need not be canonical). Returns nullopt when shape inference rejects
  // it: a rewrite only applies when its right-hand side type-checks.
  std::optional<EClassId> add(ENode node);
  // Builds a node from an op and attributes, canonicalising them as Graph::addNode does.
  std::optional<EClassId> add(OpKind op, const Attributes& attrs, std::vector<EClassId> children, uint16_t port = 0);
  // Unions two classes; returns false when already equal. Throws tessera::Error when their types
  // differ (a rule that is not type-preserving). Congruence is restored by rebuild().
  bool merge(EClassId a, EClassId b);
  void rebuild();
  bool isClean() const { return pending_.empty() && pendingParents_.empty(); }

  EClassId find(EClassId id) const;
  const EClass& eclass(EClassId id) const { return *classes_[find(id)]; }
  const EClassData& data(EClassId id) const { return eclass(id).data; }
  std::optional<EClassId> lookup(ENode node) const; // the class of an equal e-node, if present

  size_t numNodes() const { return memo_.size(); }
  size_t numClasses() const { return liveClasses_; }
  // Canonical ids of all classes (after rebuild).
  std::vector<EClassId> classIds() const;
  // Canonical classes holding at least one node with this op (valid after rebuild).
  const std::vector<EClassId>& classesWithOp(OpKind op) const { return byOp_[static_cast<size_t>(op)]; }

  const AttributeTable& attributes() const { return attributes_; }
  uint32_t internAttributes(const Attributes& attrs) { return attributes_.intern(attrs); }
  const Leaf& leaf(uint32_t id) const { return leaves_[id]; }
  size_t numLeaves() const { return leaves_.size(); }

  // Checkpoints nest; rollback() undoes every change since the matching checkpoint() and drops
  // the checkpoints taken after it. Both need a clean (rebuilt) e-graph.
  using Checkpoint = size_t;
  Checkpoint checkpoint();
  void rollback(Checkpoint checkpoint);
  size_t checkpointDepth() const;

  void setListener(EGraphListener* listener) { listener_ = listener; }

  // TENSAT's cycle filter: a filtered e-node stays in its class but is ignored by matching and
  // extraction. Filters are undone by rollback like any other change.
  void filterNode(const ENode& node);
  bool isFiltered(const ENode& node) const;
  // Distinct filtered e-nodes (counted in numNodes(): they stay in the hashcons).
  size_t numFiltered() const { return filteredCanonical_.size(); }

  // Nodes of the seeded model. They never form a cycle among themselves, so the cycle filter
  // never needs to (and never does) filter them.
  void markOriginal(const ENode& node);
  bool isOriginal(const ENode& node) const;

  // Asserts hashcons/congruence invariants; returns a description of the first violation, or
  // an empty string. Cheap enough for tests, called from rebuild() in debug builds.
  std::string checkInvariants() const;

private:
  struct Trail;

  ENode canonicalize(ENode node) const;
  std::optional<EClassData> analyse(const ENode& node) const;
  EClassId makeClass(ENode node, EClassData data);
  void saveClass(EClassId id);
  void setParent(EClassId id, EClassId parent);
  void memoInsert(const ENode& node, EClassId id);
  void memoErase(const ENode& node);
  void repair(EClassId id);
  void rebuildClassesAndIndex();

  std::vector<std::unique_ptr<EClass>> classes_; // indexed by id; non-canonical entries are stale
  std::vector<EClassId> parent_;                  // union-find; union by size, no path compression (undoable)
  std::vector<uint32_t> size_;
  std::unordered_map<ENode, EClassId, ENodeHash> memo_;
  std::vector<EClassId> pending_;                            // classes whose node lists need re-canonicalising
  std::vector<std::pair<ENode, EClassId>> pendingParents_;   // parent nodes that may now be non-canonical
  std::vector<std::vector<EClassId>> byOp_;
  size_t liveClasses_ = 0;
  AttributeTable attributes_;
  std::vector<Leaf> leaves_;
  std::unordered_map<std::string, uint32_t> leafByName_;
  std::vector<ENode> filtered_;                               // as filtered, possibly stale
  std::unordered_set<ENode, ENodeHash> filteredCanonical_;     // canonical forms, refreshed on rebuild
  std::vector<ENode> original_;
  std::unordered_set<ENode, ENodeHash> originalCanonical_;
  std::unique_ptr<Trail> trail_;
  EGraphListener* listener_ = nullptr;
};

} // namespace tessera
