// Elementwise ops: the unary activations and math functions (Relu ... Mish; Neg, Abs and Sign on
// integers too), the numpy-broadcasting arithmetic (Add, Sub, Mul, Div, Pow, Mod, PRelu, variadic
// Sum, Mean, Min, Max) on floats or integers, and TENSAT's smul.
#include "interp/BroadcastWalk.h"
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace tessera::interp {

namespace {

template <class In, class Out, class Function>
void mapElements(const In* x, Out* out, int64_t count, Function function) {
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (count > kParallelGrain)
  for (int64_t i = 0; i < count; ++i) out[i] = function(x[i]);
}

// out = op(a, b) with a and b broadcast to outShape. `out` may alias `a` when a has outShape:
// each element is read before it is written.
template <class A, class B, class Out, class Op>
void broadcastApply(const Shape& outShape, const A* a, const Shape& aShape, const B* b, const Shape& bShape, Out* out, Op op) {
  const int64_t total = numelOf(outShape);
  if (aShape == outShape && bShape == outShape) {
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], b[i]);
    return;
  }
  if (aShape == outShape && numelOf(bShape) == 1) {
    const B scalar = b[0];
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(a[i], scalar);
    return;
  }
  if (bShape == outShape && numelOf(aShape) == 1) {
    const A scalar = a[0];
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
    for (int64_t i = 0; i < total; ++i) out[i] = op(scalar, b[i]);
    return;
  }
  forEachBroadcastElement<2>(outShape, {&aShape, &bShape},
                             [&](int64_t i, const std::array<int64_t, 2>& at) { out[i] = op(a[at[0]], b[at[1]]); });
}

float gelu(float x, bool tanhApproximation) {
  if (tanhApproximation) {
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x); // sqrt(2/pi)
    return 0.5f * x * (1.0f + std::tanh(inner));
  }
  return 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f)); // x / sqrt(2)
}

// Python's modulo (the result takes the divisor's sign), ONNX Mod with fmod=0.
template <class T> T floorMod(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    const T r = a % b;
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
  } else {
    const T r = std::fmod(a, b);
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
  }
}

float softplus(float v) { return v > 0.0f ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v)); }

Tensor integerUnary(const Node& node, const Tensor& x) {
  Tensor y = allocateOutput(node);
  const int64_t* in = x.ints().data();
  int64_t* out = y.mutableInts().data();
  const DType type = y.dtype();
  switch (node.kind) {
  case OpKind::Neg: mapElements(in, out, y.numel(), [type](int64_t v) { return wrapInteger(type, -v); }); break;
  case OpKind::Abs: mapElements(in, out, y.numel(), [type](int64_t v) { return wrapInteger(type, v < 0 ? -v : v); }); break;
  case OpKind::Sign: mapElements(in, out, y.numel(), [](int64_t v) { return int64_t{(v > 0) - (v < 0)}; }); break;
  default: kernelError(std::string(opName(node.kind)) + " computes on floats");
  }
  return y;
}

} // namespace

Tensor unary(const Node& node, KernelInputs in) {
  if (!in[0]->holdsFloats()) return integerUnary(node, *in[0]);
  Tensor y = allocateOutput(node);
  const float* x = in[0]->floats().data();
  float* out = y.mutableFloats().data();
  const int64_t count = y.numel();
  auto attr = [&](const char* name, float fallback) { return node.attrs.getFloat(name, fallback); };
  auto map = [&](auto function) { mapElements(x, out, count, function); };
  switch (node.kind) {
  case OpKind::Relu: map([](float v) { return v < 0.0f ? 0.0f : v; }); break;
  case OpKind::Sigmoid: map([](float v) { return 1.0f / (1.0f + std::exp(-v)); }); break;
  case OpKind::Tanh: map([](float v) { return std::tanh(v); }); break;
  case OpKind::Erf: map([](float v) { return std::erf(v); }); break;
  case OpKind::Sqrt: map([](float v) { return std::sqrt(v); }); break;
  case OpKind::Exp: map([](float v) { return std::exp(v); }); break;
  case OpKind::Neg: map([](float v) { return -v; }); break;
  case OpKind::Abs: map([](float v) { return std::abs(v); }); break;
  case OpKind::Sign: map([](float v) { return v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : v; }); break;
  case OpKind::Log: map([](float v) { return std::log(v); }); break;
  case OpKind::Reciprocal: map([](float v) { return 1.0f / v; }); break;
  case OpKind::Floor: map([](float v) { return std::floor(v); }); break;
  case OpKind::Ceil: map([](float v) { return std::ceil(v); }); break;
  case OpKind::Round: map([](float v) { return std::nearbyint(v); }); break; // half to even
  case OpKind::Sin: map([](float v) { return std::sin(v); }); break;
  case OpKind::Cos: map([](float v) { return std::cos(v); }); break;
  case OpKind::Tan: map([](float v) { return std::tan(v); }); break;
  case OpKind::Asin: map([](float v) { return std::asin(v); }); break;
  case OpKind::Acos: map([](float v) { return std::acos(v); }); break;
  case OpKind::Atan: map([](float v) { return std::atan(v); }); break;
  case OpKind::Sinh: map([](float v) { return std::sinh(v); }); break;
  case OpKind::Cosh: map([](float v) { return std::cosh(v); }); break;
  case OpKind::Asinh: map([](float v) { return std::asinh(v); }); break;
  case OpKind::Acosh: map([](float v) { return std::acosh(v); }); break;
  case OpKind::Atanh: map([](float v) { return std::atanh(v); }); break;
  case OpKind::Softplus: map(softplus); break;
  case OpKind::Softsign: map([](float v) { return v / (1.0f + std::abs(v)); }); break;
  case OpKind::Mish: map([](float v) { return v * std::tanh(softplus(v)); }); break;
  case OpKind::HardSwish: map([](float v) { return v * std::clamp(v / 6.0f + 0.5f, 0.0f, 1.0f); }); break;
  case OpKind::Elu: {
    const float alpha = attr("alpha", 1.0f);
    map([alpha](float v) { return v < 0.0f ? alpha * std::expm1(v) : v; });
    break;
  }
  case OpKind::Selu: {
    const float alpha = attr("alpha", 1.67326319217681884765625f), gamma = attr("gamma", 1.05070102214813232421875f);
    map([alpha, gamma](float v) { return gamma * (v <= 0.0f ? alpha * std::expm1(v) : v); });
    break;
  }
  case OpKind::Celu: {
    const float alpha = attr("alpha", 1.0f);
    map([alpha](float v) { return std::max(0.0f, v) + std::min(0.0f, alpha * std::expm1(v / alpha)); });
    break;
  }
  case OpKind::LeakyRelu: {
    const float alpha = attr("alpha", 0.01f);
    map([alpha](float v) { return v < 0.0f ? alpha * v : v; });
    break;
  }
  case OpKind::ThresholdedRelu: {
    const float alpha = attr("alpha", 1.0f);
    map([alpha](float v) { return v > alpha ? v : 0.0f; });
    break;
  }
  case OpKind::HardSigmoid: {
    const float alpha = attr("alpha", 0.2f), beta = attr("beta", 0.5f);
    map([alpha, beta](float v) { return std::clamp(alpha * v + beta, 0.0f, 1.0f); });
    break;
  }
  case OpKind::Shrink: {
    const float bias = attr("bias", 0.0f), lambd = attr("lambd", 0.5f);
    map([bias, lambd](float v) { return v < -lambd ? v + bias : v > lambd ? v - bias : 0.0f; });
    break;
  }
  case OpKind::Gelu: {
    const std::string approximate = node.attrs.getString("approximate", "none");
    if (approximate != "none" && approximate != "tanh") kernelError("unknown Gelu approximation '" + approximate + "'");
    const bool useTanh = approximate == "tanh";
    map([useTanh](float v) { return gelu(v, useTanh); });
    break;
  }
  case OpKind::Clip: {
    // ONNX: min(max(x, min), max), so min > max yields max everywhere.
    const float low = attr("min", -std::numeric_limits<float>::infinity());
    const float high = attr("max", std::numeric_limits<float>::infinity());
    map([low, high](float v) {
      const float raised = v < low ? low : v;
      return raised > high ? high : raised;
    });
    break;
  }
  default: kernelError("not a unary op: " + std::string(opName(node.kind)));
  }
  const DType type = y.dtype();
  if (type == DType::Float16 || type == DType::BFloat16)
    for (float& v : y.mutableFloats()) v = roundToPrecision(type, v);
  return y;
}

namespace {

template <class T> Tensor arithmetic(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  T* out = y.mutableValues<T>().data();
  const DType type = y.dtype();
  const Tensor& a = *in[0];
  auto apply = [&](auto op) {
    broadcastApply(outShape, a.values<T>().data(), a.shape(), in[1]->values<T>().data(), in[1]->shape(), out, op);
  };
  // Each term in input order: ((x0 op x1) op x2) ..., starting from a copy of x0.
  auto fold = [&](auto op) {
    broadcastApply(outShape, out, outShape, a.values<T>().data(), a.shape(), out, [](T, T q) { return q; });
    for (size_t i = 1; i < in.size(); ++i)
      broadcastApply(outShape, out, outShape, in[i]->values<T>().data(), in[i]->shape(), out, op);
  };
  auto checkDivisor = [&]() {
    if constexpr (std::is_integral_v<T>)
      for (int64_t v : in[1]->ints())
        if (v == 0) kernelError("integer division by zero");
  };
  switch (node.kind) {
  case OpKind::Add: apply([](T p, T q) { return p + q; }); break;
  case OpKind::Sub: apply([](T p, T q) { return p - q; }); break;
  case OpKind::Mul: apply([](T p, T q) { return p * q; }); break;
  case OpKind::Div:
    checkDivisor();
    apply([](T p, T q) { return p / q; });
    break;
  case OpKind::Mod:
    checkDivisor();
    if (node.attrs.getInt("fmod", 0) != 0) {
      if constexpr (std::is_integral_v<T>)
        apply([](T p, T q) { return p % q; });
      else
        apply([](T p, T q) { return std::fmod(p, q); });
    } else {
      apply([](T p, T q) { return floorMod(p, q); });
    }
    break;
  case OpKind::PRelu: apply([](T p, T q) { return p < 0 ? p * q : p; }); break;
  case OpKind::Sum: fold([](T p, T q) { return p + q; }); break;
  case OpKind::Mean: {
    fold([](T p, T q) { return p + q; });
    const T count = static_cast<T>(in.size());
    for (T& v : y.mutableValues<T>()) v /= count;
    break;
  }
  case OpKind::Min: fold([](T p, T q) { return std::isnan(static_cast<double>(q)) || q < p ? q : p; }); break;
  case OpKind::Max: fold([](T p, T q) { return std::isnan(static_cast<double>(q)) || q > p ? q : p; }); break;
  default: kernelError("not a broadcasting binary op: " + std::string(opName(node.kind)));
  }
  if constexpr (std::is_integral_v<T>) {
    for (T& v : y.mutableValues<T>()) v = wrapInteger(type, v);
  } else if (type == DType::Float16 || type == DType::BFloat16) {
    for (T& v : y.mutableValues<T>()) v = roundToPrecision(type, v);
  }
  return y;
}

// Pow's exponent may have another element type than its base: both are read as double.
Tensor power(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  std::vector<double> base(static_cast<size_t>(in[0]->numel())), exponent(static_cast<size_t>(in[1]->numel()));
  for (size_t i = 0; i < base.size(); ++i) base[i] = in[0]->valueAt(static_cast<int64_t>(i));
  for (size_t i = 0; i < exponent.size(); ++i) exponent[i] = in[1]->valueAt(static_cast<int64_t>(i));
  std::vector<double> result(static_cast<size_t>(y.numel()));
  broadcastApply(y.shape(), base.data(), in[0]->shape(), exponent.data(), in[1]->shape(), result.data(),
                 [](double p, double q) { return std::pow(p, q); });
  if (y.holdsFloats()) {
    std::transform(result.begin(), result.end(), y.mutableFloats().begin(), [&](double v) { return roundToPrecision(y.dtype(), static_cast<float>(v)); });
  } else {
    const DType type = y.dtype();
    std::transform(result.begin(), result.end(), y.mutableInts().begin(), [type](double v) { return wrapInteger(type, static_cast<int64_t>(v)); });
  }
  return y;
}

} // namespace

Tensor broadcastBinary(const Node& node, KernelInputs in) {
  if (node.kind == OpKind::Pow) return power(node, in);
  return withElementType(*in[0], [&](auto zero) { return arithmetic<decltype(zero)>(node, in); });
}

Tensor scalarMul(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const float scalar = in[1]->floats()[0];
  mapElements(in[0]->floats().data(), y.mutableFloats().data(), y.numel(), [scalar](float v) { return v * scalar; });
  return y;
}

} // namespace tessera::interp
