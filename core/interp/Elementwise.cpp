// Elementwise ops: the unary activations (Relu, Sigmoid, Tanh, Erf, Gelu, Sqrt, Exp, Neg, Clip),
// the numpy-broadcasting binary ops (Add, Sub, Mul, Div, Pow, variadic Sum) and TENSAT's smul.
#include "interp/Kernels.h"

#include <cmath>
#include <limits>

namespace tessera::interp {

namespace {

template <class Function>
void mapElements(const float* x, float* out, int64_t count, Function function) {
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (count > kParallelGrain)
  for (int64_t i = 0; i < count; ++i) out[i] = function(x[i]);
}

// out = op(a, b) with a and b broadcast to outShape. `out` may alias `a` when a has outShape:
// each element is read before it is written.
template <class Op>
void broadcastApply(const Shape& outShape, const float* a, const Shape& aShape, const float* b, const Shape& bShape, float* out, Op op) {
  const int64_t total = numelOf(outShape);
  if (aShape == outShape && bShape == outShape) {
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], b[i]);
    return;
  }
  if (aShape == outShape && numelOf(bShape) == 1) {
    const float scalar = b[0];
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], scalar);
    return;
  }
  if (bShape == outShape && numelOf(aShape) == 1) {
    const float scalar = a[0];
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(scalar, b[i]);
    return;
  }
  // General case: rows of the last output dimension, each operand stepping 0 or 1 along it.
  const size_t rank = outShape.size();
  if (rank == 0 || total == 0) return; // a rank-0 output has rank-0 operands, handled above
  const std::vector<int64_t> stridesA = broadcastStrides(aShape, outShape);
  const std::vector<int64_t> stridesB = broadcastStrides(bShape, outShape);
  const std::vector<int64_t> outStrides = contiguousStrides(outShape);
  const int64_t inner = outShape.back();
  const int64_t stepA = stridesA.back(), stepB = stridesB.back();
  const int64_t rows = total / inner;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
  for (int64_t row = 0; row < rows; ++row) {
    int64_t offsetA = 0, offsetB = 0;
    for (size_t d = 0; d + 1 < rank; ++d) {
      const int64_t coordinate = row * inner / outStrides[d] % outShape[d];
      offsetA += coordinate * stridesA[d];
      offsetB += coordinate * stridesB[d];
    }
    float* dst = out + row * inner;
    for (int64_t i = 0; i < inner; ++i) dst[i] = op(a[offsetA + i * stepA], b[offsetB + i * stepB]);
  }
}

float gelu(float x, bool tanhApproximation) {
  if (tanhApproximation) {
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x); // sqrt(2/pi)
    return 0.5f * x * (1.0f + std::tanh(inner));
  }
  return 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f)); // x / sqrt(2)
}

} // namespace

Tensor unary(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const float* x = in[0]->floats().data();
  float* out = y.mutableFloats().data();
  const int64_t count = y.numel();
  switch (node.kind) {
  case OpKind::Relu: mapElements(x, out, count, [](float v) { return v < 0.0f ? 0.0f : v; }); break;
  case OpKind::Sigmoid: mapElements(x, out, count, [](float v) { return 1.0f / (1.0f + std::exp(-v)); }); break;
  case OpKind::Tanh: mapElements(x, out, count, [](float v) { return std::tanh(v); }); break;
  case OpKind::Erf: mapElements(x, out, count, [](float v) { return std::erf(v); }); break;
  case OpKind::Sqrt: mapElements(x, out, count, [](float v) { return std::sqrt(v); }); break;
  case OpKind::Exp: mapElements(x, out, count, [](float v) { return std::exp(v); }); break;
  case OpKind::Neg: mapElements(x, out, count, [](float v) { return -v; }); break;
  case OpKind::Gelu: {
    const std::string approximate = node.attrs.getString("approximate", "none");
    if (approximate != "none" && approximate != "tanh") kernelError("unknown Gelu approximation '" + approximate + "'");
    const bool useTanh = approximate == "tanh";
    mapElements(x, out, count, [useTanh](float v) { return gelu(v, useTanh); });
    break;
  }
  case OpKind::Clip: {
    // ONNX: min(max(x, min), max), so min > max yields max everywhere.
    const float low = node.attrs.getFloat("min", -std::numeric_limits<float>::infinity());
    const float high = node.attrs.getFloat("max", std::numeric_limits<float>::infinity());
    mapElements(x, out, count, [low, high](float v) {
      const float raised = v < low ? low : v;
      return raised > high ? high : raised;
    });
    break;
  }
  default: kernelError("not a unary op: " + std::string(opName(node.kind)));
  }
  return y;
}

Tensor broadcastBinary(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  float* out = y.mutableFloats().data();
  const Tensor& a = *in[0];
  auto apply = [&](const Tensor& b, auto op) {
    broadcastApply(outShape, a.floats().data(), a.shape(), b.floats().data(), b.shape(), out, op);
  };
  switch (node.kind) {
  case OpKind::Add: apply(*in[1], [](float p, float q) { return p + q; }); break;
  case OpKind::Sub: apply(*in[1], [](float p, float q) { return p - q; }); break;
  case OpKind::Mul: apply(*in[1], [](float p, float q) { return p * q; }); break;
  case OpKind::Div: apply(*in[1], [](float p, float q) { return p / q; }); break;
  case OpKind::Pow: apply(*in[1], [](float p, float q) { return std::pow(p, q); }); break;
  case OpKind::Sum:
    // Accumulate into the (zeroed) output in input order: ((x0 + x1) + x2) + ...
    for (const Tensor* term : in)
      broadcastApply(outShape, out, outShape, term->floats().data(), term->shape(), out, [](float p, float q) { return p + q; });
    break;
  default: kernelError("not a broadcasting binary op: " + std::string(opName(node.kind)));
  }
  return y;
}

Tensor scalarMul(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const float scalar = in[1]->floats()[0];
  mapElements(in[0]->floats().data(), y.mutableFloats().data(), y.numel(), [scalar](float v) { return v * scalar; });
  return y;
}

} // namespace tessera::interp
