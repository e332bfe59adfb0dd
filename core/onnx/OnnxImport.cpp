// The import driver: parse and check the model, turn initializers and graph inputs into
// constants and Input nodes, import the nodes in dependency order, then bind and check the
// graph outputs and the declared types.
#include "onnx/OnnxImport.h"

#include "onnx/ConstantFolding.h"
#include "onnx/ConstantImport.h"
#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/ImportOps.h"
#include "onnx/NodeOrder.h"
#include "onnx/OnnxNode.h"
#include "onnx/OpaqueImport.h"
#include "onnx/Subgraphs.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

namespace tessera::onnx_io {

namespace {

onnx::ModelProto parseModel(std::string_view bytes) {
  if (bytes.empty()) throw Error("the file is empty");
  if (static_cast<int64_t>(bytes.size()) > kMaxModelBytes) throw Error("the model is larger than 1 GiB");
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&raw);
  coded.SetTotalBytesLimit(static_cast<int>(kMaxModelBytes));
  onnx::ModelProto model;
  if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    throw Error("not a valid ONNX model: the protobuf data is malformed or truncated");
  return model;
}

void readOpsets(const onnx::ModelProto& model, ImportContext& ctx) {
  std::unordered_set<std::string> seen;
  bool hasDefault = false;
  for (const auto& opset : model.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    if (!seen.insert(domain).second) throw Error("imports an opset of domain '" + domain + "' twice");
    if (!domain.empty()) {
      ctx.otherOpsets.emplace_back(domain, opset.version());
      continue;
    }
    // Forms older than opset 9 that mean something else are kept opaque by the op importers
    // (ImportOps.cpp: training-mode defaults, Concat's old default axis, attributes such as
    // consumed_inputs and broadcast that they do not accept).
    if (opset.version() < 1 || opset.version() > 21)
      throw Error("uses opset " + std::to_string(opset.version()) + " of the default ONNX domain; Tessera supports opsets 1 to 21");
    ctx.opset = opset.version();
    hasDefault = true;
  }
  if (!hasDefault) throw Error("imports no opset of the default ONNX domain");
}

DeclaredInput declaredInput(const onnx::ValueInfoProto& input) {
  DeclaredInput declared;
  declared.name = input.name();
  if (!input.has_type() || !input.type().has_tensor_type() || !input.type().tensor_type().has_shape()) return declared;
  declared.hasShape = true;
  for (const auto& dim : input.type().tensor_type().shape().dim()) {
    bool known = dim.has_dim_value() && dim.dim_value() >= 0;
    declared.dims.push_back(known ? dim.dim_value() : -1);
    declared.params.push_back(!known && dim.has_dim_param() ? dim.dim_param() : std::string());
  }
  return declared;
}

// The input's type, its shape resolved from the model's shape bindings (resolveInputShapes).
TensorType graphInputType(const onnx::ValueInfoProto& input, const Shape& shape) {
  const std::string what = "graph input '" + input.name() + "'";
  std::optional<DeclaredType> declared = input.has_type() ? declaredTensorType(input.type()) : std::nullopt;
  if (!declared) throw Error(what + " is not a tensor with a declared type");
  std::optional<DType> dtype = dtypeFromOnnx(declared->elemType);
  if (!dtype || *dtype == DType::String)
    throw Error(what + " has element type " + onnxTypeName(declared->elemType) + ", which Tessera does not support");
  checkedNumel(shape, what);
  return {*dtype, shape};
}

// Graph inputs that are neither initializers nor bound to a value, in graph order.
std::vector<const onnx::ValueInfoProto*> bindableInputProtos(const onnx::GraphProto& g, const BoundInputs& bound) {
  std::unordered_set<std::string> initializers;
  for (const onnx::TensorProto& initializer : g.initializer()) initializers.insert(initializer.name());
  std::vector<const onnx::ValueInfoProto*> inputs;
  std::unordered_set<std::string> seen;
  for (const onnx::ValueInfoProto& input : g.input())
    if (!input.name().empty() && !initializers.count(input.name()) && !bound.count(input.name()) && seen.insert(input.name()).second)
      inputs.push_back(&input);
  return inputs;
}

// Declared output axes left open, with the sizes import gave them.
void recordOutputFreeAxes(const onnx::ValueInfoProto& output, const TensorType& actual, ModelInfo& info) {
  if (!output.has_type() || !output.type().has_tensor_type()) return;
  const auto& dims = output.type().tensor_type().shape().dim();
  if (dims.size() != static_cast<int>(actual.shape.size())) return;
  for (int axis = 0; axis < dims.size(); ++axis)
    if (!dims[axis].has_dim_value() || dims[axis].dim_value() < 0)
      info.freeAxes.push_back({output.name(), true, axis, dims[axis].has_dim_param() ? dims[axis].dim_param() : std::string(),
                               actual.shape[static_cast<size_t>(axis)]});
}

void bindOutputs(ImportContext& ctx, const OnnxNode& node, const std::vector<ValueRef>& values) {
  const onnx::NodeProto& proto = node.proto();
  for (int i = 0; i < proto.output_size(); ++i) {
    const std::string& name = proto.output(i);
    if (name.empty()) continue;
    if (i < static_cast<int>(values.size())) {
      ctx.defineValue(name, values[static_cast<size_t>(i)]);
      continue;
    }
    if (ctx.isRead(name)) node.fail("output '" + name + "' is read, but this op does not produce it");
  }
}

void importNode(ImportContext& ctx, const onnx::NodeProto& proto) {
  OnnxNode node(proto);
  std::string domain = proto.domain() == "ai.onnx" ? "" : proto.domain();
  if (domain.empty()) {
    const std::string& op = proto.op_type();
    if (op == "Constant") return importConstant(ctx, node);
    if (op == "ConstantOfShape" && importConstantOfShape(ctx, node)) return;
    if (foldConstantNode(ctx, node)) return;
    if (op == "CastLike")
      if (ImportedOutputs outputs = importCastLike(ctx, node)) return bindOutputs(ctx, node, *outputs);
    if (std::optional<OpKind> kind = opFromOnnx(op)) {
      if (ImportedOutputs outputs = importKnownOp(ctx, node, *kind)) return bindOutputs(ctx, node, *outputs);
    }
  }
  importOpaque(ctx, node, domain);
}

void checkDeclared(const TensorType& actual, const onnx::TypeProto& type, const std::string& what) {
  if (actual.dtype == DType::Undefined) return;
  std::optional<DeclaredType> declared = declaredTensorType(type);
  if (declared && !agrees(actual, *declared))
    throw Error(what + " is declared as " + describe(*declared) + " but is " + actual.toString());
}

Graph importModel(const onnx::ModelProto& model, const ShapeBindings& shapes, const BoundInputs& bound) {
  if (!model.has_graph()) throw Error("has no graph (not an ONNX model, or truncated)");
  if (model.ir_version() <= 0) throw Error("declares no IR version (not an ONNX model, or truncated)");
  if (model.functions_size() > 0) throw Error("defines model-local functions, which Tessera does not support");
  const onnx::GraphProto& g = model.graph();
  if (g.sparse_initializer_size() > 0) throw Error("has sparse initializers, which Tessera does not support");

  ImportContext ctx;
  readOpsets(model, ctx);
  if (!g.name().empty()) ctx.graph.info.name = g.name();
  ctx.graph.info.opset = ctx.opset;
  ctx.graph.info.otherOpsets = ctx.otherOpsets;

  for (const auto& info : g.value_info())
    if (info.has_type())
      if (auto declared = declaredTensorType(info.type())) ctx.declared.emplace(info.name(), *declared);
  for (const auto& output : g.output())
    if (output.has_type())
      if (auto declared = declaredTensorType(output.type())) ctx.declared.emplace(output.name(), *declared);
  for (const auto& node : g.node())
    for (const std::string& input : node.input()) ctx.markRead(input);
  for (const auto& node : g.node())
    if (node.attribute_size() > 0)
      for (const std::string& name : outerNamesRead(node)) ctx.markRead(name); // read by a subgraph
  for (const auto& output : g.output()) ctx.markRead(output.name());

  std::unordered_set<std::string> available;
  for (const onnx::TensorProto& initializer : g.initializer()) {
    const std::string& name = initializer.name();
    if (name.empty()) throw Error("an initializer has no name");
    if (!available.insert(name).second) throw Error("initializer '" + name + "' is defined twice");
    ctx.defineConstant(name, tensorFromProto(initializer, "initializer '" + name + "'"));
  }
  std::vector<const onnx::ValueInfoProto*> bindable = bindableInputProtos(g, bound);
  std::vector<DeclaredInput> declaredInputs;
  for (const onnx::ValueInfoProto* input : bindable) declaredInputs.push_back(declaredInput(*input));
  std::vector<Shape> inputShapes = resolveInputShapes(declaredInputs, shapes);
  std::unordered_map<std::string, const Shape*> shapeOfInput;
  for (size_t i = 0; i < bindable.size(); ++i) shapeOfInput.emplace(bindable[i]->name(), &inputShapes[i]);
  ctx.graph.info.freeAxes = inputFreeAxes(declaredInputs, inputShapes);

  std::unordered_set<std::string> inputNames;
  for (const onnx::ValueInfoProto& input : g.input()) {
    const std::string& name = input.name();
    if (name.empty()) throw Error("a graph input has no name");
    if (!inputNames.insert(name).second) throw Error("graph input '" + name + "' is listed twice");
    if (ctx.defined(name)) {
      // Before IR version 4 every initializer is also listed as an input: it is a weight.
      if (input.has_type()) checkDeclared(ctx.typeOf(name), input.type(), "graph input '" + name + "' (an initializer)");
      continue;
    }
    available.insert(name);
    if (auto value = bound.find(name); value != bound.end()) {
      if (input.has_type()) checkDeclared(value->second.type(), input.type(), "bound graph input '" + name + "'");
      ctx.defineConstant(name, value->second);
      continue;
    }
    ctx.defineValue(name, {ctx.graph.addInput(name, graphInputType(input, *shapeOfInput.at(name))), 0});
  }

  for (int n : dependencyOrder(g, available)) importNode(ctx, g.node(n));

  if (g.output_size() == 0) throw Error("the graph has no outputs");
  for (const onnx::ValueInfoProto& output : g.output()) {
    const std::string& name = output.name();
    if (name.empty()) throw Error("a graph output has no name");
    if (!ctx.defined(name)) throw Error("graph output '" + name + "' is not produced by any node");
    if (output.has_type()) checkDeclared(ctx.typeOf(name), output.type(), "graph output '" + name + "'");
    recordOutputFreeAxes(output, ctx.typeOf(name), ctx.graph.info);
    ctx.graph.addOutput(ctx.materialize(name), name);
  }
  for (const onnx::ValueInfoProto& info : g.value_info())
    if (info.has_type() && ctx.defined(info.name())) checkDeclared(ctx.typeOf(info.name()), info.type(), "tensor '" + info.name() + "'");
  return std::move(ctx.graph);
}

} // namespace

Graph importOnnxBytes(std::string_view bytes, const std::string& sourceName, const ShapeBindings& shapes, const BoundInputs& bound) {
  try {
    return importModel(parseModel(bytes), shapes, bound);
  } catch (const Error& e) {
    throw errorInFile(sourceName, e.what());
  } catch (const std::bad_alloc&) {
    throw errorInFile(sourceName, "ran out of memory while importing");
  } catch (const std::exception& e) {
    // libonnx and protobuf report with their own exception types.
    throw errorInFile(sourceName, std::string("cannot import: ") + e.what());
  }
}

Graph importOnnxBytes(std::string_view bytes, const std::string& sourceName, const BoundInputs& bound) {
  return importOnnxBytes(bytes, sourceName, ShapeBindings{}, bound);
}

Graph importOnnxFile(const std::string& path, const ShapeBindings& shapes, const BoundInputs& bound) {
  std::string bytes = readFileBytes(path, static_cast<uintmax_t>(kMaxModelBytes));
  return importOnnxBytes(bytes, path, shapes, bound);
}

Graph importOnnxFile(const std::string& path, const BoundInputs& bound) { return importOnnxFile(path, ShapeBindings{}, bound); }

std::vector<DeclaredInput> bindableInputsOfBytes(std::string_view bytes, const std::string& sourceName) {
  try {
    onnx::ModelProto model = parseModel(bytes);
    if (!model.has_graph()) throw Error("has no graph (not an ONNX model, or truncated)");
    std::vector<DeclaredInput> inputs;
    for (const onnx::ValueInfoProto* input : bindableInputProtos(model.graph(), {})) inputs.push_back(declaredInput(*input));
    return inputs;
  } catch (const Error& e) {
    throw errorInFile(sourceName, e.what());
  } catch (const std::exception& e) {
    throw errorInFile(sourceName, std::string("cannot read: ") + e.what());
  }
}

std::vector<DeclaredInput> bindableInputs(const std::string& path) {
  std::string bytes = readFileBytes(path, static_cast<uintmax_t>(kMaxModelBytes));
  return bindableInputsOfBytes(bytes, path);
}

} // namespace tessera::onnx_io
