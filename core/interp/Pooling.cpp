// MaxPool, AveragePool and GlobalAveragePool on NCHW tensors with ONNX semantics: kernel_shape,
// strides, pads [t,l,b,r], dilations, ceil_mode. Max pooling pads with -inf; average pooling
// divides by the taps inside the input, or with count_include_pad by the taps inside the padded
// input (a ceil_mode window that overhangs the padding counts only what it covers, as in ONNX's
// reference and PyTorch).
#include "interp/Kernels.h"

#include <algorithm>

#include <cmath>
#include <limits>

namespace tessera::interp {

namespace {

struct PoolGeometry {
  int64_t planes, height, width, outH, outW;
  int64_t kernelH, kernelW, strideH, strideW, padTop, padLeft, padBottom, padRight, dilationH, dilationW;
};

PoolGeometry geometryOf(const Node& node, const Tensor& x) {
  auto kernel = node.attrs.getInts("kernel_shape");
  if (kernel.size() != 2) kernelError("pool needs a 2-D kernel_shape");
  auto strides = intsOr(node, "strides", 1, 2);
  auto pads = intsOr(node, "pads", 0, 4);
  auto dilations = intsOr(node, "dilations", 1, 2);
  const Shape& s = x.shape();
  return {s[0] * s[1], s[2], s[3], node.outputTypes[0].shape[2], node.outputTypes[0].shape[3],
          kernel[0], kernel[1], strides[0], strides[1], pads[0], pads[1], pads[2], pads[3], dilations[0], dilations[1]};
}

// Calls visit(value, insideInput, insidePaddedInput) for every tap of output (oh, ow) of a plane.
template <class Visit>
void forEachTap(const PoolGeometry& g, const float* plane, int64_t oh, int64_t ow, Visit visit) {
  for (int64_t i = 0; i < g.kernelH; ++i) {
    const int64_t ih = oh * g.strideH - g.padTop + i * g.dilationH;
    const bool rowInPadded = ih >= -g.padTop && ih < g.height + g.padBottom;
    const bool rowInInput = ih >= 0 && ih < g.height;
    for (int64_t j = 0; j < g.kernelW; ++j) {
      const int64_t iw = ow * g.strideW - g.padLeft + j * g.dilationW;
      const bool inPadded = rowInPadded && iw >= -g.padLeft && iw < g.width + g.padRight;
      const bool inInput = rowInInput && iw >= 0 && iw < g.width;
      visit(inInput ? plane[ih * g.width + iw] : 0.0f, inInput, inPadded);
    }
  }
}

template <class Reduce>
Tensor pool(const Node& node, const Tensor& x, Reduce reduce) {
  const PoolGeometry g = geometryOf(node, x);
  Tensor y = allocateOutput(node);
  const float* in = x.floats().data();
  float* out = y.mutableFloats().data();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (g.planes * g.outH * g.outW * g.kernelH * g.kernelW > kParallelGrain)
  for (int64_t p = 0; p < g.planes; ++p) {
    const float* plane = in + p * g.height * g.width;
    for (int64_t oh = 0; oh < g.outH; ++oh)
      for (int64_t ow = 0; ow < g.outW; ++ow) out[(p * g.outH + oh) * g.outW + ow] = reduce(g, plane, oh, ow);
  }
  return y;
}

} // namespace

Tensor maxPool(const Node& node, KernelInputs in) {
  return pool(node, *in[0], [](const PoolGeometry& g, const float* plane, int64_t oh, int64_t ow) {
    float maximum = -std::numeric_limits<float>::infinity();
    forEachTap(g, plane, oh, ow, [&](float v, bool inside, bool) {
      if (inside && (v > maximum || std::isnan(v))) maximum = v;
    });
    return maximum;
  });
}

Tensor averagePool(const Node& node, KernelInputs in) {
  const bool countPadding = node.attrs.getInt("count_include_pad", 0) != 0;
  return pool(node, *in[0], [countPadding](const PoolGeometry& g, const float* plane, int64_t oh, int64_t ow) {
    double sum = 0.0;
    int64_t taps = 0;
    forEachTap(g, plane, oh, ow, [&](float v, bool inside, bool insidePadded) {
      sum += v; // 0 outside the input
      taps += countPadding ? insidePadded : inside;
    });
    return static_cast<float>(sum / static_cast<double>(taps));
  });
}

Tensor globalAveragePool(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const int64_t planes = shape[0] * shape[1];
  const int64_t inner = product(shape, 2, shape.size());
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * inner > kParallelGrain)
  for (int64_t p = 0; p < planes; ++p) {
    double sum = 0.0;
    for (int64_t i = 0; i < inner; ++i) sum += x[p * inner + i];
    out[p] = static_cast<float>(sum / static_cast<double>(inner));
  }
  return y;
}

Tensor globalMaxPool(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const int64_t planes = shape[0] * shape[1];
  const int64_t inner = product(shape, 2, shape.size());
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  for (int64_t p = 0; p < planes; ++p) out[p] = *std::max_element(x + p * inner, x + (p + 1) * inner);
  return y;
}

} // namespace tessera::interp
