// The interpreter's broadcasting walk, for kernels compiled with OpenMP (Elementwise, Logic):
// KernelSupport.h is read by code built without it. Internal to core/interp.
#pragma once

#include "interp/KernelSupport.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::interp {

// Every element i of `outShape` from N operands broadcast to it under numpy's rules: calls
// element(i, offsets), offsets[k] being the element of operand k it reads. Walks the output row by
// row (its last dimension), rows in parallel above kParallelGrain elements, so the per-element
// work is one step per operand, not a division per dimension (a causal mask's Where over GPT-2's
// scores is 200,000 elements). `element` must only write output element i.
template <size_t N, class Element>
void forEachBroadcastElement(const Shape& outShape, const std::array<const Shape*, N>& shapes, Element element) {
  const int64_t total = numelOf(outShape);
  if (total == 0) return;
  if (outShape.empty()) {
    element(int64_t{0}, std::array<int64_t, N>{});
    return;
  }
  std::array<std::vector<int64_t>, N> strides;
  for (size_t k = 0; k < N; ++k) strides[k] = broadcastStrides(*shapes[k], outShape);
  const std::vector<int64_t> outStrides = contiguousStrides(outShape);
  const int64_t inner = outShape.back();
  const int64_t rows = total / inner;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t first = row * inner;
    std::array<int64_t, N> offsets{};
    for (size_t d = 0; d + 1 < outShape.size(); ++d) {
      const int64_t coordinate = first / outStrides[d] % outShape[d];
      for (size_t k = 0; k < N; ++k) offsets[k] += coordinate * strides[k][d];
    }
    for (int64_t i = 0; i < inner; ++i) {
      element(first + i, offsets);
      for (size_t k = 0; k < N; ++k) offsets[k] += strides[k].back();
    }
  }
}

} // namespace tessera::interp
