#include "onnx/ControlFlowImport.h"

#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/OnnxImport.h"
#include "onnx/OnnxNode.h"
#include "onnx/Subgraphs.h"
#include "onnx/TensorConversion.h"
#include "support/Error.h"

#include <algorithm>

namespace tessera::onnx_io {

namespace {

// Captured constants up to this size travel into a subgraph import as constants (shape chains
// fold there as they would in the enclosing graph); larger ones as typed inputs.
constexpr int64_t kMaxBoundElements = int64_t(1) << 16;

std::optional<onnx::AttributeProto> findAttribute(const OpaqueOp& op, std::string_view name) {
  for (const std::string& serialized : op.attributeProtos) {
    onnx::AttributeProto attr;
    if (!attr.ParseFromString(serialized)) throw Error("holds a corrupt attribute");
    if (attr.name() == name) return attr;
  }
  return std::nullopt;
}

std::optional<TensorType> declaredStaticType(const ImportContext& ctx, const std::string& name) {
  auto it = ctx.declared.find(name);
  if (it == ctx.declared.end() || !it->second.hasShape) return std::nullopt;
  std::optional<DType> dtype = dtypeFromOnnx(it->second.elemType);
  if (!dtype || *dtype == DType::String) return std::nullopt;
  const std::vector<int64_t>& dims = it->second.dims;
  if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })) return std::nullopt;
  return TensorType{*dtype, dims};
}

// Output types as the subgraphs give them; an entry stays empty with `why` saying what is missing.
struct SubgraphTypes {
  std::vector<std::optional<TensorType>> types;
  std::string why;
};

// Types the subgraphs of one node give its outputs, by importing them with the node's input types.
class SubgraphTyping {
public:
  SubgraphTyping(ImportContext& ctx, const OnnxNode& node, const OpaqueOp& op) : ctx_(ctx), node_(node), op_(op) {
    for (const std::string& name : op.capturedNames) captured_.push_back(argumentFor(name));
    result_.types.resize(static_cast<size_t>(node.proto().output_size()));
  }

  SubgraphTypes run() {
    const std::string& type = node_.opType();
    bool standard = node_.proto().domain().empty() || node_.proto().domain() == "ai.onnx";
    if (!standard || (type != "If" && type != "Loop" && type != "Scan")) {
      result_.why = "Tessera cannot infer the outputs of " + type + " from its subgraphs";
      return result_;
    }
    try {
      if (type == "If") typeIf();
      if (type == "Loop") typeLoop();
      if (type == "Scan") typeScan();
    } catch (const Error& e) {
      result_.why = e.what();
    }
    return result_;
  }

private:
  SubgraphArgument argumentFor(const std::string& name) const {
    const Tensor* value = ctx_.constant(name);
    return {ctx_.typeOf(name), value && value->numel() <= kMaxBoundElements ? value : nullptr};
  }

  std::vector<TensorType> outputsOf(std::string_view attribute, const std::vector<SubgraphArgument>& formal) {
    ImportedSubgraph sub = importSubgraph(op_, attribute, formal, captured_, ctx_.graph.info, "subgraph " + std::string(attribute));
    std::vector<TensorType> types;
    for (const GraphOutput& output : sub.graph.outputs()) types.push_back(sub.graph.typeOf(output.value));
    return types;
  }

  void expectOutputs(std::string_view attribute, size_t got, size_t want) {
    if (got != want)
      node_.fail("subgraph " + std::string(attribute) + " has " + std::to_string(got) + " outputs where " + std::to_string(want) +
                 " are expected");
  }

  void set(size_t i, const TensorType& type) {
    if (i < result_.types.size()) result_.types[i] = type;
  }

  void typeIf() {
    const size_t outputs = result_.types.size();
    const Tensor* cond = node_.hasInput(0) ? ctx_.constant(node_.input(0)) : nullptr;
    if (cond && cond->numel() == 1) {
      // A constant condition: only the branch taken matters.
      std::string_view branch = cond->valueAt(0) != 0 ? "then_branch" : "else_branch";
      std::vector<TensorType> types = outputsOf(branch, {});
      expectOutputs(branch, types.size(), outputs);
      for (size_t i = 0; i < outputs; ++i) set(i, types[i]);
      return;
    }
    // A branch that does not import at these shapes (a model whose branches serve different input
    // sizes) leaves the types to the other; running it is then an error the interpreter names.
    std::optional<std::vector<TensorType>> thenTypes = branchTypes("then_branch", outputs);
    std::optional<std::vector<TensorType>> elseTypes = branchTypes("else_branch", outputs);
    if (!thenTypes && !elseTypes) return;
    for (size_t i = 0; i < outputs; ++i) {
      if (thenTypes && elseTypes && (*thenTypes)[i] != (*elseTypes)[i]) {
        result_.why = "its branches give output " + std::to_string(i) + " different types (" + (*thenTypes)[i].toString() + " and " +
                      (*elseTypes)[i].toString() + ")";
        continue;
      }
      set(i, thenTypes ? (*thenTypes)[i] : (*elseTypes)[i]);
    }
  }

  // The branch's output types, or nullopt (with `why` set) when it does not import.
  std::optional<std::vector<TensorType>> branchTypes(std::string_view branch, size_t outputs) {
    std::vector<TensorType> types;
    try {
      types = outputsOf(branch, {});
    } catch (const Error& e) {
      result_.why = result_.why.empty() ? e.what() : result_.why + "; " + e.what();
      return std::nullopt;
    }
    expectOutputs(branch, types.size(), outputs);
    return types;
  }

  void typeLoop() {
    const int carried = node_.numInputs() - 2;
    if (carried < 0) node_.fail("Loop needs its trip count and condition inputs (either may be empty)");
    std::vector<SubgraphArgument> formal = {{{DType::Int64, {}}}, {{DType::Bool, {}}}};
    for (int i = 0; i < carried; ++i) {
      if (!node_.hasInput(2 + i)) node_.fail("loop-carried input " + std::to_string(i) + " is empty");
      formal.push_back({ctx_.typeOf(node_.input(2 + i))});
    }
    std::vector<TensorType> body = outputsOf("body", formal);
    const size_t outputs = result_.types.size();
    if (body.size() < 1 + static_cast<size_t>(carried) || body.size() - 1 - carried != outputs - carried)
      expectOutputs("body", body.size(), 1 + outputs);
    for (int i = 0; i < carried; ++i) {
      const TensorType& in = formal[2 + static_cast<size_t>(i)].type;
      if (body[1 + static_cast<size_t>(i)] != in) {
        result_.why = "loop-carried value " + std::to_string(i) + " changes type from " + in.toString() + " to " +
                      body[1 + static_cast<size_t>(i)].toString();
        continue;
      }
      set(static_cast<size_t>(i), in);
    }
    // A scan output stacks one element per iteration: known when the loop is a plain "for".
    const Tensor* trips = node_.hasInput(0) ? ctx_.constant(node_.input(0)) : nullptr;
    const bool plainFor = trips && trips->numel() == 1 && !node_.hasInput(1);
    for (size_t k = static_cast<size_t>(carried); k < outputs; ++k) {
      if (!plainFor) {
        result_.why = "the number of iterations is not known at import (the trip count is not a constant, or a condition can stop it)";
        continue;
      }
      TensorType stacked = body[1 + k];
      stacked.shape.insert(stacked.shape.begin(), std::max<int64_t>(0, trips->intAt(0)));
      set(k, stacked);
    }
  }

  void typeScan() {
    if (ctx_.opset < 9) node_.fail("Scan before opset 9 (with a batch axis and sequence_lens) is not supported");
    const int64_t scanInputs = node_.getInt("num_scan_inputs", 0);
    const int64_t state = node_.numInputs() - scanInputs;
    if (scanInputs < 1 || state < 0) node_.fail("num_scan_inputs is " + std::to_string(scanInputs) + " for " + std::to_string(node_.numInputs()) + " inputs");
    std::vector<int64_t> inAxes = node_.getInts("scan_input_axes", std::vector<int64_t>(static_cast<size_t>(scanInputs), 0));
    if (static_cast<int64_t>(inAxes.size()) != scanInputs) node_.fail("scan_input_axes does not have one axis per scan input");
    std::vector<SubgraphArgument> formal;
    for (int64_t i = 0; i < node_.numInputs(); ++i) {
      if (!node_.hasInput(static_cast<int>(i))) node_.fail("input " + std::to_string(i) + " is empty");
      formal.push_back({ctx_.typeOf(node_.input(static_cast<int>(i)))});
    }
    int64_t length = -1;
    for (int64_t j = 0; j < scanInputs; ++j) {
      TensorType& type = formal[static_cast<size_t>(state + j)].type;
      int64_t axis = inAxes[static_cast<size_t>(j)] < 0 ? inAxes[static_cast<size_t>(j)] + type.rank() : inAxes[static_cast<size_t>(j)];
      if (axis < 0 || axis >= type.rank()) node_.fail("scan input " + std::to_string(j) + " has no axis " + std::to_string(inAxes[static_cast<size_t>(j)]));
      int64_t size = type.shape[static_cast<size_t>(axis)];
      if (length >= 0 && size != length) node_.fail("its scan inputs have different lengths (" + std::to_string(length) + " and " + std::to_string(size) + ")");
      length = size;
      type.shape.erase(type.shape.begin() + axis);
    }
    std::vector<TensorType> body = outputsOf("body", formal);
    const size_t outputs = result_.types.size();
    expectOutputs("body", body.size(), outputs);
    std::vector<int64_t> outAxes = node_.getInts("scan_output_axes", std::vector<int64_t>(outputs - static_cast<size_t>(state), 0));
    for (size_t i = 0; i < outputs; ++i) {
      if (static_cast<int64_t>(i) < state) {
        set(i, body[i]);
        continue;
      }
      size_t k = i - static_cast<size_t>(state);
      if (k >= outAxes.size()) node_.fail("scan_output_axes does not have one axis per scan output");
      TensorType stacked = body[i];
      int64_t axis = outAxes[k] < 0 ? outAxes[k] + stacked.rank() + 1 : outAxes[k];
      if (axis < 0 || axis > stacked.rank()) node_.fail("scan output " + std::to_string(k) + " has no axis " + std::to_string(outAxes[k]));
      stacked.shape.insert(stacked.shape.begin() + axis, length);
      set(i, stacked);
    }
  }

  ImportContext& ctx_;
  const OnnxNode& node_;
  const OpaqueOp& op_;
  std::vector<SubgraphArgument> captured_;
  SubgraphTypes result_;
};

// An If whose condition is a constant at import (a bound input, a folded comparison) is its taken
// branch: the branch's ops join the graph as ordinary nodes that the search can rewrite. Returns
// false, adding nothing, when the branch does not import; the If then stays opaque.
bool inlineConstantIf(ImportContext& ctx, const OnnxNode& node, const OpaqueOp& op) {
  const Tensor* cond = node.hasInput(0) ? ctx.constant(node.input(0)) : nullptr;
  if (!cond || cond->numel() != 1) return false;
  const std::string branch = cond->valueAt(0) != 0 ? "then_branch" : "else_branch";
  std::vector<SubgraphArgument> captured;
  for (const std::string& name : op.capturedNames) {
    const Tensor* value = ctx.constant(name);
    captured.push_back({ctx.typeOf(name), value && value->numel() <= kMaxBoundElements ? value : nullptr});
  }
  ImportedSubgraph sub;
  try {
    sub = importSubgraph(op, branch, {}, captured, ctx.graph.info, "subgraph " + branch);
  } catch (const Error&) {
    return false;
  }
  if (sub.graph.outputs().size() != static_cast<size_t>(node.proto().output_size())) return false;

  std::vector<NodeId> here(sub.graph.size());
  auto outer = [&](const std::string& name) -> std::optional<NodeId> {
    if (std::find(op.capturedNames.begin(), op.capturedNames.end(), name) == op.capturedNames.end()) return std::nullopt;
    return ctx.materialize(name).node;
  };
  auto remap = [&](const Node& n) {
    std::vector<ValueRef> inputs;
    for (const ValueRef& input : n.inputs) inputs.push_back(input.isNone() ? input : ValueRef{here[input.node], input.port});
    return inputs;
  };
  for (NodeId id : sub.graph.topologicalOrder()) {
    const Node& n = sub.graph.node(id);
    if (n.kind == OpKind::Input || n.kind == OpKind::Weight) {
      // Captured names (inputs, or constants bound into the branch) are the enclosing graph's values.
      std::optional<NodeId> captured = outer(n.name);
      here[id] = captured ? *captured : ctx.graph.addWeight(n.name, *n.weight);
      continue;
    }
    if (n.kind == OpKind::Opaque) {
      here[id] = ctx.graph.addOpaque(*n.opaque, remap(n), n.outputTypes, n.name);
    } else {
      here[id] = ctx.graph.addNode(n.kind, remap(n), n.attrs, n.name);
    }
    ctx.graph.mutableNode(here[id]).outputNames = n.outputNames;
  }
  for (int i = 0; i < node.proto().output_size(); ++i) {
    const std::string& name = node.proto().output(i);
    if (name.empty()) continue;
    const ValueRef value = sub.graph.outputs()[static_cast<size_t>(i)].value;
    ctx.defineValue(name, {here[value.node], value.port});
  }
  return true;
}

} // namespace

void importControlFlow(ImportContext& ctx, const OnnxNode& node, const std::string& domain) {
  const onnx::NodeProto& proto = node.proto();
  OpaqueOp op;
  op.domain = domain;
  op.opType = proto.op_type();
  for (const onnx::AttributeProto& attr : proto.attribute()) op.attributeProtos.push_back(attr.SerializeAsString());
  op.capturedNames = outerNamesRead(proto);
  for (const std::string& name : op.capturedNames)
    if (!ctx.defined(name)) node.fail("its subgraph reads '" + name + "', which is defined nowhere in the model");
  const bool standard = domain.empty() || domain == "ai.onnx";
  if (standard && op.opType == "If" && inlineConstantIf(ctx, node, op)) return;

  std::vector<ValueRef> inputs;
  for (int i = 0; i < node.numInputs(); ++i) inputs.push_back(node.hasInput(i) ? ctx.materialize(node.input(i)) : ValueRef::none());
  for (const std::string& name : op.capturedNames) inputs.push_back(ctx.materialize(name));

  SubgraphTypes fromSubgraphs = SubgraphTyping(ctx, node, op).run();
  std::vector<TensorType> outputTypes;
  for (int i = 0; i < proto.output_size(); ++i) {
    const std::string& name = proto.output(i);
    if (name.empty()) {
      outputTypes.push_back({DType::Undefined, {}});
      continue;
    }
    std::optional<TensorType> inferred = fromSubgraphs.types[static_cast<size_t>(i)];
    std::optional<TensorType> declared = declaredStaticType(ctx, name);
    if (inferred && declared && *inferred != *declared)
      node.fail("output '" + name + "' is declared as " + declared->toString() + " but its subgraphs give " + inferred->toString());
    std::optional<TensorType> type = inferred ? inferred : declared;
    if (!type) {
      if (ctx.isRead(name))
        node.fail("the shape of output '" + name + "' cannot be inferred (" + fromSubgraphs.why +
                  ") and the model does not declare it with fixed dimensions");
      outputTypes.push_back({DType::Undefined, {}}); // nobody reads it; kept for export only
      continue;
    }
    checkedNumel(type->shape, node.label() + " output '" + name + "'");
    outputTypes.push_back(*type);
  }

  NodeId id = ctx.graph.addOpaque(std::move(op), std::move(inputs), std::move(outputTypes), proto.name());
  for (int i = 0; i < proto.output_size(); ++i)
    if (!proto.output(i).empty()) ctx.defineValue(proto.output(i), {id, static_cast<uint32_t>(i)});
}

std::vector<SubgraphSummary> summarizeSubgraphs(const OpaqueOp& op) {
  std::vector<SubgraphSummary> summaries;
  for (const std::string& serialized : op.attributeProtos) {
    onnx::AttributeProto attr;
    if (!attr.ParseFromString(serialized)) continue;
    for (const onnx::GraphProto* graph : graphsOf(attr)) summaries.push_back({attr.name(), graph->node_size()});
  }
  return summaries;
}

std::optional<int64_t> intAttribute(const OpaqueOp& op, std::string_view name) {
  std::optional<onnx::AttributeProto> attr = findAttribute(op, name);
  if (!attr) return std::nullopt;
  if (attributeType(*attr) != onnx::AttributeProto::INT) throw Error("attribute '" + std::string(name) + "' is not an integer");
  return attr->i();
}

std::optional<std::vector<int64_t>> intsAttribute(const OpaqueOp& op, std::string_view name) {
  std::optional<onnx::AttributeProto> attr = findAttribute(op, name);
  if (!attr) return std::nullopt;
  if (attributeType(*attr) != onnx::AttributeProto::INTS) throw Error("attribute '" + std::string(name) + "' is not a list of integers");
  return std::vector<int64_t>(attr->ints().begin(), attr->ints().end());
}

ImportedSubgraph importSubgraph(const OpaqueOp& op, std::string_view attribute, const std::vector<SubgraphArgument>& formal,
                                const std::vector<SubgraphArgument>& captured, const ModelInfo& info, const std::string& label) {
  std::optional<onnx::AttributeProto> attr;
  try {
    attr = findAttribute(op, attribute);
  } catch (const Error& e) {
    throw errorInFile(label, e.what());
  }
  if (!attr || !attr->has_g()) throw errorInFile(label, "the node has no graph attribute '" + std::string(attribute) + "'");
  if (captured.size() != op.capturedNames.size())
    throw errorInFile(label, std::to_string(captured.size()) + " captured values for " + std::to_string(op.capturedNames.size()) + " names");

  // The subgraph as a model of its own: its formal inputs typed by the caller, then every outer
  // name it reads as one more input.
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* standard = model.add_opset_import();
  standard->set_domain("");
  standard->set_version(info.opset);
  for (const auto& [domain, version] : info.otherOpsets) {
    auto* other = model.add_opset_import();
    other->set_domain(domain);
    other->set_version(version);
  }
  onnx::GraphProto* graph = model.mutable_graph();
  *graph = attr->g();
  if (graph->input_size() != static_cast<int>(formal.size()))
    throw errorInFile(label, "declares " + std::to_string(graph->input_size()) + " inputs where " + std::to_string(formal.size()) +
                                 " are passed to it");
  ImportedSubgraph imported;
  BoundInputs bound;
  auto add = [&](onnx::ValueInfoProto* input, const SubgraphArgument& argument) {
    input->clear_type();
    setTensorType(argument.type, input->mutable_type());
    imported.inputNames.push_back(input->name());
    if (argument.bind) bound.emplace(input->name(), *argument.bind);
  };
  for (size_t i = 0; i < formal.size(); ++i) add(graph->mutable_input(static_cast<int>(i)), formal[i]);
  for (size_t i = 0; i < captured.size(); ++i) {
    onnx::ValueInfoProto* input = graph->add_input();
    input->set_name(op.capturedNames[i]);
    add(input, captured[i]);
  }
  imported.graph = importOnnxBytes(model.SerializeAsString(), label, bound);
  return imported;
}

} // namespace tessera::onnx_io
