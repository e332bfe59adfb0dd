// Extraction from Tessera's e-graph: prices every e-node with a cost model, hands the generic
// problem to an extractor (tree, ocf, dag, ilp) and turns the choice back into a Graph.
#pragma once

#include "cost/CostModel.h"
#include "egraph/GraphConversion.h"
#include "extract/Extraction.h"

#include <string>
#include <unordered_map>

namespace tessera {

// Prices e-nodes, remembering each distinct signature's cost (TASO measures each once).
class ENodeCoster {
public:
  explicit ENodeCoster(CostModel& model) : model_(model) {}
  // 0 for leaves and for nodes of all-weights classes (precomputable, as in TASO/TENSAT).
  double cost(const EGraph& egraph, EClassId eclass, const ENode& node);
  size_t distinctSignatures() const { return costs_.size(); }

private:
  CostModel& model_;
  std::unordered_map<std::string, double> costs_;
};

struct EGraphProblem {
  extract::ExtractionProblem problem;
  std::vector<EClassId> classOf;              // problem class -> e-graph class
  std::vector<const ENode*> nodeOf;           // problem node -> e-node
};

// The classes reachable from the roots through e-nodes the cycle filter kept.
EGraphProblem toExtractionProblem(const EGraph& egraph, std::span<const EClassId> roots, ENodeCoster& coster);

// The graph an extraction's choice (problem class -> problem node, -1 where unneeded) stands for.
// Throws tessera::Error when the choice has a cycle or misses a reachable class.
Graph graphFromProblemChoice(const EGraph& egraph, const SeededGraph& seed, const EGraphProblem& converted,
                             const std::vector<int32_t>& choice, std::vector<ENode>* sources = nullptr);

struct ExtractedGraph {
  Graph graph;
  std::vector<ENode> sources; // the e-node each graph node came from, by NodeId
  double dagCostMs = 0;
  double seconds = 0;
  std::string method;
  bool provenOptimal = false;
};

// `method`: tree | ocf | dag | ilp. Throws tessera::Error for an unknown method.
ExtractedGraph extractGraph(const EGraph& egraph, const SeededGraph& seed, ENodeCoster& coster, const std::string& method,
                            double ilpTimeLimitSeconds = 60);

} // namespace tessera
