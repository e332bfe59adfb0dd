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

// Whether LLVM code generation can be used: this build has LLVM (found at configure time; Debian:
// llvm-dev) and its codegen module loads (LlvmModule.cpp; LLVM is loaded only then).
bool llvmAvailable();

// The module as LLVM assembly. Throws tessera::Error for a GPU schedule, or where llvmAvailable() is
// false, saying why.
std::string generateLlvmIr(const LoopNest& nest);

// What generateLlvmIr runs in the codegen module (CodegenLlvm.cpp, linked with LLVM).
std::string emitLlvmIr(const LoopNest& nest);

} // namespace tessera::tune
