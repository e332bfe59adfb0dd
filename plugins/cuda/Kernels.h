// Tessera's own CUDA kernels, for what cuDNN and cuBLAS do not offer with ONNX semantics: strided
// and broadcasting elementwise maths, strided copies (concat, split, transpose, slice, pad), row
// reductions (layer norm, reduce mean) and pooling windows cuDNN cannot express. Plain structs
// only, so the .cu files need no Tessera header. Each launcher enqueues on `stream` and returns
// the launch's status (cudaSuccess once queued); the caller checks it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace tessera::cuda {

inline constexpr int kMaxRank = 8;

// Launch shape shared by the .cu files: 256 threads a block, grid-stride loops, at most 2^20 blocks.
inline constexpr int kThreads = 256;
inline unsigned blocksFor(int64_t total) {
  const int64_t blocks = (total + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks > (int64_t{1} << 20) ? (int64_t{1} << 20) : blocks);
}

// An index space: every coordinate vector c with 0 <= c[d] < dims[d], walked in row-major order.
struct IndexSpace {
  int rank = 0;
  int64_t dims[kMaxRank] = {};
  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= dims[d];
    return n;
  }
};

// Where coordinate c of an index space lives in a buffer: offset + sum(c[d] * strides[d]).
// A broadcast axis has stride 0; a negative stride walks backwards (a Slice with a negative step).
struct StridedView {
  int64_t offset = 0;
  int64_t strides[kMaxRank] = {};
};

enum class ElementwiseOp : int { Add, Sub, Mul, Div, Pow, Sigmoid, Relu, Tanh, Erf, Gelu, GeluTanh, Sqrt, Exp, Neg, Clip };

// out[i] = op(a[aView(c)], b[bView(c)]) for the i-th coordinate c of `space` (out is dense).
// Unary ops ignore b (which may be null); Clip reads `low` and `high`. `out` may be `a` or `b`
// when that operand is dense over `space`: each element is read before it is written.
cudaError_t launchElementwise(ElementwiseOp op, const IndexSpace& space, const float* a, const StridedView& aView, const float* b,
                              const StridedView& bView, float* out, float low, float high, cudaStream_t stream);

// Optional zero/constant padding for a copy: the source has `sourceDims`, placed at `begin` in
// the copied space (negative begins crop); coordinates outside it get `fill`.
struct Padding {
  bool active = false;
  int64_t begin[kMaxRank] = {};
  int64_t sourceDims[kMaxRank] = {};
  float fill = 0.0f;
};

// dst[dstView(c)] = src[srcView(c)] for every coordinate c of `space`; with padding, srcView is
// applied to c - padding.begin and coordinates outside the source are filled.
cudaError_t launchCopy(const IndexSpace& space, const float* src, const StridedView& srcView, float* dst, const StridedView& dstView,
                       const Padding& padding, cudaStream_t stream);

// out[o] = mean over the coordinates r of `reduced` of x[keptView(o) + reducedView(r)], for every
// coordinate o of `kept` (out dense in kept's order). One block per output.
cudaError_t launchReduceMean(const IndexSpace& kept, const StridedView& keptView, const IndexSpace& reduced, const StridedView& reducedView,
                             const float* x, float* out, cudaStream_t stream);

// Rows of `inner` contiguous elements: y = (x - mean) / sqrt(var + epsilon) * scale + bias, with
// scale and bias of `inner` elements (bias may be null). One block per row.
cudaError_t launchLayerNorm(const float* x, const float* scale, const float* bias, float* y, int64_t rows, int64_t inner, float epsilon,
                            cudaStream_t stream);

// NCHW pooling with ONNX semantics (the reference interpreter's): asymmetric pads, dilations,
// ceil_mode outputs; max ignores padding, averages divide by the taps inside the input or, with
// countPadding, inside the padded input.
struct PoolWindow {
  int64_t planes, height, width, outH, outW;
  int64_t kernelH, kernelW, strideH, strideW, padTop, padLeft, padBottom, padRight, dilationH, dilationW;
};
enum class PoolKind : int { Max, Average, AverageCountingPadding };
cudaError_t launchPool(PoolKind kind, const PoolWindow& window, const float* x, float* y, cudaStream_t stream);

} // namespace tessera::cuda
