// Moving between the two worlds: a Graph seeds an e-graph, and a choice of one e-node per
// e-class turns back into a Graph.
#pragma once

#include "egraph/EGraph.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

// What seeding remembers so that a graph can be rebuilt with the original's signature and names.
struct SeededGraph {
  std::vector<EClassId> outputs;      // one root class per graph output
  std::vector<std::string> outputNames;
  std::vector<uint32_t> inputLeaves;  // leaf ids of the graph inputs, in signature order
  ModelInfo info;
  std::unordered_map<ENode, std::string, ENodeHash> nodeNames; // original op names by e-node (port 0)
  std::vector<std::vector<ENode>> enodesOf; // by graph NodeId: the e-node of each output port as added (empty for leaves)
};

// The weight leaf (empty name, undefined type) that stands for an absent optional input.
Node absentInput();

// Adds every node of `graph` to `egraph`. An absent optional input of an opaque op becomes the
// weight leaf with an empty name and undefined type. Throws tessera::Error if a node does not type-check.
SeededGraph seedEGraph(EGraph& egraph, const Graph& graph);

// Builds the graph chosen by `chosen(class)` from the roots. Multi-output e-nodes (Split ports)
// that share op, attributes and children become one node. Throws tessera::Error when the
// choice has a cycle or leaves a reachable class without a node. `sources`, when given, receives
// the e-node each graph node was built from (by NodeId; ports folded to 0).
Graph graphFromChoice(const EGraph& egraph, const SeededGraph& seed, const std::function<const ENode*(EClassId)>& chosen,
                      std::vector<ENode>* sources = nullptr);

} // namespace tessera
