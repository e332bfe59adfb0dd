// Which nodes two graphs share: the compare view's added / removed / changed marks. Nodes are
// matched by name first (the optimiser keeps a surviving node's name), then by structure (same
// op, attributes and matched inputs) so that renamed but identical nodes are not reported, then
// loosely (same op reading some of the same inputs) so that a rewritten node shows as changed
// rather than as one removed and one added.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::views {

enum class DiffStatus : uint8_t {
  Same,    // a counterpart computes the same op on the counterparts of its inputs
  Changed, // a counterpart exists but its op, attributes or types differ, or it reads other inputs
           // (reading around a removed node, as after a fusion, is not a change)
  Added,   // only in the second graph
  Removed, // only in the first graph
};

struct GraphDiff {
  std::vector<DiffStatus> before;                   // per node of the first graph: Same, Changed or Removed
  std::vector<DiffStatus> after;                    // per node of the second graph: Same, Changed or Added
  std::vector<std::optional<NodeId>> beforeToAfter; // counterpart of each first-graph node
  std::vector<std::optional<NodeId>> afterToBefore;
  size_t added = 0;
  size_t removed = 0;
  size_t changed = 0;
};

GraphDiff diffGraphs(const Graph& before, const Graph& after);

} // namespace tessera::views
