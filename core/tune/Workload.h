// A tunable workload: matmul, batched matmul or conv2d with an optional fused epilogue (bias,
// relu), parsed from the CLI's strings ("matmul:512x512x512", "conv2d:1x64x56x56,64x64x3x3,s1,p1").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::tune {

enum class WorkloadKind { MatMul, BatchMatMul, Conv2d };

struct Workload {
  WorkloadKind kind = WorkloadKind::MatMul;
  // MatMul: A[M,K] B[K,N]; BatchMatMul: A[B,M,K] B[B,K,N]; output [B,]M,N.
  int64_t batch = 1, m = 0, n = 0, k = 0;
  // Conv2d: X[N,C,H,W] W[O,C,Kh,Kw] (NCHW, no groups or dilation), square stride and padding.
  int64_t convN = 0, convC = 0, height = 0, width = 0, outChannels = 0, kernelH = 0, kernelW = 0;
  int64_t stride = 1, pad = 0;
  bool bias = false; // + bias[N] (matmul) or bias[O] (conv), broadcast over the rest
  bool relu = false; // then max(x, 0)

  int64_t outHeight() const { return (height + 2 * pad - kernelH) / stride + 1; }
  int64_t outWidth() const { return (width + 2 * pad - kernelW) / stride + 1; }
  // Shapes of the kernel's inputs (A, B[, bias]) and its output.
  std::vector<std::vector<int64_t>> inputShapes() const;
  std::vector<int64_t> outputShape() const;
  // Multiply-adds counted twice; the epilogue is not counted (as TVM and oneDNN report it).
  double flops() const;
  // GFLOP/s of a kernel that runs it in latencyMs.
  double gflopsAt(double latencyMs) const { return flops() / (latencyMs * 1e6); }
  // The canonical spelling, which parse() reads back: the database's workload key.
  std::string key() const;

  friend bool operator==(const Workload&, const Workload&) = default;
};

// Throws tessera::Error naming the string and the part that is wrong.
Workload parseWorkload(std::string_view text);

} // namespace tessera::tune
