// A workload's verification problem: seeded random inputs and the reference interpreter's
// output for them (a one-op graph of MatMul or Conv, then Add and Relu for the epilogue).
#pragma once

#include "tune/Workload.h"

#include <cstdint>
#include <vector>

namespace tessera::tune {

struct Problem {
  std::vector<std::vector<float>> inputs; // in the kernel's input order
  std::vector<float> expected;
  // A kernel passes when |got - expected| <= atol + rtol * |expected| everywhere.
  double atol = 1e-3, rtol = 1e-3;
};

Problem makeProblem(const Workload& workload, uint64_t seed);

} // namespace tessera::tune
