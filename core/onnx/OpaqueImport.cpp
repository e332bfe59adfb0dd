#include "onnx/OpaqueImport.h"

#include "onnx/ControlFlowImport.h"
#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/OnnxNode.h"
#include "onnx/OnnxShapeInference.h"

#include <algorithm>

namespace tessera::onnx_io {

namespace {

// Newer than what libonnx 1.12 knows: its inferred types may follow older op definitions.
constexpr int64_t kNewestInferableOpset = 17;

// The declared type of `name` when it is a fully static tensor type Tessera carries.
std::optional<TensorType> declaredStaticType(const ImportContext& ctx, const std::string& name) {
  auto it = ctx.declared.find(name);
  if (it == ctx.declared.end() || !it->second.hasShape) return std::nullopt;
  const DeclaredType& declared = it->second;
  std::optional<DType> dtype = dtypeFromOnnx(declared.elemType);
  if (!dtype || *dtype == DType::String) return std::nullopt;
  if (std::any_of(declared.dims.begin(), declared.dims.end(), [](int64_t d) { return d < 0; })) return std::nullopt;
  return TensorType{*dtype, declared.dims};
}

} // namespace

void importOpaque(ImportContext& ctx, const OnnxNode& node, const std::string& domain) {
  const onnx::NodeProto& proto = node.proto();
  // A subgraph reads outer tensors by name, invisibly to the IR's edges: those become inputs.
  if (node.hasSubgraph()) return importControlFlow(ctx, node, domain);

  std::vector<ValueRef> inputs;
  std::vector<InferenceInput> inferenceInputs;
  for (int i = 0; i < node.numInputs(); ++i) {
    if (!node.hasInput(i)) {
      inputs.push_back(ValueRef::none());
      continue;
    }
    const std::string& name = node.input(i);
    inputs.push_back(ctx.materialize(name));
    inferenceInputs.push_back({name, ctx.typeOf(name), ctx.constant(name)});
  }

  std::vector<std::optional<TensorType>> inferred = inferWithOnnx(proto, inferenceInputs, ctx.opset, ctx.otherOpsets);
  bool inferenceCurrent = domain.empty() ? ctx.opset <= kNewestInferableOpset : true;
  std::vector<TensorType> outputTypes;
  for (int i = 0; i < node.numOutputs(); ++i) {
    const std::string& name = proto.output(i);
    if (name.empty()) {
      outputTypes.push_back({DType::Undefined, {}}); // an absent optional output keeps its position
      continue;
    }
    std::optional<TensorType> fromInference = inferred[static_cast<size_t>(i)];
    std::optional<TensorType> fromDeclaration = declaredStaticType(ctx, name);
    if (fromInference && fromDeclaration && *fromInference != *fromDeclaration && inferenceCurrent)
      node.fail("output '" + name + "' is declared as " + fromDeclaration->toString() + " but ONNX shape inference gives " +
                fromInference->toString());
    // Past opset 17 libonnx may apply an older definition: the model's own declaration wins.
    std::optional<TensorType> type = inferenceCurrent ? (fromInference ? fromInference : fromDeclaration)
                                                      : (fromDeclaration ? fromDeclaration : fromInference);
    if (!type) {
      if (ctx.isRead(name))
        node.fail("the shape of output '" + name + "' is unknown: ONNX shape inference cannot infer it and the model does not declare it");
      outputTypes.push_back({DType::Undefined, {}}); // nobody reads it; kept for export only
      continue;
    }
    checkedNumel(type->shape, node.label() + " output '" + name + "'");
    outputTypes.push_back(*type);
  }

  OpaqueOp op;
  op.domain = domain;
  op.opType = proto.op_type();
  for (const onnx::AttributeProto& attr : proto.attribute()) op.attributeProtos.push_back(attr.SerializeAsString());
  NodeId id = ctx.graph.addOpaque(std::move(op), std::move(inputs), std::move(outputTypes), proto.name());
  for (int i = 0; i < node.numOutputs(); ++i) {
    const std::string& name = proto.output(i);
    if (name.empty()) continue;
    ctx.defineValue(name, {id, static_cast<uint32_t>(i)});
  }
}

} // namespace tessera::onnx_io
