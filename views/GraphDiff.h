// Which nodes two graphs share: the compare view's added / removed / changed marks. Nodes are
// matched by name first (the optimiser keeps a surviving node's name), then by structure (same
// op, attributes and matched inputs) so that renamed but identical nodes are not reported.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::views {

enum class DiffStatus : uint8_t {
  Same,    // a counterpart computes the same op on the counterparts of its inputs
  Changed, // a counterpart exists (same name) but its op, attributes, inputs or types differ
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
