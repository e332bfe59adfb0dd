#include "cost/GraphCost.h"

namespace tessera {

OpSignature signatureOf(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
  for (const ValueRef& input : node.inputs)
    if (!input.isNone()) signature.inputs.push_back(graph.typeOf(input));
  return signature;
}

namespace {

// The ops that run per inference (not inputs, weights or what weights alone determine), in order.
std::vector<NodeId> perInferenceOps(const Graph& graph) {
  std::vector<NodeId> ops;
  std::vector<bool> weightOnly(graph.size(), false);
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Weight) weightOnly[id] = true;
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    bool precomputable = node.kind != OpKind::Opaque && !node.inputs.empty();
    for (const ValueRef& input : node.inputs) precomputable = precomputable && !input.isNone() && weightOnly[input.node];
    weightOnly[id] = precomputable;
    if (!precomputable) ops.push_back(id);
  }
  return ops;
}

} // namespace

GraphCost graphCost(const Graph& graph, CostModel& model) {
  GraphCost cost;
  cost.nodeMs.assign(graph.size(), 0.0);
  for (NodeId id : perInferenceOps(graph)) {
    cost.nodeMs[id] = model.costMs(signatureOf(graph, id));
    cost.totalMs += cost.nodeMs[id];
  }
  return cost;
}

std::vector<NodeId> executedOps(const Graph& graph) {
  std::vector<NodeId> ops = perInferenceOps(graph);
  std::erase_if(ops, [&](NodeId id) { return isDataView(graph.node(id).kind); });
  return ops;
}

} // namespace tessera
