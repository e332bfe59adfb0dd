#include "interp/ExecutionPlan.h"

#include "ir/ContiguousSplit.h"
#include "support/Error.h"

#include <cstring>

namespace tessera {

ExecutionPlan::ExecutionPlan(const Graph& graph, std::string_view device, Splits splits) : graph_(graph) {
  valueIndex_.resize(graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) {
    valueIndex_[id] = values_.size();
    for (const TensorType& type : graph.node(id).outputTypes) values_.push_back({id, type, 0, 0, false, std::nullopt});
  }
  auto ownBuffer = [this](size_t value) {
    values_[value].buffer = bufferOwners_.size();
    bufferOwners_.push_back(value);
  };
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    const size_t first = valueIndex_[id];
    if (node.kind == OpKind::Input) {
      ownBuffer(first);
      inputs_.emplace_back(node.name, first);
      continue;
    }
    if (node.kind == OpKind::Opaque) throw Error("cannot execute opaque op " + describeNode(node) + " on " + std::string(device));
    bool allConstant = node.kind == OpKind::Weight || !node.inputs.empty();
    for (const ValueRef& input : node.inputs) {
      if (input.isNone()) throw Error(describeNode(node) + " has an absent input");
      allConstant = allConstant && values_[valueOf(input)].constant;
    }
    if (allConstant) {
      std::vector<const Tensor*> arguments;
      for (const ValueRef& input : node.inputs) arguments.push_back(&*values_[valueOf(input)].tensor);
      std::vector<Tensor> results;
      try {
        results = evaluateNode(node, arguments);
      } catch (const Error& e) {
        throw Error(describeNode(node) + ": " + e.what());
      }
      for (size_t port = 0; port < results.size(); ++port) {
        Tensor& result = results[port];
        values_[first + port].constant = true;
        values_[first + port].tensor = result.isSplat() ? result.materialized() : std::move(result);
        ownBuffer(first + port);
      }
      continue;
    }
    Step step;
    step.node = id;
    for (const ValueRef& input : node.inputs) step.inputs.push_back(valueOf(input));
    if (isDataView(node.kind)) {
      values_[first].buffer = values_[step.inputs[0]].buffer; // the same bytes under a new shape
      values_[first].offset = values_[step.inputs[0]].offset;
      continue;
    }
    if (splits == Splits::Sliced && isContiguousSplit(node.kind, node.attrs, values_[step.inputs[0]].type)) {
      int64_t offset = values_[step.inputs[0]].offset; // each piece follows the one before it
      for (size_t port = 0; port < node.outputTypes.size(); ++port) {
        values_[first + port].buffer = values_[step.inputs[0]].buffer;
        values_[first + port].offset = offset;
        offset += node.outputTypes[port].numel();
      }
      continue;
    }
    for (size_t port = 0; port < node.outputTypes.size(); ++port) {
      step.outputs.push_back(first + port);
      ownBuffer(first + port);
    }
    steps_.push_back(std::move(step));
  }
}

Tensor ExecutionPlan::releaseConstant(size_t index) {
  if (!values_[index].tensor) throw Error("internal: the constant value " + std::to_string(index) + " was released already");
  Tensor tensor = std::move(*values_[index].tensor);
  values_[index].tensor.reset();
  return tensor;
}

const Tensor& ExecutionPlan::fedInput(const TensorMap& fed, const std::string& name, size_t index) const {
  auto it = fed.find(name);
  if (it == fed.end()) throw Error("no value for input '" + name + "'");
  const TensorType& type = values_[index].type;
  if (it->second.type() != type) throw Error("input '" + name + "' expects " + type.toString() + ", got " + it->second.type().toString());
  return it->second;
}

Tensor viewOfBuffer(const Tensor& buffer, const ExecutionPlan::Value& value) {
  if (buffer.type() == value.type && value.offset == 0) return buffer;
  Tensor copy = Tensor::zeros(value.type);
  const auto count = static_cast<size_t>(value.type.numel());
  const auto first = static_cast<size_t>(value.offset);
  if (buffer.holdsFloats()) std::memcpy(copy.mutableFloats().data(), buffer.floats().data() + first, sizeof(float) * count);
  else std::memcpy(copy.mutableInts().data(), buffer.ints().data() + first, sizeof(int64_t) * count);
  return copy;
}

} // namespace tessera
