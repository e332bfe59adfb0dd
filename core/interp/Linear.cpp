// MatMul (numpy semantics: 1-D operands, broadcast batch dimensions, fused activation) and Gemm
// (alpha, beta, transA, transB, C broadcast to [M,N]), both on floatGemm.
#include "interp/FloatGemm.h"
#include "interp/Kernels.h"
#include "ir/ShapeInference.h"

#include <algorithm>

namespace tessera::interp {

Tensor matMul(const Node& node, KernelInputs in) {
  Shape a = in[0]->shape(), b = in[1]->shape();
  if (a.size() == 1) a.insert(a.begin(), 1); // [K] -> [1,K]
  if (b.size() == 1) b.push_back(1);         // [K] -> [K,1]
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  const Shape batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
  const Shape batch = broadcastShapes(batchA, batchB);
  const int64_t batches = numelOf(batch);

  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  const float* dataA = in[0]->floats().data();
  const float* dataB = in[1]->floats().data();

  if (numelOf(batchB) == 1) {
    // B is one matrix: A's batches stack into the rows of a single GEMM.
    floatGemm(batches * m, n, k, 1.0f, {dataA, k, 1}, {dataB, n, 1}, 0.0f, out, n);
  } else {
    const std::vector<int64_t> stridesA = broadcastStrides(batchA, batch);
    const std::vector<int64_t> stridesB = broadcastStrides(batchB, batch);
    const std::vector<int64_t> stridesOut = contiguousStrides(batch);
    for (int64_t index = 0; index < batches; ++index) {
      int64_t offsetA = 0, offsetB = 0;
      for (size_t d = 0; d < batch.size(); ++d) {
        const int64_t coordinate = index / stridesOut[d] % batch[d];
        offsetA += coordinate * stridesA[d];
        offsetB += coordinate * stridesB[d];
      }
      floatGemm(m, n, k, 1.0f, {dataA + offsetA * m * k, k, 1}, {dataB + offsetB * k * n, n, 1}, 0.0f, out + index * m * n, n);
    }
  }
  applyActivation(activationOf(node), out, y.numel());
  return y;
}

Tensor gemm(const Node& node, KernelInputs in) {
  const bool transA = node.attrs.getInt("transA", 0) != 0;
  const bool transB = node.attrs.getInt("transB", 0) != 0;
  const float alpha = node.attrs.getFloat("alpha", 1.0f);
  const float beta = node.attrs.getFloat("beta", 1.0f);
  const Shape& a = in[0]->shape();
  const Shape& b = in[1]->shape();
  const int64_t m = transA ? a[1] : a[0], k = transA ? a[0] : a[1];
  const int64_t n = transB ? b[0] : b[1];

  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  MatrixView viewA{in[0]->floats().data(), a[1], 1};
  MatrixView viewB{in[1]->floats().data(), b[1], 1};
  if (transA) viewA = viewA.transposed();
  if (transB) viewB = viewB.transposed();

  float accumulate = 0.0f;
  if (in.size() > 2) {
    // Y starts as beta * C broadcast to [M,N]; the product is added onto it.
    const Tensor& c = *in[2];
    const std::vector<int64_t> strides = broadcastStrides(c.shape(), {m, n});
    const float* dataC = c.floats().data();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) out[i * n + j] = beta * dataC[i * strides[0] + j * strides[1]];
    accumulate = 1.0f;
  }
  floatGemm(m, n, k, alpha, viewA, viewB, accumulate, out, n);
  return y;
}

} // namespace tessera::interp
