// Ops with Bool results or operands: comparisons (Equal, Less, LessOrEqual, Greater,
// GreaterOrEqual) on floats or integers, And/Or/Xor/Not on Bool, IsNaN/IsInf, Where; and Cast
// between element types (truncating toward zero into integers, rounding into float16).
#include "interp/BroadcastWalk.h"
#include "interp/Kernels.h"

#include <array>
#include <cmath>
#include <type_traits>

namespace tessera::interp {

namespace {

template <class T, class Op> void compareElements(const Tensor& a, const Tensor& b, Tensor& y, Op op) {
  const T* x = a.values<T>().data();
  const T* z = b.values<T>().data();
  int64_t* out = y.mutableInts().data();
  forEachBroadcastElement<2>(y.shape(), {&a.shape(), &b.shape()},
                             [&](int64_t i, const std::array<int64_t, 2>& at) { out[i] = op(x[at[0]], z[at[1]]) ? 1 : 0; });
}

} // namespace

Tensor compare(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  withElementType(*in[0], [&](auto zero) {
    using T = decltype(zero);
    switch (node.kind) {
    case OpKind::Equal: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p == q; }); break;
    case OpKind::Less: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p < q; }); break;
    case OpKind::LessOrEqual: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p <= q; }); break;
    case OpKind::Greater: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p > q; }); break;
    case OpKind::GreaterOrEqual: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p >= q; }); break;
    case OpKind::And: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p != 0 && q != 0; }); break;
    case OpKind::Or: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return p != 0 || q != 0; }); break;
    case OpKind::Xor: compareElements<T>(*in[0], *in[1], y, [](T p, T q) { return (p != 0) != (q != 0); }); break;
    default: kernelError("not a comparison: " + std::string(opName(node.kind)));
    }
    return 0;
  });
  return y;
}

Tensor predicate(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  int64_t* out = y.mutableInts().data();
  const int64_t count = y.numel();
  switch (node.kind) {
  case OpKind::Not:
    for (int64_t i = 0; i < count; ++i) out[i] = in[0]->ints()[static_cast<size_t>(i)] == 0 ? 1 : 0;
    break;
  case OpKind::IsNaN:
    for (int64_t i = 0; i < count; ++i) out[i] = std::isnan(in[0]->floats()[static_cast<size_t>(i)]) ? 1 : 0;
    break;
  case OpKind::IsInf: {
    const bool negative = node.attrs.getInt("detect_negative", 1) != 0, positive = node.attrs.getInt("detect_positive", 1) != 0;
    for (int64_t i = 0; i < count; ++i) {
      const float v = in[0]->floats()[static_cast<size_t>(i)];
      out[i] = std::isinf(v) && ((v > 0 && positive) || (v < 0 && negative)) ? 1 : 0;
    }
    break;
  }
  default: kernelError("not a predicate: " + std::string(opName(node.kind)));
  }
  return y;
}

Tensor where(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const int64_t* condition = in[0]->ints().data();
  withElementType(y, [&](auto zero) {
    using T = decltype(zero);
    const T* x = in[1]->values<T>().data();
    const T* z = in[2]->values<T>().data();
    T* out = y.mutableValues<T>().data();
    forEachBroadcastElement<3>(y.shape(), {&in[0]->shape(), &in[1]->shape(), &in[2]->shape()},
                               [&](int64_t i, const std::array<int64_t, 3>& at) { out[i] = condition[at[0]] != 0 ? x[at[1]] : z[at[2]]; });
    return 0;
  });
  return y;
}

Tensor cast(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Tensor& x = *in[0];
  const DType to = y.dtype();
  const int64_t count = y.numel();
  if (y.holdsFloats()) {
    float* out = y.mutableFloats().data();
    for (int64_t i = 0; i < count; ++i) out[i] = roundToPrecision(to, static_cast<float>(x.valueAt(i)));
    return y;
  }
  int64_t* out = y.mutableInts().data();
  if (!x.holdsFloats()) {
    for (int64_t i = 0; i < count; ++i) out[i] = wrapInteger(to, x.intAt(i));
    return y;
  }
  for (int64_t i = 0; i < count; ++i) {
    const double v = std::trunc(x.floatAt(i));
    if (to == DType::Bool) {
      out[i] = x.floatAt(i) != 0.0f ? 1 : 0;
      continue;
    }
    // NaN and values beyond int64 have no integer value; ONNX leaves them undefined.
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) kernelError("cannot cast " + std::to_string(x.floatAt(i)) + " to an integer");
    out[i] = wrapInteger(to, static_cast<int64_t>(v));
  }
  return y;
}

} // namespace tessera::interp
