#include "cost/GraphCost.h"

namespace tessera {

OpSignature signatureOf(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
  for (const ValueRef& input : node.inputs)
    if (!input.isNone()) signature.inputs.push_back(graph.typeOf(input));
  return signature;
}

GraphCost graphCost(const Graph& graph, CostModel& model) {
  GraphCost cost;
  cost.nodeMs.assign(graph.size(), 0.0);
  std::vector<bool> weightOnly(graph.size(), false);
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Weight) weightOnly[id] = true;
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    bool precomputable = node.kind != OpKind::Opaque && !node.inputs.empty();
    for (const ValueRef& input : node.inputs) precomputable = precomputable && !input.isNone() && weightOnly[input.node];
    weightOnly[id] = precomputable;
    if (precomputable) continue;
    cost.nodeMs[id] = model.costMs(signatureOf(graph, id));
    cost.totalMs += cost.nodeMs[id];
  }
  return cost;
}

} // namespace tessera
