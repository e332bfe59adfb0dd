#include "SingleOpGraph.h"

#include "interp/TestData.h"
#include "ir/FusedActivation.h"
#include "support/Error.h"

#include <optional>

namespace tessera::ort {

namespace {

bool isParameter(const OpSignature& signature, size_t operand) {
  if (operand == 0) return false;
  switch (signature.kind) {
  case OpKind::Conv:
  case OpKind::Gemm:
  case OpKind::BatchNorm:
  case OpKind::LayerNorm:
  case OpKind::ScalarMul:
    return true;
  case OpKind::MatMul:
    return signature.inputs[operand].shape.size() == 2;
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Pow:
    return !signature.outputs.empty() && signature.inputs[operand].numel() < signature.outputs[0].numel();
  default:
    return false;
  }
}

Tensor parameterValue(const OpSignature& signature, size_t operand) {
  const TensorType& type = signature.inputs[operand];
  // An exponent or scale of one element keeps a value that computes something ordinary.
  if (type.numel() == 1) return Tensor::splat(type, signature.kind == OpKind::Pow ? 2.0 : 0.5);
  const std::string name = "w" + std::to_string(operand);
  // Batch-norm variances stay positive.
  if (signature.kind == OpKind::BatchNorm && operand == 4) return randomTensor(type, 7, name, 0.5f, 1.5f);
  return randomTensor(type, 7, name);
}

} // namespace

Graph singleOpGraph(const OpSignature& signature) {
  Graph graph;
  std::vector<ValueRef> operands;
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    const NodeId id = isParameter(signature, i) ? graph.addWeight("w" + std::to_string(i), parameterValue(signature, i))
                                                : graph.addInput("x" + std::to_string(i), signature.inputs[i]);
    operands.push_back({id, 0});
  }
  const NodeId op = graph.addNode(signature.kind, operands, signature.attrs, "op");
  const Node& node = graph.node(op);
  if (node.outputTypes != signature.outputs)
    throw Error("the op rebuilt from " + signature.key() + " infers other output types");
  for (uint32_t port = 0; port < node.outputTypes.size(); ++port) graph.addOutput({op, port}, "y" + std::to_string(port));
  return graph;
}

namespace {

// The Slice that copies the window of the input one output of a Split is (the first output of
// that size: windows of one size cost the same wherever they lie).
std::optional<OpSignature> splitOutputAsSlice(const OpSignature& signature) {
  const std::vector<int64_t> sizes = signature.attrs.getInts("split");
  if (signature.kind != OpKind::Split || signature.inputs.size() != 1 || signature.outputs.size() != 1 || sizes.size() < 2) return std::nullopt;
  const TensorType& input = signature.inputs[0];
  const int64_t rank = static_cast<int64_t>(input.shape.size());
  int64_t axis = signature.attrs.getInt("axis", 0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank || signature.outputs[0].shape.size() != input.shape.size()) return std::nullopt;
  const int64_t size = signature.outputs[0].shape[static_cast<size_t>(axis)];
  int64_t start = 0;
  for (int64_t part : sizes) {
    if (part == size) {
      Attributes window;
      window.set("starts", std::vector<int64_t>{start});
      window.set("ends", std::vector<int64_t>{start + size});
      window.set("axes", std::vector<int64_t>{axis});
      return OpSignature{OpKind::Slice, signature.inputs, signature.outputs, std::move(window)};
    }
    start += part;
  }
  return std::nullopt;
}

} // namespace

std::vector<TensorType> nchwcBordersOf(const OpSignature& signature) {
  if (signature.kind != OpKind::Split || signature.inputs.size() != 1) return {};
  const TensorType& input = signature.inputs[0];
  const int64_t rank = static_cast<int64_t>(input.shape.size());
  int64_t axis = signature.attrs.getInt("axis", 0);
  if (axis < 0) axis += rank;
  if (rank != 4 || axis != 1 || input.dtype != DType::Float32) return {};
  return signature.outputs;
}

OpSignature reorderProbe(const TensorType& type) {
  Attributes pool;
  pool.set("kernel_shape", std::vector<int64_t>{1, 1});
  return OpSignature{OpKind::MaxPool, {type}, {type}, std::move(pool)};
}

std::vector<OpSignature> timedAs(const OpSignature& signature) {
  if (std::optional<OpSignature> slice = splitOutputAsSlice(signature)) return {*slice};
  // An activation outside the encoding stays on the conv: singleOpGraph refuses it by name.
  const std::optional<OpKind> activation = activationOp(static_cast<Activation>(signature.attrs.getInt("activation", 0)));
  if (signature.kind != OpKind::Conv || !activation || signature.outputs.size() != 1) return {signature};
  OpSignature conv = signature;
  conv.attrs.erase("activation");
  const TensorType& output = signature.outputs[0];
  return {conv, OpSignature{*activation, {output}, {output}, {}}};
}

} // namespace tessera::ort
