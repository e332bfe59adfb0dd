// Conv, MatMul and Gemm signatures mapped onto workloads.
#include "tune/SignatureWorkload.h"

#include <algorithm>

namespace tessera::tune {

namespace {

std::optional<Workload> refuse(std::string* why, const char* reason) {
  if (why) *why = reason;
  return std::nullopt;
}

std::optional<Workload> convWorkload(const OpSignature& s, Workload w, std::string* why) {
  const Shape& x = s.inputs[0].shape;
  const Shape& weight = s.inputs[1].shape;
  if (x.size() != 4 || weight.size() != 4) return refuse(why, "not a 2-D convolution");
  if (weight[1] != x[1]) return refuse(why, "a grouped convolution");
  const std::vector<int64_t> strides = s.attrs.getInts("strides", {1, 1}), pads = s.attrs.getInts("pads", {0, 0, 0, 0});
  if (s.attrs.getInts("dilations", {1, 1}) != std::vector<int64_t>{1, 1}) return refuse(why, "a dilated convolution");
  if (strides.size() != 2 || strides[0] != strides[1] || pads.size() != 4 || std::count(pads.begin(), pads.end(), pads[0]) != 4)
    return refuse(why, "unequal strides or padding");
  w.kind = WorkloadKind::Conv2d;
  w.convN = x[0], w.convC = x[1], w.height = x[2], w.width = x[3];
  w.outChannels = weight[0], w.kernelH = weight[2], w.kernelW = weight[3];
  w.stride = strides[0], w.pad = pads[0];
  w.bias = s.inputs.size() > 2;
  return w;
}

std::optional<Workload> gemmWorkload(const OpSignature& s, Workload w, std::string* why) {
  if (s.attrs.getInt("transA", 0) != 0 || s.attrs.getInt("transB", 0) != 0) return refuse(why, "a transposed Gemm");
  if (s.attrs.getFloat("alpha", 1.0f) != 1.0f || s.attrs.getFloat("beta", 1.0f) != 1.0f) return refuse(why, "a Gemm with alpha or beta");
  // Gemm has no fused activation in the interpreter or oneDNN; a kernel with one would differ.
  if (w.relu) return refuse(why, "a Gemm with a fused activation");
  const Shape& a = s.inputs[0].shape;
  const Shape& b = s.inputs[1].shape;
  if (a.size() != 2 || b.size() != 2) return refuse(why, "a Gemm of operands that are not matrices");
  w.kind = WorkloadKind::MatMul;
  w.m = a[0], w.k = a[1], w.n = b[1];
  if (s.inputs.size() > 2) {
    const Shape& c = s.inputs[2].shape;
    if (!(c.size() == 1 && c[0] == w.n) && !(c.size() == 2 && c[0] == 1 && c[1] == w.n))
      return refuse(why, "a Gemm whose C is not a bias row");
    w.bias = true;
  }
  return w;
}

std::optional<Workload> matMulWorkload(const OpSignature& s, Workload w, std::string* why) {
  const Shape& a = s.inputs[0].shape;
  const Shape& b = s.inputs[1].shape;
  if (a.size() < 2 || b.size() < 2) return refuse(why, "a matrix-vector product");
  w.k = a.back(), w.n = b.back(), w.m = a[a.size() - 2];
  int64_t batchA = 1, batchB = 1;
  for (size_t i = 0; i + 2 < a.size(); ++i) batchA *= a[i];
  for (size_t i = 0; i + 2 < b.size(); ++i) batchB *= b[i];
  if (batchB == 1) { // a shared right operand: the batch folds into M
    w.kind = WorkloadKind::MatMul;
    w.m *= batchA;
    return w;
  }
  if (batchA != batchB || a.size() != b.size()) return refuse(why, "a broadcast batched matmul");
  w.kind = WorkloadKind::BatchMatMul;
  w.batch = batchA;
  return w;
}

} // namespace

std::optional<Workload> tunableWorkload(const OpSignature& signature, std::string* why) {
  if (why) why->clear();
  const OpKind kind = signature.kind;
  if (kind != OpKind::Conv && kind != OpKind::Gemm && kind != OpKind::MatMul) return std::nullopt;
  if (signature.inputs.size() < 2 || signature.outputs.size() != 1) return refuse(why, "not two operands and one result");
  bool float32 = signature.outputs[0].dtype == DType::Float32;
  for (const TensorType& input : signature.inputs) float32 = float32 && input.dtype == DType::Float32;
  if (!float32) return refuse(why, "not float32 (the tuner's kernels are)");
  const int64_t activation = signature.attrs.getInt("activation", 0);
  const bool relu = activation == static_cast<int64_t>(Activation::Relu);
  if (activation != 0 && !relu) return refuse(why, "a fused activation other than relu");
  Workload w;
  w.relu = relu;
  if (kind == OpKind::Conv) return convWorkload(signature, w, why);
  if (kind == OpKind::Gemm) return gemmWorkload(signature, w, why);
  if (signature.inputs.size() != 2) return refuse(why, "a MatMul of more than two operands");
  return matMulWorkload(signature, w, why);
}

} // namespace tessera::tune
