// Lowers a scheduled loop nest to one C function,
//   void tessera_kernel(const float* const* inputs, float* out),
// inputs in the workload's order (lhs, rhs[, bias]), every buffer dense row-major float32.
// Annotations become OpenMP and GCC pragmas: parallel -> omp parallel for collapse(n),
// vectorized -> omp simd, unrolled -> GCC unroll.
#pragma once

#include "tune/LoopNest.h"

#include <string>

namespace tessera::tune {

inline constexpr const char* kKernelSymbol = "tessera_kernel";

std::string generateC(const LoopNest& nest);

// Whether the source needs -fopenmp (it has a parallel loop); omp simd needs only -fopenmp-simd.
bool needsOpenMp(const LoopNest& nest);

} // namespace tessera::tune
