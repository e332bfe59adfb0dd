// Rewrites a whole Graph with the e-graph rules, one match at a time (TASO's step): the graph is
// seeded into an e-graph once (one e-node per class) and every match is applied inside a
// checkpoint, turned back into a graph that prefers the rewrite's new nodes, then rolled back.
#pragma once

#include "egraph/EGraph.h"
#include "egraph/GraphConversion.h"
#include "rewrite/Rule.h"
#include "search/Strategy.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tessera {

// A graph one rule application away from the rewriter's graph.
struct RewrittenGraph {
  Graph graph;
  std::vector<NodeOrigin> origins; // by NodeId; nodes the rewrite added get {rule, step}
  uint32_t newNodes = 0;           // nodes of `graph` the rewrite added
};

class GraphRewriter {
public:
  // `origins` gives each node of `graph` its origin (by NodeId; may be empty: all original).
  // Throws tessera::Error when the graph does not type-check in the e-graph.
  GraphRewriter(const Graph& graph, const std::vector<NodeOrigin>& origins);

  // Matches of `rule` in the graph, in the rule's deterministic order.
  std::vector<RuleMatch> matches(const Rule& rule, size_t limit) const;

  // Applies one match and builds the rewritten graph. `keep` sees the graph while the rewrite is
  // live and decides whether it is worth returning (origins are only computed for kept graphs).
  // nullopt when the rule changes nothing, its right-hand side does not type-check, the result
  // has a cycle, or `keep` declines. The e-graph is back to the seeded graph afterwards.
  std::optional<RewrittenGraph> rewrite(const Rule& rule, const RuleMatch& match, int step,
                                        const std::function<bool(const Graph&)>& keep);

private:
  class NewNodeRecorder;

  void mapOriginalNodes(const Graph& graph, const std::vector<NodeOrigin>& origins);
  std::vector<NodeOrigin> originsOf(const std::vector<ENode>& sources, const std::unordered_map<EClassId, ENode>& fresh,
                                    const Rule& rule, int step, uint32_t& newNodes) const;

  EGraph egraph_;
  SeededGraph seed_;
  // The seeded graph's op e-nodes (port 0, as seeded) with the origin of the node they stand for.
  std::vector<std::pair<ENode, NodeOrigin>> originalNodes_;
};

} // namespace tessera
