#include "cost/GraphCost.h"

#include "ir/ContiguousSplit.h"

#include <span>

namespace tessera {

OpSignature signatureOf(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
  for (const ValueRef& input : node.inputs)
    if (!input.isNone()) signature.inputs.push_back(graph.typeOf(input));
  return signature;
}

namespace {

// Per node: whether weights alone determine it (weights, and ops over nothing else).
std::vector<bool> weightOnlyNodes(const Graph& graph) {
  std::vector<bool> weightOnly(graph.size(), false);
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input) continue;
    bool precomputable = node.kind == OpKind::Weight || (node.kind != OpKind::Opaque && !node.inputs.empty());
    for (const ValueRef& input : node.inputs) precomputable = precomputable && !input.isNone() && weightOnly[input.node];
    weightOnly[id] = precomputable;
  }
  return weightOnly;
}

// The ops that run per inference (not inputs, weights or what weights alone determine), in order.
std::vector<NodeId> perInferenceOps(const Graph& graph, const std::vector<bool>& weightOnly) {
  std::vector<NodeId> ops;
  for (NodeId id : graph.topologicalOrder())
    if (graph.node(id).kind != OpKind::Input && !weightOnly[id]) ops.push_back(id);
  return ops;
}

// Per node: how many per-inference ops and graph outputs read its results.
std::vector<size_t> readerCounts(const Graph& graph, std::span<const NodeId> ops) {
  std::vector<size_t> readers(graph.size(), 0);
  for (NodeId id : ops)
    for (const ValueRef& input : graph.node(id).inputs)
      if (!input.isNone()) ++readers[input.node];
  for (const GraphOutput& output : graph.outputs()) ++readers[output.value.node];
  return readers;
}

// Whether the runtime folds `id` into the op its first operand comes from when it loads the
// graph: its other operands are weights, and it is the only reader of that op's results.
bool foldedAtLoad(const Graph& graph, NodeId id, const std::vector<size_t>& readers, const std::vector<bool>& weightOnly,
                  const CostModel& model) {
  const Node& node = graph.node(id);
  if (node.inputs.empty() || node.inputs[0].isNone()) return false;
  const NodeId producer = node.inputs[0].node;
  const Node& source = graph.node(producer);
  if (source.kind == OpKind::Input || weightOnly[producer] || readers[producer] != 1) return false;
  for (size_t i = 1; i < node.inputs.size(); ++i)
    if (node.inputs[i].isNone() || !weightOnly[node.inputs[i].node]) return false;
  return model.foldedIntoProducer(signatureOf(graph, producer), signatureOf(graph, id));
}

} // namespace

GraphCost graphCost(const Graph& graph, CostModel& model) {
  GraphCost cost;
  cost.nodeMs.assign(graph.size(), 0.0);
  const std::vector<bool> weightOnly = weightOnlyNodes(graph);
  const std::vector<NodeId> ops = perInferenceOps(graph, weightOnly);
  const std::vector<size_t> readers = readerCounts(graph, ops);
  for (NodeId id : ops) {
    if (foldedAtLoad(graph, id, readers, weightOnly, model)) continue;
    cost.nodeMs[id] = model.costMs(signatureOf(graph, id));
    cost.totalMs += cost.nodeMs[id];
  }
  return cost;
}

bool runsAsView(const CostModel& model, const OpSignature& signature) {
  if (isDataView(signature.kind)) return true;
  return model.slicesContiguousSplits() && !signature.inputs.empty() && isContiguousSplit(signature.kind, signature.attrs, signature.inputs[0]);
}

std::vector<NodeId> executedOps(const Graph& graph, const CostModel& model) {
  const std::vector<bool> weightOnly = weightOnlyNodes(graph);
  std::vector<NodeId> ops = perInferenceOps(graph, weightOnly);
  const std::vector<size_t> readers = readerCounts(graph, ops);
  std::erase_if(ops, [&](NodeId id) {
    return runsAsView(model, signatureOf(graph, id)) || foldedAtLoad(graph, id, readers, weightOnly, model);
  });
  return ops;
}

} // namespace tessera
