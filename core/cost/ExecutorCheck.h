// Whether a backend's executor computes what the reference interpreter computes: a timing means
// nothing for a graph the executor gets wrong (a tuned kernel, a fused post-op, a layout).
#pragma once

#include "cost/GraphExecutor.h"
#include "interp/Interpreter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

struct OutputAgreement {
  int64_t mismatches = 0; // elements beyond tolerance, over all outputs
  // The element furthest beyond tolerance, executor's value first: "output 0 element 17: 0.51 vs 0.49".
  std::string worst;
  bool matches() const { return mismatches == 0; }
};

// Every element within rtol 1e-3 (atol 1e-4 near zero), NaN only where the interpreter has one;
// outputs of another count or shape are one mismatch each.
OutputAgreement compareOutputs(const std::vector<Tensor>& got, const std::vector<Tensor>& want);

// Runs `graph` with seeded random weights (the samples hold splats, which hide wrong indexing) and
// inputs on the executor and on the interpreter, and compares the outputs. Throws tessera::Error
// when either cannot run it.
OutputAgreement checkExecutor(GraphExecutor& executor, const Graph& graph, uint64_t seed);

} // namespace tessera
