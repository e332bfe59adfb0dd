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

// The ops an executor runs per inference, in topological order: not inputs or weights, not
// precomputable from weights alone, not data views (isDataView: they alias their input).
std::vector<NodeId> executedOps(const Graph& graph);

} // namespace tessera
