// Where two graphs differ, cut into regions: a region is a connected group of changed nodes
// (removed, added or changed, joined by the edges between them on either side and by each changed
// node's counterpart), priced before and after by the snapshots' cost model, with the rules that
// created its new nodes. The compare view lists these so a speedup can be traced to a place.
#pragma once

#include "GraphDiff.h"
#include "GraphSnapshot.h"
#include "search/Candidate.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::views {

struct ChangedRegion {
  std::vector<NodeId> before; // nodes of the first graph, ascending
  std::vector<NodeId> after;  // nodes of the second graph, ascending
  double beforeMs = 0;
  double afterMs = 0;
  std::map<std::string, int> rules; // rule -> nodes of `after` it created (from the provenance)

  double deltaMs() const { return afterMs - beforeMs; }
};

// Regions ordered by delta, the largest saving first. `afterOrigins` (one per node of the second
// graph, may be empty) names the rule behind each node.
std::vector<ChangedRegion> changedRegions(const GraphDiff& diff, const GraphSnapshot& before, const GraphSnapshot& after,
                                          const std::vector<NodeOrigin>& afterOrigins);

} // namespace tessera::views
