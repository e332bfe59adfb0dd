#include "search/taso/GraphRewriter.h"

#include "cost/OpSignature.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"
#include "support/Hash.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>

namespace tessera {

namespace {
ENode canonical(const EGraph& egraph, ENode node) {
  for (EClassId& child : node.children) child = egraph.find(child);
  return node;
}

} // namespace

// Collects the e-nodes one rule application adds: the rewritten graph prefers them.
class GraphRewriter::NewNodeRecorder : public EGraphListener {
public:
  void nodeAdded(const ENode& node, EClassId eclass) override { added.emplace_back(node, eclass); }
  void classesMerged(EClassId, EClassId) override {}
  std::vector<std::pair<ENode, EClassId>> added;
};

GraphRewriter::GraphRewriter(const Graph& graph, const std::vector<NodeOrigin>& origins, CostModel& cost)
    : cost_(cost), seed_(seedEGraph(egraph_, graph)) {
  for (EClassId id : egraph_.classIds()) seededClasses_ = std::max<size_t>(seededClasses_, id + 1);
  mapOriginalNodes(graph, origins);
}

// Re-walks the graph as seedEGraph did, finding (not adding) each node's e-node, so that a
// rewritten graph's surviving nodes can inherit their origins.
void GraphRewriter::mapOriginalNodes(const Graph& graph, const std::vector<NodeOrigin>& origins) {
  // seedEGraph registers one opaque leaf per opaque node, in topological order: pair them the same way.
  std::vector<uint32_t> opaqueLeaves;
  for (uint32_t leaf = 0; leaf < egraph_.numLeaves(); ++leaf)
    if (egraph_.leaf(leaf).node.kind == OpKind::Opaque) opaqueLeaves.push_back(leaf);
  size_t nextOpaque = 0;

  std::vector<std::vector<EClassId>> classOf(graph.size());
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) {
      classOf[id] = {egraph_.addLeaf(node)}; // already there: leaves are deduplicated by name
      continue;
    }
    std::vector<EClassId> children;
    for (const ValueRef& input : node.inputs)
      children.push_back(input.isNone() ? egraph_.addLeaf(absentInput()) : classOf[input.node][input.port]);
    uint32_t payload = 0;
    if (node.kind == OpKind::Opaque) {
      if (nextOpaque == opaqueLeaves.size()) throw Error("opaque node '" + node.name + "' has no leaf in its seeded e-graph");
      payload = opaqueLeaves[nextOpaque++];
    } else {
      payload = egraph_.internAttributes(node.attrs);
    }
    for (int port = 0; port < node.numOutputs(); ++port) {
      ENode enode{node.kind, static_cast<uint16_t>(port), payload, children};
      std::optional<EClassId> eclass = egraph_.lookup(enode);
      if (!eclass) throw Error("node '" + node.name + "' is missing from its seeded e-graph");
      classOf[id].push_back(*eclass);
      nodeOfClass_.try_emplace(*eclass, id);
      if (port == 0) originalNodes_.emplace_back(std::move(enode), id < origins.size() ? origins[id] : NodeOrigin{});
    }
  }
}

std::vector<RuleMatch> GraphRewriter::matches(const Rule& rule, size_t limit) const { return rule.search(egraph_, limit); }

RewritePreview GraphRewriter::previewSeeded() {
  // Before any rewrite each class holds the one node it was seeded with.
  std::optional<RewritePreview> summary = preview([&](EClassId eclass) { return &egraph_.eclass(eclass).nodes.front(); });
  assert(summary && "a seeded graph is acyclic");
  return *summary;
}

std::vector<NodeId> GraphRewriter::matchedNodes(const RuleMatch& match) const {
  std::vector<NodeId> nodes;
  for (EClassId root : match.roots)
    if (auto it = nodeOfClass_.find(egraph_.find(root)); it != nodeOfClass_.end()) nodes.push_back(it->second);
  return nodes;
}

std::optional<RewrittenGraph> GraphRewriter::rewrite(const Rule& rule, const RuleMatch& match, int step,
                                                     const std::function<bool(const RewritePreview&)>& worthBuilding,
                                                     const std::function<bool(const Graph&)>& keep) {
  // Each matched class holds one node before the rewrite: the node the rewrite replaces.
  std::vector<ENode> replaced;
  for (EClassId root : match.roots) replaced.push_back(egraph_.eclass(root).nodes.front());

  // Undo the application however we leave, so the rewriter stays usable after an error.
  NewNodeRecorder recorder;
  struct Undo {
    EGraph& egraph;
    EGraph::Checkpoint checkpoint;
    ~Undo() {
      egraph.setListener(nullptr);
      if (!egraph.isClean()) egraph.rebuild();
      egraph.rollback(checkpoint);
    }
  } undo{egraph_, egraph_.checkpoint()};
  egraph_.setListener(&recorder);
  RuleApplication application = rule.apply(egraph_, match);
  egraph_.setListener(nullptr);
  if (!application.typeChecked || !application.changed) return std::nullopt;
  egraph_.rebuild();

  // In every class the rewrite added to, take its node; elsewhere keep the original node, but
  // never the node the rewrite replaced when the class has another.
  std::unordered_map<EClassId, ENode> fresh;
  for (const auto& [node, eclass] : recorder.added) {
    ENode now = canonical(egraph_, node);
    if (egraph_.isOriginal(now)) continue; // congruence folded it into a node the graph had
    fresh.try_emplace(egraph_.find(eclass), std::move(now));
  }
  for (ENode& node : replaced) node = canonical(egraph_, std::move(node));
  auto chosen = [&](EClassId eclass) -> const ENode* {
    if (auto it = fresh.find(eclass); it != fresh.end()) return &it->second;
    const std::vector<ENode>& nodes = egraph_.eclass(eclass).nodes;
    for (const ENode& node : nodes)
      if (std::find(replaced.begin(), replaced.end(), node) == replaced.end()) return &node;
    return nodes.empty() ? nullptr : &nodes.front();
  };

  std::optional<RewritePreview> summary = preview(chosen);
  if (!summary || !worthBuilding(*summary)) return std::nullopt; // no preview: a cycle

  std::vector<ENode> sources;
  RewrittenGraph result;
  result.graph = graphFromChoice(egraph_, seed_, chosen, &sources);
  result.costMs = summary->costMs;
  if (!keep(result.graph)) return std::nullopt;
  result.origins = originsOf(sources, fresh, rule, step, result.newNodes);
  return result;
}

// Walks the choice from the outputs as graphFromChoice builds it, costing each op once (the
// ports of a multi-output op are one op) and ops on weights alone as free, like graphCost.
std::optional<RewritePreview> GraphRewriter::preview(const Choice& chosen) {
  enum class Visit : uint8_t { No, OnPath, Done };
  struct ClassState {
    Visit visit = Visit::No;
    bool weightOnly = false;
    size_t hash = 0;
  };
  std::unordered_map<EClassId, ClassState> classes;
  std::unordered_set<ENode, ENodeHash> ops;
  RewritePreview summary;
  bool acyclic = true;

  // Returns whether the class's value depends on weights alone. The hash of a class is its
  // node's op, port and payload (interned attributes, or a leaf) over its children's hashes, free
  // of class ids, which rewrites reuse.
  std::function<bool(EClassId)> visit = [&](EClassId eclass) {
    ClassState& state = classes[egraph_.find(eclass)];
    if (state.visit == Visit::Done) return state.weightOnly;
    if (state.visit == Visit::OnPath || !acyclic) return acyclic = false;
    state.visit = Visit::OnPath;
    const ENode* node = chosen(egraph_.find(eclass));
    bool weightOnly = false;
    size_t hash = 0;
    if (!node) {
      acyclic = false;
    } else {
      hash = static_cast<size_t>(node->op) * 0x100000001b3ULL;
      hashCombine(hash, node->port);
      hashCombine(hash, node->payload);
      if (node->op == OpKind::Weight) {
        weightOnly = !egraph_.leaf(node->payload).node.name.empty(); // the unnamed leaf is an absent input
      } else if (node->op != OpKind::Input) {
        bool childrenOnWeights = true;
        for (EClassId child : node->children) {
          childrenOnWeights = visit(child) && childrenOnWeights;
          hashCombine(hash, classes[egraph_.find(child)].hash);
        }
        weightOnly = node->op != OpKind::Opaque && !node->children.empty() && childrenOnWeights;
        ENode op = canonical(egraph_, *node);
        op.port = 0;
        if (acyclic && ops.insert(op).second) {
          ++summary.ops;
          if (!weightOnly) summary.costMs += opCost(op);
        }
      }
    }
    state.visit = Visit::Done; // references into an unordered_map survive its growth
    state.weightOnly = weightOnly;
    state.hash = hash;
    return weightOnly;
  };
  for (EClassId output : seed_.outputs) {
    visit(output);
    hashCombine(summary.hash, classes[egraph_.find(output)].hash);
  }
  if (!acyclic) return std::nullopt;
  return summary;
}

// The cost of one op (port 0 standing for all its outputs), as graphCost prices its graph node.
double GraphRewriter::opCost(const ENode& node) {
  bool cacheable = std::all_of(node.children.begin(), node.children.end(), [&](EClassId c) { return c < seededClasses_; });
  if (cacheable)
    if (auto it = opCosts_.find(node); it != opCosts_.end()) return it->second;
  OpSignature signature;
  signature.kind = node.op;
  for (EClassId child : node.children) {
    const TensorType& type = egraph_.data(child).type;
    if (type.dtype != DType::Undefined) signature.inputs.push_back(type); // skips absent optional inputs
  }
  if (node.op == OpKind::Opaque) {
    signature.outputs = egraph_.leaf(node.payload).node.outputTypes;
  } else {
    signature.attrs = egraph_.attributes().get(node.payload);
    signature.outputs = inferOutputTypes(node.op, signature.attrs, signature.inputs);
  }
  double ms = cost_.costMs(signature);
  if (cacheable) opCosts_.emplace(node, ms);
  return ms;
}

std::vector<NodeOrigin> GraphRewriter::originsOf(const std::vector<ENode>& sources,
                                                 const std::unordered_map<EClassId, ENode>& fresh, const Rule& rule,
                                                 int step, uint32_t& newNodes) const {
  // Sources name multi-output ops by port 0.
  std::unordered_set<ENode, ENodeHash> added;
  for (const auto& [eclass, node] : fresh) {
    ENode key = node;
    key.port = 0;
    added.insert(std::move(key));
  }
  std::unordered_map<ENode, const NodeOrigin*, ENodeHash> inherited;
  for (const auto& [node, origin] : originalNodes_) inherited.try_emplace(canonical(egraph_, node), &origin);

  std::vector<NodeOrigin> origins;
  origins.reserve(sources.size());
  newNodes = 0;
  for (const ENode& source : sources) {
    if (added.count(source)) {
      origins.push_back(NodeOrigin{rule.name(), step});
      ++newNodes;
      continue;
    }
    auto it = inherited.find(source);
    origins.push_back(it == inherited.end() ? NodeOrigin{} : *it->second);
  }
  return origins;
}

} // namespace tessera
