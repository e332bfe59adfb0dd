#include "ir/GraphStats.h"

namespace tessera {

namespace {
std::string opaqueLabel(const OpaqueOp& op) { return (op.domain.empty() ? "ai.onnx" : op.domain) + "::" + op.opType; }
} // namespace

GraphStats computeGraphStats(const Graph& graph) {
  GraphStats stats;
  for (const Node& node : graph.nodes()) {
    if (node.kind == OpKind::Input) continue;
    if (node.kind == OpKind::Weight) {
      ++stats.weights;
      stats.parameters += node.outputTypes[0].numel();
      continue;
    }
    ++stats.ops;
    if (node.kind == OpKind::Opaque) {
      std::string label = opaqueLabel(*node.opaque);
      ++stats.opsByKind["Opaque:" + label];
      stats.opaqueOps.push_back(node.name + " (" + label + ")");
      continue;
    }
    ++stats.opsByKind[std::string(opName(node.kind))];
  }
  return stats;
}

} // namespace tessera
