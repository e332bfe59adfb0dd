// The teaching sample: a model small enough to read whole where rewriting greedily (take a rewrite
// only when it lowers the cost right away) misses the best graph, and equality saturation finds it.
// Written to samples/teaching/phase_ordering.onnx.
#pragma once

#include "ir/Graph.h"

namespace tessera::samples {

// y + x·W1 + x·W2, summed as (x·W2) + ((x·W1) + y). The best graph multiplies once, by the
// precomputable W1 + W2, but the distributive rule only matches once the two products sit in one
// sum: reassociating first changes nothing in cost, so a search that takes only improving steps
// never gets there.
Graph phaseOrderingModel();

} // namespace tessera::samples
