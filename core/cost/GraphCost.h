// Cost of a whole graph: the sum of its ops' costs (TASO), with per-node figures for heat maps.
#pragma once

#include "cost/CostModel.h"
#include "ir/Graph.h"

#include <vector>

namespace tessera {

OpSignature signatureOf(const Graph& graph, NodeId node);

struct GraphCost {
  double totalMs = 0;
  std::vector<double> nodeMs; // per node id; 0 for inputs and weights
};

// Ops whose inputs are all weights are precomputable and cost nothing (as in TASO/TENSAT), and so
// do ops the model's runtime folds into their producer at load (CostModel::foldedIntoProducer).
GraphCost graphCost(const Graph& graph, CostModel& model);

// Whether the model's runtime runs the op as a view of its input, copying nothing: a data view
// (isDataView, every executor), or a contiguous split where the runtime slices those.
bool runsAsView(const CostModel& model, const OpSignature& signature);

// The ops the model's runtime runs per inference, in topological order: not inputs or weights, not
// precomputable from weights alone, not views of their input (runsAsView), not folded into their
// producer at load (CostModel::foldedIntoProducer). graphCost prices exactly these.
std::vector<NodeId> executedOps(const Graph& graph, const CostModel& model);

} // namespace tessera
