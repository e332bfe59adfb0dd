#include "onnx/ExportWriter.h"

#include "onnx/Subgraphs.h"
#include "onnx/TensorConversion.h"
#include "support/Error.h"

#include <cmath>

namespace tessera::onnx_io {

ExportWriter::ExportWriter(const Graph& graph, onnx::GraphProto* proto) : graph_(graph), proto_(proto) {
  names_.resize(graph.size());
  for (const Node& node : graph.nodes()) {
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) wanted_.insert(node.name);
    for (const std::string& name : node.outputNames) wanted_.insert(name);
  }
  for (const GraphOutput& output : graph.outputs()) wanted_.insert(output.name);
  wanted_.erase("");
  // Names a subgraph defines are never given to a tensor of this graph (ONNX scopes are nested).
  for (const Node& node : graph.nodes()) {
    if (!node.opaque) continue;
    std::unordered_set<std::string> inside;
    for (const std::string& serialized : node.opaque->attributeProtos) {
      onnx::AttributeProto attr;
      if (attr.ParseFromString(serialized)) addNamesDefinedInside(attr, inside);
    }
    for (const std::string& name : inside) {
      wanted_.insert(name);
      claimed_.insert(name);
    }
  }

  // Inputs first: they are the model's signature.
  for (NodeId id : graph.inputNodes()) {
    const Node& node = graph.node(id);
    names_[id] = {claim(node.name) ? node.name : fresh(node.name.empty() ? "input" : node.name)};
  }
  // Graph outputs name their values where they can; otherwise an Identity carries the name.
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const GraphOutput& output = graph.outputs()[i];
    const ValueRef value = output.value;
    std::vector<std::string>& ports = names_[value.node];
    ports.resize(graph.node(value.node).outputTypes.size());
    std::string& valueName = ports[value.port];
    std::string desired = output.name.empty() ? "output_" + std::to_string(i) : output.name;
    // A weight keeps its own name (weights are matched by name); an Identity gives the output its.
    const Node& producer = graph.node(value.node);
    bool renames = producer.kind == OpKind::Weight && producer.name != desired;
    if (valueName.empty() && !renames && claim(desired)) {
      valueName = desired;
      outputNames_.push_back(desired);
      continue;
    }
    outputNames_.push_back(valueName == desired ? desired : (claim(desired) ? desired : fresh(desired)));
  }
  nameCapturedValues();
  // Weights, then the outputs of every other node.
  for (NodeId id : graph.weightNodes()) {
    const Node& node = graph.node(id);
    if (names_[id].empty() || names_[id][0].empty()) names_[id] = {claim(node.name) ? node.name : fresh(node.name.empty() ? "weight" : node.name)};
  }
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    std::vector<std::string>& ports = names_[id];
    ports.resize(node.outputTypes.size());
    for (size_t port = 0; port < ports.size(); ++port) {
      if (!ports[port].empty()) continue;
      const std::string& carried = port < node.outputNames.size() ? node.outputNames[port] : std::string();
      // An opaque node's absent optional output stays absent.
      if (carried.empty() && node.kind == OpKind::Opaque && node.outputTypes[port].dtype == DType::Undefined) continue;
      ports[port] = claim(carried) ? carried : fresh((node.name.empty() ? "t" : node.name) + "_out" + std::to_string(port));
    }
  }
}

void ExportWriter::nameCapturedValues() {
  for (const Node& node : graph_.nodes()) {
    if (!node.opaque || node.opaque->capturedNames.empty()) continue;
    const std::vector<std::string>& captured = node.opaque->capturedNames;
    if (captured.size() > node.inputs.size()) throw Error(describeNode(node) + ": has fewer inputs than captured names");
    const size_t first = node.inputs.size() - captured.size();
    for (size_t i = 0; i < captured.size(); ++i) {
      const std::string& name = captured[i];
      const ValueRef value = node.inputs[first + i];
      if (auto [it, inserted] = capturedValue_.emplace(name, value); !inserted) {
        if (it->second == value) continue;
        throw Error(describeNode(node) + ": its subgraphs read '" + name + "', which names another value for another node's subgraphs");
      }
      const Node& producer = graph_.node(value.node);
      std::vector<std::string>& ports = names_[value.node];
      ports.resize(producer.outputTypes.size());
      std::string& own = ports[value.port];
      if (own == name) continue;
      bool leaf = producer.kind == OpKind::Input || producer.kind == OpKind::Weight;
      bool carries = leaf ? producer.name == name : value.port < producer.outputNames.size() && producer.outputNames[value.port] == name;
      if (own.empty() && carries && claim(name)) {
        own = name;
        continue;
      }
      // An Identity will write the name (provideCaptured); it must be free for it.
      if (!claim(name))
        throw Error(describeNode(node) + ": its subgraphs read '" + name + "', but that name belongs to another tensor of the graph");
    }
  }
}

void ExportWriter::provideCaptured(ValueRef value, const std::string& captured) {
  const std::string& own = nameOf(value);
  if (own == captured || !linksWritten_.insert(captured).second) return;
  addNode("Identity", {own}, {captured}, captured + "_captured");
}

const std::string& ExportWriter::nameOf(ValueRef value) const { return names_[value.node][value.port]; }

std::string ExportWriter::fresh(const std::string& base) {
  // The base itself when free, so that names do not depend on what was named before (export
  // of a re-imported model then reproduces the same file).
  if (!wanted_.count(base) && claim(base)) return base;
  size_t& next = nextSuffix_[base];
  for (;;) {
    std::string name = base + "_" + std::to_string(++next);
    if (!wanted_.count(name) && claim(name)) return name;
  }
}

std::string ExportWriter::uniqueNodeName(const std::string& name) {
  if (nodeNames_.insert(name).second) return name;
  size_t& next = nextNodeSuffix_[name];
  for (;;) {
    std::string candidate = name + "_" + std::to_string(++next);
    if (nodeNames_.insert(candidate).second) return candidate;
  }
}

onnx::NodeProto& ExportWriter::addNode(const std::string& opType, std::vector<std::string> inputs, std::vector<std::string> outputs,
                                       const std::string& name) {
  onnx::NodeProto& node = *proto_->add_node();
  node.set_op_type(opType);
  if (!name.empty()) node.set_name(uniqueNodeName(name));
  for (std::string& input : inputs) node.add_input(std::move(input));
  for (std::string& output : outputs) node.add_output(std::move(output));
  return node;
}

void ExportWriter::addInitializer(const Tensor& value, const std::string& name) { tensorToProto(value, name, proto_->add_initializer()); }

std::string ExportWriter::addInt64Initializer(const std::vector<int64_t>& values, const std::string& base) {
  std::string name = fresh(base);
  addInitializer(Tensor::fromInts({DType::Int64, {static_cast<int64_t>(values.size())}}, values), name);
  return name;
}

std::string ExportWriter::addScalarInitializer(DType type, double value, const std::string& base) {
  std::string name = fresh(base);
  if (isFloatingPoint(type)) {
    Tensor scalar = Tensor::zeros({type, {}});
    scalar.mutableFloats()[0] = static_cast<float>(value);
    addInitializer(scalar, name);
    return name;
  }
  // Integer bounds (Clip of an integer tensor): saturate what the type cannot hold.
  double clamped = std::isnan(value) ? 0.0 : std::fmax(-9223372036854775808.0, std::fmin(value, 9223372036854774784.0));
  addInitializer(Tensor::fromInts({type, {}}, {narrowInteger(type, static_cast<int64_t>(clamped))}), name);
  return name;
}

} // namespace tessera::onnx_io
