// A cache-blocked float32 matrix multiply with OpenMP and SIMD micro-kernels chosen at run time
// (AVX-512, AVX2+FMA, portable): the work horse behind Conv, MatMul and Gemm. Internal to interp.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::interp {

// A read-only matrix with arbitrary element strides: element (r, c) is data[r*rowStride + c*colStride].
// A transposed operand is the same memory with the strides swapped.
struct MatrixView {
  const float* data = nullptr;
  int64_t rowStride = 0;
  int64_t colStride = 1;

  float at(int64_t row, int64_t col) const { return data[row * rowStride + col * colStride]; }
  MatrixView transposed() const { return {data, colStride, rowStride}; }
};

enum class GemmKernel { Portable, Avx2, Avx512 };

// C[m,n] = alpha * A[m,k] B[k,n] + beta * C, with C row-major (row stride ldc). As in BLAS,
// beta == 0 ignores C's previous contents (NaN included). Uses the best kernel this CPU runs.
void floatGemm(int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b, float beta, float* c, int64_t ldc);

// The same with a given micro-kernel; precondition: gemmKernelAvailable(kernel). For tests and
// benchmarks that compare the kernels.
void floatGemmWith(GemmKernel kernel, int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b, float beta,
                   float* c, int64_t ldc);

bool gemmKernelAvailable(GemmKernel kernel);
GemmKernel bestGemmKernel();
const char* gemmKernelName(GemmKernel kernel);

} // namespace tessera::interp
