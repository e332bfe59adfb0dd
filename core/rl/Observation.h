// What an RL agent sees of one state of graph rewriting: the current graph as node features and
// message edges for a graph network, and each candidate rewrite as its rule, its location (rows of
// the node features) and its cost delta. Plain numbers, so environments and their tests need no
// tensor library; the agent turns them into tensors.
#pragma once

#include "cost/GraphCost.h"
#include "ir/Graph.h"

#include <cstdint>
#include <vector>

namespace tessera {

// Compact, as a PPO buffer keeps thousands: a node's op kind is an index (the agent embeds it),
// edges are 32-bit rows.
struct GraphObservation {
  int64_t nodes = 0;                       // rows: the graph's ops
  std::vector<int32_t> ops;                // per row: its OpKind
  std::vector<float> figures;              // nodes x nodeFigureSize(), row-major: cost and shape figures
  std::vector<int32_t> senders, receivers; // message edges: each data edge both ways, and a self loop per row
  std::vector<float> globals;              // globalFeatureSize() numbers about the whole state
};

struct CandidateObservation {
  int32_t rule = 0;          // index of the rule in the pack
  std::vector<int32_t> rows; // the ops it rewrites, as rows of the graph observation
  float costDeltaPct = 0;    // 100 x (candidate cost - current cost) / initial cost: negative is better
  float opDelta = 0;         // ops the candidate has more than the current graph
};

// One state. The actions are the candidates, in order, and then stop (index candidates.size()).
struct Observation {
  GraphObservation graph;
  std::vector<CandidateObservation> candidates;
};

// What the global features need beyond the graph.
struct EpisodeProgress {
  double initialCostMs = 0;        // rewards and cost figures are shares of it
  size_t candidates = 0;
  size_t maxCandidates = 1;
  double largestDropPct = 0;       // the best candidate's saving, % of the initial cost (negative: none saves)
};

int opKindCount();       // the range of GraphObservation::ops
int nodeFigureSize();
int globalFeatureSize();

// Features of `graph`'s ops (inputs and weights are not nodes, as in X-RLflow); `rowOfNode`
// receives each NodeId's row, -1 for inputs and weights.
GraphObservation observeGraph(const Graph& graph, const GraphCost& cost, const EpisodeProgress& progress,
                              std::vector<int32_t>& rowOfNode);

} // namespace tessera
