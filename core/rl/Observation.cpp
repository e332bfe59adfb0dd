#include "rl/Observation.h"

#include <cassert>
#include <cmath>

namespace tessera {

namespace {

constexpr int kNodeFigures = 6;
constexpr int kGlobalFeatures = 4;

float log2Scaled(double value, double scale) { return static_cast<float>(std::log2(1.0 + value) / scale); }

} // namespace

int opKindCount() { return opCount(); }
int nodeFigureSize() { return kNodeFigures; }
int globalFeatureSize() { return kGlobalFeatures; }

GraphObservation observeGraph(const Graph& graph, const GraphCost& cost, const EpisodeProgress& progress,
                              std::vector<int32_t>& rowOfNode) {
  assert(cost.nodeMs.size() == graph.size() && "cost must be the graph's own");
  GraphObservation observation;
  rowOfNode.assign(graph.size(), -1);
  for (NodeId id = 0; id < graph.size(); ++id) {
    OpKind kind = graph.node(id).kind;
    if (kind == OpKind::Input || kind == OpKind::Weight) continue;
    rowOfNode[id] = static_cast<int32_t>(observation.nodes++);
    observation.ops.push_back(static_cast<int32_t>(kind));
  }

  const double initial = progress.initialCostMs > 0 ? progress.initialCostMs : 1.0;
  observation.figures.assign(static_cast<size_t>(observation.nodes * kNodeFigures), 0.0f);
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (rowOfNode[id] < 0) continue;
    const Node& node = graph.node(id);
    float* figures = &observation.figures[static_cast<size_t>(rowOfNode[id]) * kNodeFigures];
    const double ms = cost.nodeMs[id];
    const TensorType* output = node.outputTypes.empty() ? nullptr : &node.outputTypes.front();
    figures[0] = static_cast<float>(100.0 * ms / initial); // its share of the model, as rewards count it
    figures[1] = log2Scaled(ms * 1000.0, 10.0);             // microseconds, log scale
    figures[2] = output ? log2Scaled(static_cast<double>(output->numel()), 24.0) : 0.0f;
    figures[3] = output ? static_cast<float>(output->rank()) / 4.0f : 0.0f;
    figures[4] = static_cast<float>(node.inputs.size()) / 4.0f;
    figures[5] = ms == 0.0 ? 1.0f : 0.0f; // free: a data view or computed from weights alone

    // Messages flow both ways along each data edge: a rewrite's location depends on its
    // producers and its consumers alike.
    for (const ValueRef& input : node.inputs) {
      if (input.isNone() || rowOfNode[input.node] < 0) continue;
      observation.senders.push_back(rowOfNode[input.node]);
      observation.receivers.push_back(rowOfNode[id]);
      observation.senders.push_back(rowOfNode[id]);
      observation.receivers.push_back(rowOfNode[input.node]);
    }
  }
  for (int32_t row = 0; row < observation.nodes; ++row) {
    observation.senders.push_back(row);
    observation.receivers.push_back(row);
  }

  // No step count: an agent trained with one horizon may run with another, and the same graph
  // should read the same wherever it is met.
  observation.globals = {
      static_cast<float>(cost.totalMs / initial),
      log2Scaled(static_cast<double>(observation.nodes), 12.0),
      static_cast<float>(progress.candidates) / static_cast<float>(progress.maxCandidates > 0 ? progress.maxCandidates : 1),
      static_cast<float>(progress.largestDropPct / 10.0),
  };
  assert(static_cast<int>(observation.globals.size()) == kGlobalFeatures);
  return observation;
}

} // namespace tessera
