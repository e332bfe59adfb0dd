// Lowers a scheduled loop nest straight to LLVM IR, as TVM's LLVM backend lowers a schedule: the
// unrolled loops are written out unrolled, the vectorized loop as operations on LLVM vectors, and
// the parallel loops become one function that each OpenMP thread runs on its static share of their
// collapsed iterations (through GOMP_parallel, the libgomp entry GCC's `omp parallel` calls).
// The function and its semantics are generateC's:
//   void tessera_kernel(const float* const* inputs, float* out).
#pragma once

#include "tune/LoopNest.h"

#include <string>

namespace tessera::tune {

// Whether this build has LLVM (found at configure time; Debian: llvm-dev).
bool llvmAvailable();

// The module as LLVM assembly. Throws tessera::Error for a GPU schedule, or in a build without LLVM.
std::string generateLlvmIr(const LoopNest& nest);

} // namespace tessera::tune
