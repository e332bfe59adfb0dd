#include "search/taso/GraphRewriter.h"

#include "support/Error.h"

#include <algorithm>
#include <unordered_set>

namespace tessera {

namespace {
ENode canonical(const EGraph& egraph, ENode node) {
  for (EClassId& child : node.children) child = egraph.find(child);
  return node;
}

// The leaf seedEGraph uses for an absent optional input of an opaque op.
Node absentInput() {
  Node node;
  node.kind = OpKind::Weight;
  node.outputTypes = {TensorType{DType::Undefined, {}}};
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

GraphRewriter::GraphRewriter(const Graph& graph, const std::vector<NodeOrigin>& origins)
    : seed_(seedEGraph(egraph_, graph)) {
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
      if (port == 0) originalNodes_.emplace_back(std::move(enode), id < origins.size() ? origins[id] : NodeOrigin{});
    }
  }
}

std::vector<RuleMatch> GraphRewriter::matches(const Rule& rule, size_t limit) const { return rule.search(egraph_, limit); }

std::optional<RewrittenGraph> GraphRewriter::rewrite(const Rule& rule, const RuleMatch& match, int step,
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

  std::vector<ENode> sources;
  RewrittenGraph result;
  try {
    result.graph = graphFromChoice(egraph_, seed_, chosen, &sources);
  } catch (const Error&) {
    return std::nullopt; // a cycle: the rewrite's nodes cannot all be used at once
  }
  if (!keep(result.graph)) return std::nullopt;
  result.origins = originsOf(sources, fresh, rule, step, result.newNodes);
  return result;
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
