// One kernel for every elementwise op: each thread maps its output index to coordinates and reads
// both operands through their strides, so broadcasting on any axis costs no extra pass. The maths
// follow the reference interpreter (core/interp/Elementwise.cpp) operation for operation.
#include "Kernels.h"

namespace tessera::cuda {

namespace {

__device__ float apply(ElementwiseOp op, float a, float b, float low, float high) {
  switch (op) {
  case ElementwiseOp::Add: return a + b;
  case ElementwiseOp::Sub: return a - b;
  case ElementwiseOp::Mul: return a * b;
  case ElementwiseOp::Div: return a / b;
  case ElementwiseOp::Pow: return powf(a, b);
  case ElementwiseOp::Sigmoid: return 1.0f / (1.0f + expf(-a));
  case ElementwiseOp::Relu: return a < 0.0f ? 0.0f : a; // NaN stays NaN
  case ElementwiseOp::Tanh: return tanhf(a);
  case ElementwiseOp::Erf: return erff(a);
  case ElementwiseOp::Gelu: return 0.5f * a * (1.0f + erff(a * 0.7071067811865476f));
  case ElementwiseOp::GeluTanh: return 0.5f * a * (1.0f + tanhf(0.7978845608028654f * (a + 0.044715f * a * a * a)));
  case ElementwiseOp::Sqrt: return sqrtf(a);
  case ElementwiseOp::Exp: return expf(a);
  case ElementwiseOp::Neg: return -a;
  case ElementwiseOp::Clip: {
    // ONNX: min(max(x, low), high), so low > high gives high everywhere and NaN stays NaN.
    const float raised = a < low ? low : a;
    return raised > high ? high : raised;
  }
  }
  return a;
}

__global__ void elementwise(ElementwiseOp op, IndexSpace space, const float* a, StridedView aView, const float* b, StridedView bView,
                            float* out, float low, float high, int64_t total) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rest = i, offsetA = aView.offset, offsetB = bView.offset;
    for (int d = space.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % space.dims[d];
      rest /= space.dims[d];
      offsetA += coordinate * aView.strides[d];
      offsetB += coordinate * bView.strides[d];
    }
    out[i] = apply(op, a[offsetA], b ? b[offsetB] : 0.0f, low, high);
  }
}

} // namespace

cudaError_t launchElementwise(ElementwiseOp op, const IndexSpace& space, const float* a, const StridedView& aView, const float* b,
                              const StridedView& bView, float* out, float low, float high, cudaStream_t stream) {
  const int64_t total = space.numel();
  if (total == 0) return cudaSuccess;
  elementwise<<<blocksFor(total), kThreads, 0, stream>>>(op, space, a, aView, b, bView, out, low, high, total);
  return cudaGetLastError();
}

} // namespace tessera::cuda
