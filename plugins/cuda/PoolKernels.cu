// Direct NCHW pooling, one thread per output, for the windows cuDNN's symmetric-padding pooling
// cannot express (asymmetric pads, dilations, ceil_mode's extra window). Tap by tap the same rules
// as the reference interpreter (core/interp/Pooling.cpp).
#include "Kernels.h"

#include <cmath>

namespace tessera::cuda {

namespace {

__global__ void pool(PoolKind kind, PoolWindow g, const float* x, float* y, int64_t total) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t ow = i % g.outW, oh = i / g.outW % g.outH, plane = i / (g.outW * g.outH);
    const float* src = x + plane * g.height * g.width;
    float maximum = -INFINITY, sum = 0.0f;
    int64_t taps = 0;
    for (int64_t r = 0; r < g.kernelH; ++r) {
      const int64_t ih = oh * g.strideH - g.padTop + r * g.dilationH;
      const bool rowInPadded = ih >= -g.padTop && ih < g.height + g.padBottom;
      const bool rowInInput = ih >= 0 && ih < g.height;
      for (int64_t s = 0; s < g.kernelW; ++s) {
        const int64_t iw = ow * g.strideW - g.padLeft + s * g.dilationW;
        const bool inInput = rowInInput && iw >= 0 && iw < g.width;
        const bool inPadded = rowInPadded && iw >= -g.padLeft && iw < g.width + g.padRight;
        const float v = inInput ? src[ih * g.width + iw] : 0.0f;
        if (inInput && (v > maximum || isnan(v))) maximum = v;
        sum += v;
        taps += kind == PoolKind::AverageCountingPadding ? inPadded : inInput;
      }
    }
    y[i] = kind == PoolKind::Max ? maximum : sum / static_cast<float>(taps);
  }
}

} // namespace

cudaError_t launchPool(PoolKind kind, const PoolWindow& window, const float* x, float* y, cudaStream_t stream) {
  const int64_t total = window.planes * window.outH * window.outW;
  if (total == 0) return cudaSuccess;
  pool<<<blocksFor(total), kThreads, 0, stream>>>(kind, window, x, y, total);
  return cudaGetLastError();
}

} // namespace tessera::cuda
