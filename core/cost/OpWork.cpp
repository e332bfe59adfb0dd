#include "cost/OpWork.h"

namespace tessera {

namespace {

double bytesOf(const std::vector<TensorType>& types) {
  double bytes = 0;
  for (const TensorType& t : types) bytes += static_cast<double>(t.numel()) * static_cast<double>(dtypeByteSize(t.dtype));
  return bytes;
}

double numel(const TensorType& t) { return static_cast<double>(t.numel()); }

} // namespace

OpWork opWork(const OpSignature& s) {
  OpWork work;
  work.bytes = bytesOf(s.inputs) + bytesOf(s.outputs);
  const double out = s.outputs.empty() ? 0 : numel(s.outputs[0]);
  switch (s.kind) {
  case OpKind::Input:
  case OpKind::Weight:
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Unsqueeze:
  case OpKind::Squeeze:
  case OpKind::Identity:
  case OpKind::Dropout:
  case OpKind::Transpose:
  case OpKind::Split:
  case OpKind::Enlarge:
  case OpKind::MergeGroups:
  case OpKind::FoldBatchNormWeight:
  case OpKind::FoldBatchNormBias:
    // TASO's cost model: layout ops are folded into their consumers or precomputed on weights.
    work.isFree = true;
    work.bytes = 0;
    return work;
  case OpKind::Conv: {
    const Shape& w = s.inputs[1].shape; // [M, C/g, kh, kw]
    work.flops = 2.0 * out * static_cast<double>(w[1] * w[2] * w[3]);
    return work;
  }
  case OpKind::MatMul: {
    const Shape& a = s.inputs[0].shape;
    double k = static_cast<double>(a.empty() ? 1 : a.back());
    work.flops = 2.0 * out * k;
    return work;
  }
  case OpKind::Gemm: {
    bool transA = s.attrs.getInt("transA", 0) != 0;
    double k = static_cast<double>(transA ? s.inputs[0].shape[0] : s.inputs[0].shape[1]);
    work.flops = 2.0 * out * k + (s.inputs.size() == 3 ? out : 0);
    return work;
  }
  case OpKind::MaxPool:
  case OpKind::AveragePool: {
    auto kernel = s.attrs.getInts("kernel_shape", {1, 1});
    work.flops = out * static_cast<double>(kernel[0] * kernel[1]);
    return work;
  }
  case OpKind::LRN: work.flops = out * static_cast<double>(s.attrs.getInt("size", 1) + 4); return work;
  case OpKind::Softmax:
  case OpKind::LayerNorm:
  case OpKind::BatchNorm: work.flops = 5.0 * out; return work;
  case OpKind::Erf:
  case OpKind::Gelu:
  case OpKind::Tanh:
  case OpKind::Sigmoid:
  case OpKind::Exp: work.flops = 4.0 * out; return work;
  default:
    // Element-wise and data movement: one operation per output element.
    work.flops = out;
    return work;
  }
}

} // namespace tessera
