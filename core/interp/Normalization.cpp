// BatchNormalization (inference form), LayerNormalization, InstanceNormalization and LRN, with
// ONNX semantics, and LRN's denominator (LrnDenominator) on its own.
// Statistics accumulate in double: the interpreter is the reference, not the fast path.
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessera::interp {

// y = scale * (x - mean) / sqrt(var + epsilon) + bias, per channel (axis 1).
Tensor batchNorm(const Node& node, KernelInputs in) {
  const float epsilon = node.attrs.getFloat("epsilon", 1e-5f);
  const Shape& shape = in[0]->shape();
  const int64_t channels = shape[1];
  const int64_t inner = product(shape, 2, shape.size());
  const int64_t planes = shape[0] * channels;
  const float* x = in[0]->floats().data();
  const float* scale = in[1]->floats().data();
  const float* bias = in[2]->floats().data();
  const float* mean = in[3]->floats().data();
  const float* var = in[4]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * inner > kParallelGrain)
  for (int64_t plane = 0; plane < planes; ++plane) {
    const int64_t c = plane % channels;
    const float factor = scale[c] / std::sqrt(var[c] + epsilon);
    for (int64_t i = 0; i < inner; ++i) out[plane * inner + i] = (x[plane * inner + i] - mean[c]) * factor + bias[c];
  }
  return y;
}

// Normalises over the dimensions from `axis` on; scale and bias broadcast to those dimensions.
Tensor layerNorm(const Node& node, KernelInputs in) {
  const float epsilon = node.attrs.getFloat("epsilon", 1e-5f);
  const Shape& shape = in[0]->shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = node.attrs.getInt("axis", -1);
  if (axis < 0) axis += rank;
  const Shape normalized(shape.begin() + axis, shape.end());
  const int64_t inner = numelOf(normalized);
  const int64_t outer = product(shape, 0, static_cast<size_t>(axis));

  // Scale and bias expanded to the normalized block, so the row loop reads them directly.
  auto expand = [&](const Tensor& t) {
    std::vector<float> full(static_cast<size_t>(inner));
    const std::vector<int64_t> strides = broadcastStrides(t.shape(), normalized);
    const std::vector<int64_t> dense = contiguousStrides(normalized);
    for (int64_t i = 0; i < inner; ++i) {
      int64_t offset = 0;
      for (size_t d = 0; d < normalized.size(); ++d) offset += i / dense[d] % normalized[d] * strides[d];
      full[static_cast<size_t>(i)] = t.floats()[static_cast<size_t>(offset)];
    }
    return full;
  };
  const std::vector<float> scale = expand(*in[1]);
  const std::vector<float> bias = in.size() > 2 ? expand(*in[2]) : std::vector<float>(static_cast<size_t>(inner), 0.0f);

  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (outer * inner > kParallelGrain)
  for (int64_t row = 0; row < outer; ++row) {
    const float* src = x + row * inner;
    double sum = 0.0;
    for (int64_t i = 0; i < inner; ++i) sum += src[i];
    const double mean = sum / static_cast<double>(inner);
    double squares = 0.0;
    for (int64_t i = 0; i < inner; ++i) squares += (src[i] - mean) * (src[i] - mean);
    const double invStd = 1.0 / std::sqrt(squares / static_cast<double>(inner) + epsilon);
    for (int64_t i = 0; i < inner; ++i)
      out[row * inner + i] = static_cast<float>((src[i] - mean) * invStd) * scale[static_cast<size_t>(i)] + bias[static_cast<size_t>(i)];
  }
  return y;
}

// Each (image, channel) plane normalised by its own mean and variance, then scale[c] and bias[c].
Tensor instanceNorm(const Node& node, KernelInputs in) {
  const float epsilon = node.attrs.getFloat("epsilon", 1e-5f);
  const Shape& shape = in[0]->shape();
  const int64_t channels = shape[1];
  const int64_t inner = product(shape, 2, shape.size());
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  for (int64_t plane = 0; plane < shape[0] * channels; ++plane) {
    const float* src = x + plane * inner;
    double sum = 0.0, squares = 0.0;
    for (int64_t i = 0; i < inner; ++i) sum += src[i];
    const double mean = inner == 0 ? 0.0 : sum / static_cast<double>(inner);
    for (int64_t i = 0; i < inner; ++i) squares += (src[i] - mean) * (src[i] - mean);
    const double invStd = 1.0 / std::sqrt(squares / static_cast<double>(std::max<int64_t>(inner, 1)) + epsilon);
    const int64_t c = plane % channels;
    for (int64_t i = 0; i < inner; ++i)
      out[plane * inner + i] = static_cast<float>((src[i] - mean) * invStd) * in[1]->floats()[static_cast<size_t>(c)] + in[2]->floats()[static_cast<size_t>(c)];
  }
  return y;
}

namespace {

// LRN's attributes, with ONNX's defaults.
struct LrnWindow {
  explicit LrnWindow(const Node& node)
      : alpha(node.attrs.getFloat("alpha", 1e-4f)), beta(node.attrs.getFloat("beta", 0.75f)), bias(node.attrs.getFloat("bias", 1.0f)),
        size(node.attrs.getInt("size", 0)) {
    if (size < 1) kernelError("LRN size must be >= 1");
  }
  float alpha, beta, bias;
  int64_t size;
};

// For every element of `s` (N, C, ...): (bias + alpha / size * window_sum)^beta, the sum over the
// channels [c - floor((size-1)/2), c + ceil((size-1)/2)] that exist of s, or of s squared when
// `squared` (LRN). Hands each element's value and its index to `store`.
template <typename Store>
void forEachLrnDenominator(const LrnWindow& window, const Tensor& s, bool squared, Store store) {
  const Shape& shape = s.shape();
  const int64_t channels = shape[1], inner = product(shape, 2, shape.size());
  const int64_t before = (window.size - 1) / 2, after = window.size - 1 - before;
  const float* x = s.floats().data();
  const int64_t planes = shape[0] * channels;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * inner * window.size > kParallelGrain)
  for (int64_t plane = 0; plane < planes; ++plane) {
    const int64_t n = plane / channels, c = plane % channels;
    const int64_t first = std::max<int64_t>(0, c - before), last = std::min(channels - 1, c + after);
    for (int64_t i = 0; i < inner; ++i) {
      double windowSum = 0.0;
      for (int64_t k = first; k <= last; ++k) {
        const double v = x[(n * channels + k) * inner + i];
        windowSum += squared ? v * v : v;
      }
      store(plane * inner + i, std::pow(window.bias + window.alpha / static_cast<double>(window.size) * windowSum, static_cast<double>(window.beta)));
    }
  }
}

} // namespace

// y = x / (bias + alpha / size * square_sum)^beta (ONNX LRN).
Tensor lrn(const Node& node, KernelInputs in) {
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  forEachLrnDenominator(LrnWindow(node), *in[0], true, [&](int64_t i, double denominator) { out[i] = static_cast<float>(x[i] / denominator); });
  return y;
}

// LRN's denominator over squares already taken: (bias + alpha / size * window_sum(s))^beta, so
// that LRN(x) = x / LrnDenominator(x * x) (the rule lrn-as-channel-conv).
Tensor lrnDenominator(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  forEachLrnDenominator(LrnWindow(node), *in[0], false, [&](int64_t i, double denominator) { out[i] = static_cast<float>(denominator); });
  return y;
}

} // namespace tessera::interp
