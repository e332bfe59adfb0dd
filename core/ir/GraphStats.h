// Summary figures of a graph: op counts by kind, parameters, opaque ops. Shared by `info` and the GUI.
#pragma once

#include "ir/Graph.h"

#include <map>
#include <string>
#include <vector>

namespace tessera {

struct GraphStats {
  std::map<std::string, int> opsByKind; // Tessera op name (or "Opaque:<domain::type>") -> count
  size_t ops = 0;                       // real ops, not inputs or weights
  size_t weights = 0;
  int64_t parameters = 0;               // elements in all weights
  std::vector<std::string> opaqueOps;   // "name (domain::type)"
};

GraphStats computeGraphStats(const Graph& graph);

} // namespace tessera
