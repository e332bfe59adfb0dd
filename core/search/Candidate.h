// A candidate graph a search extracted, with its cost and where each of its nodes came from: what
// a session stores, the views compare and the provenance panel explains, apart from the strategies.
#pragma once

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tessera {

// Where a node of a candidate graph came from.
struct NodeOrigin {
  std::string rule; // empty: the node is from the original model
  int step = -1;    // the step (MCTS commit, eqsat iteration, TASO pop) that created it
};

struct Candidate {
  Graph graph;
  double costMs = 0;
  std::string method;              // extraction method, or the strategy for graph-level searches
  int step = 0;
  std::vector<NodeOrigin> origins; // one per node of `graph`, by NodeId
};

} // namespace tessera
