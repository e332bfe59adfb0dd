// Reductions: Softmax along one axis (opset-13 semantics) and ReduceMean over `axes` (all when
// empty) with keepdims. Sums accumulate in double.
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessera::interp {

Tensor softmax(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = node.attrs.getInt("axis", -1);
  if (axis < 0) axis += rank;
  const int64_t outer = product(shape, 0, static_cast<size_t>(axis));
  const int64_t length = shape[static_cast<size_t>(axis)];
  const int64_t inner = product(shape, static_cast<size_t>(axis) + 1, shape.size());
  const float* x = in[0]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (outer * length * inner > kParallelGrain)
  for (int64_t line = 0; line < outer * inner; ++line) {
    const int64_t base = line / inner * length * inner + line % inner;
    // Subtracting the maximum keeps exp finite; the result is mathematically unchanged.
    float maximum = -INFINITY;
    for (int64_t i = 0; i < length; ++i) maximum = std::max(maximum, x[base + i * inner]);
    double sum = 0.0;
    for (int64_t i = 0; i < length; ++i) {
      const float e = std::exp(x[base + i * inner] - maximum);
      out[base + i * inner] = e;
      sum += e;
    }
    for (int64_t i = 0; i < length; ++i) out[base + i * inner] = static_cast<float>(out[base + i * inner] / sum);
  }
  return y;
}

Tensor reduceMean(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
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
  const int64_t total = in[0]->numel();
  const int64_t outCount = numelOf(kept);
  const int64_t count = outCount == 0 ? 0 : total / outCount;

  std::vector<double> sums(static_cast<size_t>(outCount), 0.0);
  const float* x = in[0]->floats().data();
  for (int64_t i = 0; i < total; ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) offset += i / inStrides[d] % shape[d] * outStrides[d];
    sums[static_cast<size_t>(offset)] += x[i];
  }
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  for (int64_t i = 0; i < outCount; ++i) out[i] = static_cast<float>(sums[static_cast<size_t>(i)] / static_cast<double>(count));
  return y;
}

} // namespace tessera::interp
