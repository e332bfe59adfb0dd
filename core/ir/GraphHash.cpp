#include "ir/GraphHash.h"

#include "support/Hash.h"

#include <map>

namespace tessera {

namespace {

size_t hashTensorType(const TensorType& type) {
  size_t h = static_cast<size_t>(type.dtype);
  for (int64_t d : type.shape) hashCombine(h, std::hash<int64_t>{}(d));
  return h;
}

// Identity of a leaf: inputs and weights are matched by type, and by name unless `leaves` says not.
size_t leafHash(const Node& node, LeafIdentity leaves) {
  size_t h = leaves == LeafIdentity::NameAndType ? std::hash<std::string>{}(node.name) : 0;
  hashCombine(h, hashTensorType(node.outputTypes[0]));
  return h;
}

std::vector<size_t> nodeHashes(const Graph& graph, LeafIdentity leaves) {
  std::vector<size_t> hashes(graph.size(), 0);
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    size_t h = static_cast<size_t>(node.kind) * 0x100000001b3ULL;
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) {
      hashCombine(h, leafHash(node, leaves));
    } else {
      hashCombine(h, node.attrs.hash());
      if (node.opaque) hashCombine(h, std::hash<std::string>{}(node.opaque->domain + "::" + node.opaque->opType));
      for (const ValueRef& input : node.inputs) {
        hashCombine(h, input.isNone() ? 0x5bd1e995 : hashes[input.node]);
        hashCombine(h, input.port);
      }
    }
    hashes[id] = h;
  }
  return hashes;
}

// Pairs nodes of `a` and `b` recursively from the outputs; memoised so shared subgraphs are
// compared once, and a node of `a` must always pair with the same node of `b`.
class Comparator {
public:
  Comparator(const Graph& a, const Graph& b) : a_(a), b_(b) {}

  bool equal(NodeId x, NodeId y) {
    auto it = pairs_.find(x);
    if (it != pairs_.end()) return it->second == y;
    const Node& nx = a_.node(x);
    const Node& ny = b_.node(y);
    if (nx.kind != ny.kind || nx.inputs.size() != ny.inputs.size() || nx.outputTypes != ny.outputTypes) return false;
    if (nx.kind == OpKind::Input || nx.kind == OpKind::Weight) {
      if (nx.name != ny.name) return false;
    } else {
      if (nx.attrs != ny.attrs) return false;
      if (nx.opaque && (nx.opaque->domain != ny.opaque->domain || nx.opaque->opType != ny.opaque->opType ||
                        nx.opaque->attributeProtos != ny.opaque->attributeProtos || nx.opaque->capturedNames != ny.opaque->capturedNames))
        return false;
    }
    pairs_[x] = y;
    for (size_t i = 0; i < nx.inputs.size(); ++i) {
      const ValueRef& ix = nx.inputs[i];
      const ValueRef& iy = ny.inputs[i];
      if (ix.isNone() != iy.isNone() || ix.port != iy.port) return false;
      if (!ix.isNone() && !equal(ix.node, iy.node)) return false;
    }
    return true;
  }

private:
  const Graph& a_;
  const Graph& b_;
  std::map<NodeId, NodeId> pairs_;
};

} // namespace

size_t structuralHash(const Graph& graph, LeafIdentity leaves) {
  std::vector<size_t> hashes = nodeHashes(graph, leaves);
  size_t h = graph.outputs().size();
  for (const GraphOutput& out : graph.outputs()) {
    hashCombine(h, hashes[out.value.node]);
    hashCombine(h, out.value.port);
  }
  return h;
}

bool structurallyEqual(const Graph& a, const Graph& b) {
  if (a.outputs().size() != b.outputs().size()) return false;
  Comparator comparator(a, b);
  for (size_t i = 0; i < a.outputs().size(); ++i) {
    const ValueRef& x = a.outputs()[i].value;
    const ValueRef& y = b.outputs()[i].value;
    if (x.port != y.port || !comparator.equal(x.node, y.node)) return false;
  }
  return true;
}

bool GraphSet::insert(const Graph& graph) {
  size_t h = hash_(graph);
  auto [begin, end] = byHash_.equal_range(h);
  for (auto it = begin; it != end; ++it)
    if (structurallyEqual(graphs_[it->second], graph)) return false;
  byHash_.emplace(h, graphs_.size());
  graphs_.push_back(graph);
  return true;
}

bool GraphSet::contains(const Graph& graph) const {
  auto [begin, end] = byHash_.equal_range(hash_(graph));
  for (auto it = begin; it != end; ++it)
    if (structurallyEqual(graphs_[it->second], graph)) return true;
  return false;
}

} // namespace tessera
