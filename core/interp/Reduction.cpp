// Reductions: Softmax, LogSoftmax and Hardmax along one axis (opset-13 semantics); the Reduce*
// family over `axes` (all when empty) with keepdims; ArgMax/ArgMin; CumSum. Float sums
// accumulate in double; Sum, Max, Min, Prod and SumSquare also run on integers.
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::interp {

namespace {

// The lines along `axis`: each starts at base(line) and steps by `inner`.
struct AxisLines {
  int64_t outer = 1, length = 1, inner = 1;
  int64_t count() const { return outer * inner; }
  int64_t base(int64_t line) const { return line / inner * length * inner + line % inner; }
};

AxisLines linesAlong(const Shape& shape, int64_t axis) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis);
  return {product(shape, 0, a), shape[a], product(shape, a + 1, shape.size())};
}

} // namespace

Tensor softmaxFamily(const Node& node, KernelInputs in) {
  const AxisLines lines = linesAlong(in[0]->shape(), node.attrs.getInt("axis", -1));
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  const OpKind kind = node.kind;
  const int64_t lineCount = lines.count();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (y.numel() > kParallelGrain)
  for (int64_t line = 0; line < lineCount; ++line) {
    const int64_t base = lines.base(line), step = lines.inner;
    float maximum = -INFINITY;
    int64_t first = 0;
    for (int64_t i = 0; i < lines.length; ++i)
      if (x[base + i * step] > maximum) {
        maximum = x[base + i * step];
        first = i;
      }
    if (kind == OpKind::Hardmax) {
      // One 1 per line, at the first maximum.
      for (int64_t i = 0; i < lines.length; ++i) out[base + i * step] = i == first ? 1.0f : 0.0f;
      continue;
    }
    // Subtracting the maximum keeps exp finite; the result is mathematically unchanged.
    double sum = 0.0;
    for (int64_t i = 0; i < lines.length; ++i) sum += std::exp(static_cast<double>(x[base + i * step]) - maximum);
    for (int64_t i = 0; i < lines.length; ++i) {
      const double shifted = static_cast<double>(x[base + i * step]) - maximum;
      out[base + i * step] = static_cast<float>(kind == OpKind::LogSoftmax ? shifted - std::log(sum) : std::exp(shifted) / sum);
    }
  }
  return y;
}

Tensor reduce(const Node& node, KernelInputs in) {
  const Tensor& x = *in[0];
  const Shape& shape = x.shape();
  const size_t rank = shape.size();
  std::vector<int64_t> axes = node.attrs.getInts("axes");
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t axis : axes) reduced[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)] = true;

  // The output in keepdims form (reduced axes of size 1) has the same layout either way.
  Shape kept = shape;
  for (size_t d = 0; d < rank; ++d)
    if (reduced[d]) kept[d] = 1;
  const std::vector<int64_t> outStrides = broadcastStrides(kept, shape);
  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  const int64_t total = x.numel();
  const int64_t outCount = numelOf(kept);
  const int64_t count = outCount == 0 ? 0 : total / outCount;
  const OpKind kind = node.kind;

  // Each reduction is a start value, a step per element and a finish; an empty reduction
  // gives the start value finished (0 for sums, 1 for products, -inf for max, ...).
  const bool isMax = kind == OpKind::ReduceMax, isMin = kind == OpKind::ReduceMin;
  double start = 0.0;
  if (kind == OpKind::ReduceProd) start = 1.0;
  if (isMax || kind == OpKind::ReduceLogSumExp) start = -INFINITY;
  if (isMin) start = INFINITY;
  // LogSumExp shifts by the maximum of each group to keep exp finite.
  std::vector<double> shift(static_cast<size_t>(outCount), 0.0);
  auto outputOf = [&](int64_t i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset += i / inStrides[d] % shape[d] * outStrides[d];
    return static_cast<size_t>(offset);
  };
  if (kind == OpKind::ReduceLogSumExp) {
    std::fill(shift.begin(), shift.end(), -INFINITY);
    for (int64_t i = 0; i < total; ++i) shift[outputOf(i)] = std::max(shift[outputOf(i)], x.valueAt(i));
    for (double& s : shift)
      if (!std::isfinite(s)) s = 0.0;
  }

  Tensor y = allocateOutput(node);
  if (!x.holdsFloats()) {
    // Integers: exact int64 arithmetic, wrapped into the element type at the end.
    std::vector<int64_t> acc(static_cast<size_t>(outCount), kind == OpKind::ReduceProd ? 1 : 0);
    if (isMax) std::fill(acc.begin(), acc.end(), std::numeric_limits<int64_t>::min());
    if (isMin) std::fill(acc.begin(), acc.end(), std::numeric_limits<int64_t>::max());
    for (int64_t i = 0; i < total; ++i) {
      const int64_t v = x.intAt(i);
      int64_t& a = acc[outputOf(i)];
      switch (kind) {
      case OpKind::ReduceMax: a = std::max(a, v); break;
      case OpKind::ReduceMin: a = std::min(a, v); break;
      case OpKind::ReduceProd: a *= v; break;
      case OpKind::ReduceSumSquare: a += v * v; break;
      case OpKind::ReduceL1: a += v < 0 ? -v : v; break;
      default: a += v; break;
      }
    }
    for (int64_t i = 0; i < outCount; ++i) y.mutableInts()[static_cast<size_t>(i)] = wrapInteger(y.dtype(), acc[static_cast<size_t>(i)]);
    return y;
  }

  std::vector<double> acc(static_cast<size_t>(outCount), start);
  for (int64_t i = 0; i < total; ++i) {
    const size_t o = outputOf(i);
    const double v = x.floatAt(i);
    double& a = acc[o];
    switch (kind) {
    case OpKind::ReduceMax: a = std::isnan(v) || v > a ? v : a; break;
    case OpKind::ReduceMin: a = std::isnan(v) || v < a ? v : a; break;
    case OpKind::ReduceProd: a *= v; break;
    case OpKind::ReduceL1: a += std::abs(v); break;
    case OpKind::ReduceL2:
    case OpKind::ReduceSumSquare: a += v * v; break;
    case OpKind::ReduceLogSumExp: a = (a == -INFINITY ? 0.0 : a) + std::exp(v - shift[o]); break;
    default: a += v; break; // Sum, Mean, LogSum
    }
  }
  float* out = y.mutableFloats().data();
  for (int64_t i = 0; i < outCount; ++i) {
    const double a = acc[static_cast<size_t>(i)];
    double value = a;
    switch (kind) {
    case OpKind::ReduceMean: value = a / static_cast<double>(count); break;
    case OpKind::ReduceL2: value = std::sqrt(a); break;
    case OpKind::ReduceLogSum: value = std::log(a); break;
    case OpKind::ReduceLogSumExp: value = a == -INFINITY ? a : std::log(a) + shift[static_cast<size_t>(i)]; break;
    default: break;
    }
    out[i] = roundToPrecision(y.dtype(), static_cast<float>(value));
  }
  return y;
}

Tensor argReduce(const Node& node, KernelInputs in) {
  const Tensor& x = *in[0];
  const AxisLines lines = linesAlong(x.shape(), node.attrs.getInt("axis", 0));
  const bool last = node.attrs.getInt("select_last_index", 0) != 0;
  const bool isMax = node.kind == OpKind::ArgMax;
  Tensor y = allocateOutput(node);
  int64_t* out = y.mutableInts().data();
  for (int64_t line = 0; line < lines.count(); ++line) {
    const int64_t base = lines.base(line);
    int64_t best = 0;
    for (int64_t i = 1; i < lines.length; ++i) {
      const double v = x.valueAt(base + i * lines.inner), b = x.valueAt(base + best * lines.inner);
      const bool better = isMax ? v > b : v < b;
      if (better || (last && v == b)) best = i;
    }
    // Output line `line` (outer, inner) lands at outer * inner + inner-index with the axis gone.
    out[line] = best;
  }
  return y;
}

Tensor cumSum(const Node& node, KernelInputs in) {
  const Tensor& x = *in[0];
  const AxisLines lines = linesAlong(x.shape(), node.attrs.getInt("axis", 0));
  const bool exclusive = node.attrs.getInt("exclusive", 0) != 0, reverse = node.attrs.getInt("reverse", 0) != 0;
  Tensor y = allocateOutput(node);
  withElementType(x, [&](auto zero) {
    using T = decltype(zero);
    const T* src = x.values<T>().data();
    T* out = y.mutableValues<T>().data();
    for (int64_t line = 0; line < lines.count(); ++line) {
      const int64_t base = lines.base(line);
      T running = 0;
      for (int64_t j = 0; j < lines.length; ++j) {
        const int64_t i = reverse ? lines.length - 1 - j : j;
        const int64_t at = base + i * lines.inner;
        if (exclusive) {
          out[at] = running;
          running += src[at];
        } else {
          running += src[at];
          out[at] = running;
        }
      }
    }
    return 0;
  });
  return y;
}

} // namespace tessera::interp
