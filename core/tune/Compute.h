// What a workload computes, as a loop nest sees it: spatial and reduction axes and affine
// accesses into dense row-major buffers, out[s] (+)= lhs[...] * rhs[...], then the epilogue.
#pragma once

#include "tune/Workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tune {

struct Axis {
  std::string name;
  int64_t extent = 1;
  bool reduction = false;
};

// Element offset = sum over axes of coeff[a] * value(a). `buffer` is a kernel input (0, 1, 2 =
// bias) or, for the conv input when padded, the zero-padded copy (still 0).
struct Access {
  int buffer = 0;
  std::vector<int64_t> coeff; // one per axis of the compute
};

// A conv input copied into a zero-padded buffer before the nest, so the nest reads it without
// bounds checks: [n, c, h + 2 pad, w + 2 pad].
struct PaddedInput {
  int64_t n = 0, c = 0, h = 0, w = 0, pad = 0;
  int64_t paddedElements() const { return n * c * (h + 2 * pad) * (w + 2 * pad); }
};

struct Compute {
  Workload workload;
  std::vector<Axis> axes; // spatial axes first, in output order, then reduction axes
  Access lhs, rhs, output;
  std::optional<Access> bias;
  bool relu = false;
  std::optional<PaddedInput> padded;
  std::vector<int64_t> inputElements; // per kernel input
  int64_t outputElements = 0;

  int axisIndex(const std::string& name) const; // -1 when absent
  int spatialAxes() const;
};

Compute computeOf(const Workload& workload);

} // namespace tessera::tune
