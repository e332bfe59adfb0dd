#include "onnx/OnnxInferenceGuard.h"

#include <onnx/defs/schema.h>

#include <algorithm>
#include <string_view>

namespace tessera::onnx_io {

namespace {

// The rank of input `i` when present, else -1.
int64_t rankOf(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs, int i) {
  if (i >= node.input_size() || node.input(i).empty()) return -1;
  for (const InferenceInput& input : inputs)
    if (input.name == node.input(i)) return input.type.rank();
  return -1;
}

const onnx::AttributeProto* findAttribute(const onnx::NodeProto& node, std::string_view name) {
  for (const auto& attr : node.attribute())
    if (attr.name() == name) return &attr;
  return nullptr;
}

// A list attribute, when present, must have `count` entries, each at least `minimum`.
bool listFits(const onnx::NodeProto& node, std::string_view name, int64_t count, int64_t minimum) {
  const onnx::AttributeProto* attr = findAttribute(node, name);
  if (!attr) return true;
  if (attr->ints_size() != count) return false;
  return std::all_of(attr->ints().begin(), attr->ints().end(), [&](int64_t v) { return v >= minimum; });
}

// Conv, ConvTranspose and the pools: libonnx indexes spatial dims by the kernel's rank and
// divides by the strides.
bool windowFits(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs, int dataInput, int weightInput,
                bool kernelRequired) {
  int64_t rank = rankOf(node, inputs, dataInput);
  if (rank < 3) return false;
  if (weightInput >= 0 && rankOf(node, inputs, weightInput) != rank) return false;
  int64_t spatial = rank - 2;
  if (kernelRequired && !findAttribute(node, "kernel_shape")) return false;
  return listFits(node, "kernel_shape", spatial, 1) && listFits(node, "strides", spatial, 1) && listFits(node, "dilations", spatial, 1) &&
         listFits(node, "pads", 2 * spatial, 0) && listFits(node, "output_padding", spatial, 0) &&
         listFits(node, "output_shape", spatial, 0);
}

bool ranksFit(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs, const std::string& op) {
  if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose") return windowFits(node, inputs, 0, 1, false);
  if (op == "QLinearConv") return windowFits(node, inputs, 0, 3, false);
  if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") return windowFits(node, inputs, 0, -1, true);
  if (op == "MaxUnpool") return windowFits(node, inputs, 0, 1, true);
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool" || op == "InstanceNormalization" ||
      op == "BatchNormalization")
    return rankOf(node, inputs, 0) >= 2;
  if (op == "Gemm") return rankOf(node, inputs, 0) == 2 && rankOf(node, inputs, 1) == 2;
  if (op == "RoiAlign" || op == "MaxRoiPool") return rankOf(node, inputs, 0) == 4 && rankOf(node, inputs, 1) == 2;
  if (op == "DepthToSpace" || op == "SpaceToDepth") return rankOf(node, inputs, 0) == 4;
  // Einsum and the matrix products index the last two dims of every operand.
  if (op == "Einsum" || op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul") {
    for (int i = 0; i < node.input_size(); ++i)
      if (!node.input(i).empty() && rankOf(node, inputs, i) < 1) return false;
  }
  return true;
}

} // namespace

bool safeForOnnxInference(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs, int64_t opset) {
  // Only the default domain: libonnx's ai.onnx.ml inference has crashed on valid models too.
  if (!node.domain().empty() && node.domain() != "ai.onnx") return false;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(std::min<int64_t>(opset, 17)), "");
  if (!schema || !schema->has_type_and_shape_inference_function()) return false;
  try {
    // The checker's per-node validation: counts, required attributes, attribute types.
    schema->Verify(node);
  } catch (const std::exception&) {
    return false;
  }
  // Inference functions read required inputs without checking that they exist.
  const auto& formal = schema->inputs();
  for (size_t i = 0; i < formal.size() && i < static_cast<size_t>(node.input_size()); ++i)
    if (formal[i].GetOption() == onnx::OpSchema::Single && node.input(static_cast<int>(i)).empty()) return false;
  return ranksFit(node, inputs, node.op_type());
}

} // namespace tessera::onnx_io
