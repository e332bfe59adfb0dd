#include "onnx/OnnxShapeInference.h"

#include "onnx/ImportLimits.h"
#include "onnx/OnnxInferenceGuard.h"
#include "onnx/TensorConversion.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace tessera::onnx_io {

namespace {
// The newest default-domain opset libonnx 1.12 has definitions for.
constexpr int64_t kNewestKnownOpset = 17;
} // namespace

std::vector<std::optional<TensorType>> inferWithOnnx(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs,
                                                     int64_t opset, const std::vector<std::pair<std::string, int64_t>>& otherOpsets) {
  std::vector<std::optional<TensorType>> result(static_cast<size_t>(node.output_size()));
  if (!safeForOnnxInference(node, inputs, opset)) return result;
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* defaultOpset = model.add_opset_import();
  defaultOpset->set_domain("");
  defaultOpset->set_version(std::min(opset, kNewestKnownOpset));
  for (const auto& [domain, version] : otherOpsets) {
    auto* other = model.add_opset_import();
    other->set_domain(domain);
    other->set_version(version);
  }
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("infer");
  *graph->add_node() = node;
  std::unordered_set<std::string> seen;
  for (const InferenceInput& input : inputs) {
    if (!seen.insert(input.name).second) continue;
    if (input.constant && input.constant->numel() <= kMaxFoldElements) {
      tensorToProto(*input.constant, input.name, graph->add_initializer());
      continue;
    }
    auto* info = graph->add_input();
    info->set_name(input.name);
    setTensorType(input.type, info->mutable_type());
  }

  try {
    onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*data_propagation=*/false);
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception&) {
    return result; // libonnx could not say; the caller falls back to declared types or fails
  }

  std::unordered_map<std::string, const onnx::ValueInfoProto*> inferred;
  for (const auto& info : graph->value_info()) inferred.emplace(info.name(), &info);
  for (int i = 0; i < node.output_size(); ++i) {
    auto it = inferred.find(node.output(i));
    if (node.output(i).empty() || it == inferred.end()) continue;
    std::optional<DeclaredType> declared = declaredTensorType(it->second->type());
    if (!declared || !declared->hasShape) continue;
    std::optional<DType> dtype = dtypeFromOnnx(declared->elemType);
    if (!dtype || *dtype == DType::String) continue;
    if (std::any_of(declared->dims.begin(), declared->dims.end(), [](int64_t d) { return d < 0; })) continue;
    result[static_cast<size_t>(i)] = TensorType{*dtype, declared->dims};
  }
  return result;
}

} // namespace tessera::onnx_io
