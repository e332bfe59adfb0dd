// Checks that two graphs compute the same function: same seeded random inputs and weights (by
// name) into both, outputs compared element by element within tolerance.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <string>

namespace tessera {

struct VerifyOptions {
  int trials = 3; // at least one runs
  double rtol = 1e-3;
  double atol = 1e-5;
  uint64_t seed = 1;
  bool randomizeWeights = true; // false: use each graph's own weights
};

struct VerifyResult {
  bool equivalent = false;
  double maxAbsError = 0;
  double maxRelError = 0;
  // The element furthest beyond tolerance, candidate value first: "output 0 (logits) element
  // [0,17]: 0.51 vs 0.49"; or why the graphs cannot match (different inputs, output shapes).
  std::string worst;
};

// An element matches when |candidate - original| <= atol + rtol * |original|, or both are NaN.
// Throws tessera::Error when either graph cannot be run at all (an opaque op, a non-float input).
VerifyResult verifyEquivalent(const Graph& original, const Graph& candidate, const VerifyOptions& options = {});

} // namespace tessera
