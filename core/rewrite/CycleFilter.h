// TENSAT's "efficient" cycle filter: a depth-first walk from the roots that filters the e-node
// closing each cycle it meets, so every extraction from the roots is acyclic.
#pragma once

#include "egraph/EGraph.h"

#include <span>

namespace tessera {

// Returns how many e-nodes were newly filtered. The e-graph must be clean.
size_t filterCycles(EGraph& egraph, std::span<const EClassId> roots);

} // namespace tessera
