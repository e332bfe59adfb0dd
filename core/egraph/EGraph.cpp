#include "egraph/EGraph.h"

#include "ir/CanonicalAttributes.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"

#include <algorithm>
#include <cassert>
#include <tuple>

namespace tessera {

// The undo trail. Each checkpoint is a frame; mutations of things that existed when the top
// frame was taken are recorded so rollback() can restore them. Classes created after a frame are
// simply truncated away. Nothing is recorded while no checkpoint is open.
struct EGraph::Trail {
  enum class Kind : uint8_t { ClassSaved, ParentSet, MemoInserted, MemoErased, MemoAssigned };
  struct Entry {
    Kind kind;
    EClassId id = 0;
    EClassId other = 0;    // ParentSet: the root whose size grew; Memo*: the old value
    uint32_t oldSize = 0;  // ParentSet: the root's size before
    uint64_t oldStamp = 0; // ClassSaved
    std::unique_ptr<EClass> saved;
    ENode node;
  };
  struct Frame {
    size_t classCount;
    size_t entryCount;
    size_t liveClasses;
    size_t filtered;
    size_t original;
    uint64_t serial;
  };
  std::vector<Entry> entries;
  std::vector<Frame> frames;
  std::vector<uint64_t> savedStamp; // per class: serial of the frame that last saved it
  uint64_t nextSerial = 1;

  bool recording() const { return !frames.empty(); }
};

namespace {
bool lessNode(const ENode& a, const ENode& b) {
  return std::tie(a.op, a.port, a.payload, a.children) < std::tie(b.op, b.port, b.payload, b.children);
}
} // namespace

EGraph::EGraph() : byOp_(static_cast<size_t>(opCount())), trail_(std::make_unique<Trail>()) {}
EGraph::~EGraph() = default;
EGraph::EGraph(EGraph&&) noexcept = default;
EGraph& EGraph::operator=(EGraph&&) noexcept = default;

EClassId EGraph::find(EClassId id) const {
  while (parent_[id] != id) id = parent_[id];
  return id;
}

ENode EGraph::canonicalize(ENode node) const {
  for (EClassId& child : node.children) child = find(child);
  return node;
}

std::optional<EClassId> EGraph::lookup(ENode node) const {
  auto it = memo_.find(canonicalize(std::move(node)));
  if (it == memo_.end()) return std::nullopt;
  return find(it->second);
}

std::vector<EClassId> EGraph::classIds() const {
  std::vector<EClassId> ids;
  ids.reserve(liveClasses_);
  for (EClassId id = 0; id < classes_.size(); ++id)
    if (parent_[id] == id) ids.push_back(id);
  return ids;
}

// ---- mutation primitives: every change of pre-existing state goes through these ----

void EGraph::saveClass(EClassId id) {
  Trail& t = *trail_;
  if (!t.recording() || id >= t.frames.back().classCount) return;
  if (t.savedStamp[id] == t.frames.back().serial) return;
  Trail::Entry entry{Trail::Kind::ClassSaved};
  entry.id = id;
  entry.oldStamp = t.savedStamp[id];
  entry.saved = std::make_unique<EClass>(*classes_[id]);
  t.entries.push_back(std::move(entry));
  t.savedStamp[id] = t.frames.back().serial;
}

void EGraph::setParent(EClassId absorbed, EClassId root) {
  Trail& t = *trail_;
  // Record when either side predates the frame: the absorbed class's parent or the root's size.
  if (t.recording() && std::min(absorbed, root) < t.frames.back().classCount) {
    Trail::Entry entry{Trail::Kind::ParentSet};
    entry.id = absorbed;
    entry.other = root;
    entry.oldSize = size_[root];
    t.entries.push_back(std::move(entry));
  }
  parent_[absorbed] = root;
  size_[root] += size_[absorbed];
}

void EGraph::memoInsert(const ENode& node, EClassId id) {
  auto [it, inserted] = memo_.try_emplace(node, id);
  if (!inserted && it->second == id) return;
  if (trail_->recording()) {
    Trail::Entry entry{inserted ? Trail::Kind::MemoInserted : Trail::Kind::MemoAssigned};
    entry.node = node;
    entry.other = inserted ? 0 : it->second;
    trail_->entries.push_back(std::move(entry));
  }
  it->second = id;
}

void EGraph::memoErase(const ENode& node) {
  auto it = memo_.find(node);
  if (it == memo_.end()) return;
  if (trail_->recording()) {
    Trail::Entry entry{Trail::Kind::MemoErased};
    entry.node = node;
    entry.other = it->second;
    trail_->entries.push_back(std::move(entry));
  }
  memo_.erase(it);
}

// ---- adding nodes ----

std::optional<EClassData> EGraph::analyse(const ENode& node) const {
  if (node.op == OpKind::Input || node.op == OpKind::Weight || node.op == OpKind::Opaque) {
    const Node& leafNode = leaves_[node.payload].node;
    if (node.port >= leafNode.outputTypes.size()) return std::nullopt;
    return EClassData{leafNode.outputTypes[node.port], node.op == OpKind::Weight};
  }
  std::vector<TensorType> inputTypes;
  inputTypes.reserve(node.children.size());
  bool allWeights = !node.children.empty();
  for (EClassId child : node.children) {
    const EClassData& childData = classes_[child]->data;
    inputTypes.push_back(childData.type);
    allWeights = allWeights && childData.allWeights;
  }
  try {
    std::vector<TensorType> outputs = inferOutputTypes(node.op, attributes_.get(node.payload), inputTypes);
    if (node.port >= outputs.size()) return std::nullopt;
    return EClassData{std::move(outputs[node.port]), allWeights};
  } catch (const Error&) {
    return std::nullopt;
  }
}

EClassId EGraph::makeClass(ENode node, EClassData data) {
  auto id = static_cast<EClassId>(classes_.size());
  auto eclass = std::make_unique<EClass>();
  eclass->id = id;
  eclass->nodes.push_back(node);
  eclass->data = std::move(data);
  classes_.push_back(std::move(eclass));
  parent_.push_back(id);
  size_.push_back(1);
  trail_->savedStamp.push_back(0);
  ++liveClasses_;
  memoInsert(node, id);
  std::vector<EClassId> seen;
  for (EClassId child : node.children) {
    if (std::find(seen.begin(), seen.end(), child) != seen.end()) continue;
    seen.push_back(child);
    saveClass(child);
    classes_[child]->parents.emplace_back(node, id);
  }
  byOp_[static_cast<size_t>(node.op)].push_back(id);
  if (listener_) listener_->nodeAdded(node, id);
  return id;
}

uint32_t EGraph::registerLeaf(const Node& node) {
  assert((node.kind == OpKind::Input || node.kind == OpKind::Weight || node.kind == OpKind::Opaque) &&
         "leaves are inputs, weights and opaque ops");
  std::string key = node.kind == OpKind::Opaque ? std::string() : std::string(opName(node.kind)) + ":" + node.name;
  if (!key.empty())
    if (auto known = leafByName_.find(key); known != leafByName_.end()) return known->second;
  auto leafId = static_cast<uint32_t>(leaves_.size());
  Leaf leaf{node};
  leaf.node.inputs.clear();
  leaves_.push_back(std::move(leaf));
  if (!key.empty()) leafByName_.emplace(key, leafId);
  return leafId;
}

EClassId EGraph::addLeaf(const Node& node) {
  assert(node.kind != OpKind::Opaque && "opaque ops have children: add their e-nodes with add()");
  std::optional<EClassId> id = add(ENode{node.kind, 0, registerLeaf(node), {}});
  assert(id && "a leaf always has a type");
  return *id;
}

std::optional<EClassId> EGraph::add(ENode node) {
  node = canonicalize(std::move(node));
  auto it = memo_.find(node);
  if (it != memo_.end()) return find(it->second);
  std::optional<EClassData> data = analyse(node);
  if (!data) return std::nullopt;
  return makeClass(std::move(node), std::move(*data));
}

std::optional<EClassId> EGraph::add(OpKind op, const Attributes& attrs, std::vector<EClassId> children, uint16_t port) {
  std::vector<TensorType> inputTypes;
  for (EClassId child : children) inputTypes.push_back(data(child).type);
  try {
    inferOutputTypes(op, attrs, inputTypes);
    return add(ENode{op, port, attributes_.intern(canonicalAttributes(op, attrs, inputTypes)), std::move(children)});
  } catch (const Error&) {
    return std::nullopt;
  }
}

// ---- merging and rebuilding ----

bool EGraph::merge(EClassId a, EClassId b) {
  a = find(a);
  b = find(b);
  if (a == b) return false;
  if (classes_[a]->data.type != classes_[b]->data.type)
    throw Error("cannot merge e-classes " + std::to_string(a) + " (" + classes_[a]->data.type.toString() + ") and " +
                std::to_string(b) + " (" + classes_[b]->data.type.toString() + "): types differ");
  if (size_[a] < size_[b]) std::swap(a, b);
  saveClass(a);
  saveClass(b);
  setParent(b, a);
  EClass& root = *classes_[a];
  EClass& absorbed = *classes_[b];
  // Parents of the absorbed class now hold stale ids: re-canonicalise them in rebuild().
  for (const auto& parent : absorbed.parents) {
    pending_.push_back(parent.second);
    pendingParents_.push_back(parent);
  }
  root.nodes.insert(root.nodes.end(), absorbed.nodes.begin(), absorbed.nodes.end());
  root.parents.insert(root.parents.end(), absorbed.parents.begin(), absorbed.parents.end());
  root.data.allWeights = root.data.allWeights || absorbed.data.allWeights;
  absorbed.nodes.clear();
  absorbed.parents.clear();
  absorbed.nodes.shrink_to_fit();
  absorbed.parents.shrink_to_fit();
  pending_.push_back(a);
  --liveClasses_;
  if (listener_) listener_->classesMerged(a, b);
  return true;
}

void EGraph::rebuild() {
  while (!pendingParents_.empty()) {
    while (!pendingParents_.empty()) {
      auto [node, eclass] = std::move(pendingParents_.back());
      pendingParents_.pop_back();
      ENode canonical = canonicalize(node);
      if (!(canonical == node)) memoErase(node);
      auto it = memo_.find(canonical);
      if (it == memo_.end()) {
        memoInsert(canonical, find(eclass));
        continue;
      }
      if (find(it->second) != find(eclass)) merge(it->second, eclass); // congruence: same node, two classes
    }
    // A node reached through several children may have been re-keyed in an intermediate form
    // that is stale again; sweep the hashcons so it holds canonical nodes only.
    std::vector<std::pair<ENode, EClassId>> stale;
    for (const auto& [node, eclass] : memo_)
      if (!(canonicalize(node) == node)) stale.emplace_back(node, eclass);
    // Sorted, so the outcome does not depend on the hash table's history (searches replay).
    std::sort(stale.begin(), stale.end(), [](const auto& x, const auto& y) { return lessNode(x.first, y.first); });
    for (auto& [node, eclass] : stale) {
      memoErase(node);
      pendingParents_.emplace_back(std::move(node), eclass);
    }
  }
  rebuildClassesAndIndex();
#ifndef NDEBUG
  std::string problem = checkInvariants();
  assert(problem.empty() && "e-graph invariants hold after rebuild");
#endif
}

void EGraph::rebuildClassesAndIndex() {
  // Re-canonicalise and deduplicate the nodes and parents of the classes that changed.
  std::vector<EClassId> dirty;
  for (EClassId id : pending_) dirty.push_back(find(id));
  pending_.clear();
  std::sort(dirty.begin(), dirty.end());
  dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
  for (EClassId id : dirty) {
    saveClass(id);
    EClass& eclass = *classes_[id];
    for (ENode& node : eclass.nodes) node = canonicalize(std::move(node));
    std::sort(eclass.nodes.begin(), eclass.nodes.end(), lessNode);
    eclass.nodes.erase(std::unique(eclass.nodes.begin(), eclass.nodes.end()), eclass.nodes.end());
    for (auto& [node, parent] : eclass.parents) {
      node = canonicalize(std::move(node));
      parent = find(parent);
    }
    std::sort(eclass.parents.begin(), eclass.parents.end(),
              [](const auto& x, const auto& y) { return lessNode(x.first, y.first) || (x.first == y.first && x.second < y.second); });
    eclass.parents.erase(std::unique(eclass.parents.begin(), eclass.parents.end()), eclass.parents.end());
  }

  // The all-weights flag only ever turns on; propagate it upwards to a fixpoint.
  std::vector<EClassId> work = dirty;
  while (!work.empty()) {
    EClassId id = find(work.back());
    work.pop_back();
    if (!classes_[id]->data.allWeights) continue;
    for (const auto& [node, parentClass] : classes_[id]->parents) {
      EClassId p = find(parentClass);
      if (classes_[p]->data.allWeights || node.op == OpKind::Opaque) continue;
      bool all = std::all_of(node.children.begin(), node.children.end(),
                             [&](EClassId c) { return classes_[find(c)]->data.allWeights; });
      if (!all) continue;
      saveClass(p);
      classes_[p]->data.allWeights = true;
      work.push_back(p);
    }
  }

  filteredCanonical_.clear();
  for (const ENode& node : filtered_) filteredCanonical_.insert(canonicalize(node));
  originalCanonical_.clear();
  for (const ENode& node : original_) originalCanonical_.insert(canonicalize(node));

  for (auto& ids : byOp_) ids.clear();
  for (EClassId id = 0; id < classes_.size(); ++id) {
    if (parent_[id] != id) continue;
    for (const ENode& node : classes_[id]->nodes) {
      auto& ids = byOp_[static_cast<size_t>(node.op)];
      if (ids.empty() || ids.back() != id) ids.push_back(id);
    }
  }
}

// ---- cycle filter ----

void EGraph::filterNode(const ENode& node) {
  ENode canonical = canonicalize(node);
  if (filteredCanonical_.count(canonical)) return;
  filtered_.push_back(canonical);
  filteredCanonical_.insert(std::move(canonical));
}

bool EGraph::isFiltered(const ENode& node) const {
  if (filteredCanonical_.empty()) return false;
  // The e-matcher asks about every node it visits, and those of a rebuilt e-graph are canonical:
  // look them up without the copy canonicalize() makes.
  const bool canonical = std::all_of(node.children.begin(), node.children.end(), [&](EClassId child) { return find(child) == child; });
  if (canonical) return filteredCanonical_.count(node) > 0;
  return filteredCanonical_.count(canonicalize(node)) > 0;
}

void EGraph::markOriginal(const ENode& node) {
  ENode canonical = canonicalize(node);
  if (originalCanonical_.count(canonical)) return;
  original_.push_back(canonical);
  originalCanonical_.insert(std::move(canonical));
}

bool EGraph::isOriginal(const ENode& node) const { return originalCanonical_.count(canonicalize(node)) > 0; }

// ---- checkpoints ----

EGraph::Checkpoint EGraph::checkpoint() {
  assert(isClean() && "checkpoint needs a rebuilt e-graph");
  Trail& t = *trail_;
  t.frames.push_back({classes_.size(), t.entries.size(), liveClasses_, filtered_.size(), original_.size(), t.nextSerial++});
  return t.frames.size() - 1;
}

size_t EGraph::checkpointDepth() const { return trail_->frames.size(); }

void EGraph::rollback(Checkpoint checkpoint) {
  Trail& t = *trail_;
  assert(checkpoint < t.frames.size() && "rollback to a checkpoint that is still open");
  const Trail::Frame frame = t.frames[checkpoint];
  while (t.entries.size() > frame.entryCount) {
    Trail::Entry& entry = t.entries.back();
    switch (entry.kind) {
    case Trail::Kind::ClassSaved:
      classes_[entry.id] = std::move(entry.saved);
      t.savedStamp[entry.id] = entry.oldStamp;
      break;
    case Trail::Kind::ParentSet:
      parent_[entry.id] = entry.id;
      size_[entry.other] = entry.oldSize;
      break;
    case Trail::Kind::MemoInserted: memo_.erase(entry.node); break;
    case Trail::Kind::MemoErased:
    case Trail::Kind::MemoAssigned: memo_[entry.node] = entry.other; break;
    }
    t.entries.pop_back();
  }
  // Memo entries of truncated classes were recorded as MemoInserted and are gone already.
  classes_.resize(frame.classCount);
  parent_.resize(frame.classCount);
  size_.resize(frame.classCount);
  t.savedStamp.resize(frame.classCount);
  liveClasses_ = frame.liveClasses;
  filtered_.resize(frame.filtered);
  original_.resize(frame.original);
  pending_.clear();
  pendingParents_.clear();
  t.frames.resize(checkpoint);
  rebuildClassesAndIndex();
}

// ---- invariants ----

std::string EGraph::checkInvariants() const {
  size_t nodes = 0;
  for (EClassId id = 0; id < classes_.size(); ++id) {
    if (parent_[id] != id) continue;
    const EClass& eclass = *classes_[id];
    for (const ENode& node : eclass.nodes) {
      ++nodes;
      if (!(canonicalize(node) == node)) return "class " + std::to_string(id) + " holds a non-canonical node";
      auto it = memo_.find(node);
      if (it == memo_.end()) return "class " + std::to_string(id) + " has a node missing from the hashcons";
      if (find(it->second) != id) return "hashcons maps a node of class " + std::to_string(id) + " elsewhere (congruence broken)";
    }
  }
  if (nodes != memo_.size())
    return "hashcons holds " + std::to_string(memo_.size()) + " nodes but classes hold " + std::to_string(nodes);
  return {};
}

} // namespace tessera
