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
  case OpKind::ConvTranspose: {
    // Every input element meets M/g * kh * kw weights.
    const Shape& w = s.inputs[1].shape; // [C, M/g, kh, kw]
    work.flops = 2.0 * numel(s.inputs[0]) * static_cast<double>(w[1] * w[2] * w[3]);
    return work;
  }
  case OpKind::MatMul: {
    const Shape& a = s.inputs[0].shape;
    double k = static_cast<double>(a.empty() ? 1 : a.back());
    work.flops = 2.0 * out * k;
    return work;
  }
  case OpKind::LSTM: {
    // Per step, direction and batch row: the four gates' [4H, I + H] products, then about ten
    // element operations per hidden unit (activations, peepholes, cell update).
    const Shape& y = s.outputs[0].shape; // [S, D, B, H] (layout 1: [B, S, D, H])
    const double steps = static_cast<double>(y[0] * y[1] * y[2]), hidden = static_cast<double>(y[3]);
    const double size = static_cast<double>(s.inputs[0].shape[2]);
    work.flops = steps * hidden * (2.0 * 4.0 * (size + hidden) + 10.0);
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
  case OpKind::LrnDenominator: work.flops = out * static_cast<double>(s.attrs.getInt("size", 1) + 2); return work;
  case OpKind::Resize: {
    // Taps per output element: 1 (nearest), 2 (linear) or 4 (cubic) per resized axis.
    const std::string mode = s.attrs.getString("mode", "nearest");
    const double taps = mode == "cubic" ? 4.0 : mode == "linear" ? 2.0 : 1.0;
    double perElement = 1.0;
    for (size_t d = 0; d < s.inputs[0].shape.size() && d < s.outputs[0].shape.size(); ++d)
      if (s.inputs[0].shape[d] != s.outputs[0].shape[d]) perElement *= taps;
    work.flops = 2.0 * out * perElement;
    return work;
  }
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceL1:
  case OpKind::ReduceL2:
  case OpKind::ReduceLogSum:
  case OpKind::ReduceSumSquare:
  case OpKind::ArgMax:
  case OpKind::ArgMin:
  case OpKind::CumSum:
  case OpKind::GlobalMaxPool: work.flops = numel(s.inputs[0]); return work; // one step per input element
  case OpKind::ReduceLogSumExp: work.flops = 5.0 * numel(s.inputs[0]); return work;
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Hardmax:
  case OpKind::InstanceNorm:
  case OpKind::LayerNorm:
  case OpKind::BatchNorm: work.flops = 5.0 * out; return work;
  case OpKind::Erf:
  case OpKind::Gelu:
  case OpKind::Tanh:
  case OpKind::Sigmoid:
  case OpKind::Exp:
  case OpKind::Log:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Tan:
  case OpKind::Asin:
  case OpKind::Acos:
  case OpKind::Atan:
  case OpKind::Sinh:
  case OpKind::Cosh:
  case OpKind::Asinh:
  case OpKind::Acosh:
  case OpKind::Atanh:
  case OpKind::Softplus:
  case OpKind::Elu:
  case OpKind::Selu:
  case OpKind::Celu:
  case OpKind::Mish: work.flops = 4.0 * out; return work; // a transcendental function per element
  default:
    // Element-wise and data movement: one operation per output element.
    work.flops = out;
    return work;
  }
}

} // namespace tessera
