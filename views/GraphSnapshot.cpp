#include "GraphSnapshot.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"

namespace tessera::views {

GraphSnapshot GraphSnapshot::make(std::shared_ptr<const Graph> graph, CostModel& model, std::string title) {
  GraphSnapshot snapshot;
  snapshot.graph = std::move(graph);
  snapshot.title = std::move(title);
  if (!snapshot.graph) return snapshot;
  GraphCost cost = tessera::graphCost(*snapshot.graph, model);
  snapshot.nodeMs = std::move(cost.nodeMs);
  snapshot.totalMs = cost.totalMs;
  snapshot.costSpec = model.spec();
  return snapshot;
}

GraphSnapshot GraphSnapshot::make(std::shared_ptr<const Graph> graph, const std::string& costSpec, std::string title) {
  if (costSpec.empty()) {
    GraphSnapshot snapshot;
    snapshot.graph = std::move(graph);
    snapshot.title = std::move(title);
    return snapshot;
  }
  std::unique_ptr<CostModel> model = makeCostModel(costSpec);
  return make(std::move(graph), *model, std::move(title));
}

} // namespace tessera::views
