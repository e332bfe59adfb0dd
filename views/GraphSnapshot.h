// What a graph view shows: an immutable graph plus its cost under one cost model (per node, for
// the heat map and the properties panel). Cheap to copy; the graph is shared, never mutated.
#pragma once

#include "ir/Graph.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera {
class CostModel;
}

namespace tessera::views {

struct GraphSnapshot {
  std::shared_ptr<const Graph> graph;
  std::vector<double> nodeMs; // per node id; empty when no cost model was given
  double totalMs = 0;
  std::string costSpec;       // "analytic:h200"; empty when no cost model was given
  std::string title;          // what the user calls this graph: "squeezenet", "optimised (eqsat)"

  bool empty() const { return !graph; }
  double costOf(NodeId node) const { return node < nodeMs.size() ? nodeMs[node] : 0.0; }

  // Prices every node with `cost`.
  static GraphSnapshot make(std::shared_ptr<const Graph> graph, CostModel& cost, std::string title = {});
  // Prices every node with the cost model `costSpec` names (core's makeCostModel). Throws
  // tessera::Error for a spec core cannot satisfy.
  static GraphSnapshot make(std::shared_ptr<const Graph> graph, const std::string& costSpec, std::string title = {});
  // The same graph priced by another cost model.
  GraphSnapshot repriced(CostModel& cost) const { return make(graph, cost, title); }
};

} // namespace tessera::views
