// Rewrites a whole Graph with the e-graph rules, one match at a time (TASO's step): the graph is
// seeded into an e-graph once (one e-node per class) and every match is applied inside a
// checkpoint, turned back into a graph that prefers the rewrite's new nodes, then rolled back.
#pragma once

#include "cost/CostModel.h"
#include "egraph/EGraph.h"
#include "egraph/GraphConversion.h"
#include "rewrite/Rule.h"
#include "search/Strategy.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tessera {

// What a rewrite would produce, known before its graph is built (cost as graphCost counts it).
struct RewritePreview {
  size_t ops = 0;
  double costMs = 0;
  size_t hash = 0; // of the graph it would build, from its ops and wiring: equal graphs hash equal
};

// A graph one rule application away from the rewriter's graph.
struct RewrittenGraph {
  Graph graph;
  double costMs = 0;               // graphCost of `graph`
  std::vector<NodeOrigin> origins; // by NodeId; nodes the rewrite added get {rule, step}
  uint32_t newNodes = 0;           // nodes of `graph` the rewrite added
};

class GraphRewriter {
public:
  // `origins` gives each node of `graph` its origin (by NodeId; may be empty: all original).
  // Throws tessera::Error when the graph does not type-check in the e-graph.
  GraphRewriter(const Graph& graph, const std::vector<NodeOrigin>& origins, CostModel& cost);

  // Matches of `rule` in the graph, in the rule's deterministic order.
  std::vector<RuleMatch> matches(const Rule& rule, size_t limit) const;
  // The graph's ops a match rewrites: the node of each matched class (an RL agent's "location").
  std::vector<NodeId> matchedNodes(const RuleMatch& match) const;
  // The preview of the graph itself (its hash is comparable with the rewrites').
  RewritePreview previewSeeded();

  // Applies one match and builds the rewritten graph. Most rewrites are not worth a graph, so
  // `worthBuilding` first sees its op count and cost, then `keep` sees the built graph (origins
  // are only computed for kept graphs). nullopt when the rule changes nothing, its right-hand
  // side does not type-check, the result has a cycle, or a filter declines. The e-graph is back
  // to the seeded graph afterwards.
  std::optional<RewrittenGraph> rewrite(const Rule& rule, const RuleMatch& match, int step,
                                        const std::function<bool(const RewritePreview&)>& worthBuilding,
                                        const std::function<bool(const Graph&)>& keep);

private:
  class NewNodeRecorder;

  using Choice = std::function<const ENode*(EClassId)>;

  void mapOriginalNodes(const Graph& graph, const std::vector<NodeOrigin>& origins);
  std::optional<RewritePreview> preview(const Choice& chosen);
  double opCost(const ENode& node);
  std::vector<NodeOrigin> originsOf(const std::vector<ENode>& sources, const std::unordered_map<EClassId, ENode>& fresh,
                                    const Rule& rule, int step, uint32_t& newNodes) const;

  CostModel& cost_;
  EGraph egraph_;
  SeededGraph seed_;
  // Op costs by e-node, for e-nodes whose children are all seeded classes: those ids never change
  // meaning, while classes a rewrite adds are rolled back and their ids reused.
  size_t seededClasses_ = 0;
  std::unordered_map<ENode, double, ENodeHash> opCosts_;
  // The seeded graph's op e-nodes (port 0, as seeded) with the origin of the node they stand for.
  std::vector<std::pair<ENode, NodeOrigin>> originalNodes_;
  // The graph's op in each seeded class (the first, where equal ops share a class).
  std::unordered_map<EClassId, NodeId> nodeOfClass_;
};

} // namespace tessera
