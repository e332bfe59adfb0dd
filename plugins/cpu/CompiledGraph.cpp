#include "CompiledGraph.h"

#include "support/Error.h"

#include <cstring>

namespace tessera::cpu {

namespace {

// The same values under another shape (a view's consumer in the interpreter wants its own type).
Tensor relabelled(const Tensor& tensor, const TensorType& type) {
  if (tensor.type() == type) return tensor;
  Tensor copy = Tensor::zeros(type);
  std::memcpy(copy.mutableFloats().data(), tensor.floats().data(), sizeof(float) * static_cast<size_t>(type.numel()));
  return copy;
}

} // namespace

size_t CompiledGraph::newBuffer(Tensor tensor) {
  buffers_.push_back(std::move(tensor));
  return buffers_.size() - 1;
}

CompiledGraph::CompiledGraph(const dnnl::engine& engine, const Graph& graph) : graph_(graph) {
  valueIndex_.resize(graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) {
    valueIndex_[id] = values_.size();
    for (const TensorType& type : graph.node(id).outputTypes) values_.push_back({0, type});
  }
  std::vector<bool> constant(graph.size(), false);
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    const size_t first = valueIndex_[id];
    if (node.kind == OpKind::Input) {
      values_[first].buffer = newBuffer(Tensor::zeros(node.outputTypes[0]));
      inputs_.emplace_back(node.name, first);
      continue;
    }
    if (node.kind == OpKind::Opaque) throw Error("cannot execute opaque op " + describeNode(node) + " on the CPU");
    bool allConstant = node.kind == OpKind::Weight || !node.inputs.empty();
    for (const ValueRef& input : node.inputs) {
      if (input.isNone()) throw Error(describeNode(node) + " has an absent input");
      allConstant = allConstant && constant[input.node];
    }
    if (allConstant) {
      // Weights and what follows from weights alone: computed now, once.
      std::vector<size_t> inputValues;
      for (const ValueRef& input : node.inputs) inputValues.push_back(valueOf(input));
      std::vector<Tensor> results;
      try {
        results = evaluate(node, inputValues);
      } catch (const Error& e) {
        throw Error(describeNode(node) + ": " + e.what());
      }
      for (size_t port = 0; port < results.size(); ++port) {
        Tensor dense = results[port].isSplat() ? results[port].materialized() : std::move(results[port]);
        values_[first + port].buffer = newBuffer(std::move(dense));
      }
      constant[id] = true;
      continue;
    }
    Step step;
    step.node = id;
    for (const ValueRef& input : node.inputs) step.inputs.push_back(valueOf(input));
    for (size_t port = 0; port < node.outputTypes.size(); ++port) step.outputs.push_back(first + port);
    if (isDataView(node.kind)) {
      values_[first].buffer = values_[step.inputs[0]].buffer; // same bytes, new shape
      continue;
    }
    for (size_t value : step.outputs) values_[value].buffer = newBuffer(Tensor::zeros(values_[value].type));

    OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
    for (size_t value : step.inputs) signature.inputs.push_back(values_[value].type);
    bool denseFloats = true;
    for (const ValueRef& input : node.inputs)
      denseFloats = denseFloats && buffers_[values_[valueOf(input)].buffer].holdsFloats();
    if (denseFloats) step.op = DnnlOp::lower(engine, signature, DnnlOp::Purpose::Execute);
    if (step.op) {
      for (size_t i = 0; i < node.inputs.size(); ++i)
        if (constant[node.inputs[i].node]) step.op->setConstant(i);
      ++oneDnnOps_;
    } else {
      ++interpretedOps_;
    }
    steps_.push_back(std::move(step));
  }
}

void CompiledGraph::feed(const TensorMap& inputs) {
  for (const auto& [name, value] : inputs_) {
    auto it = inputs.find(name);
    if (it == inputs.end()) throw Error("no value for input '" + name + "'");
    const TensorType& type = values_[value].type;
    if (it->second.type() != type) throw Error("input '" + name + "' expects " + type.toString() + ", got " + it->second.type().toString());
    if (!it->second.holdsFloats()) throw Error("input '" + name + "' is not a float tensor");
    Tensor& buffer = buffers_[values_[value].buffer];
    for (int64_t i = 0; i < type.numel(); ++i) buffer.mutableFloats()[static_cast<size_t>(i)] = it->second.floatAt(i);
  }
}

std::vector<Tensor> CompiledGraph::evaluate(const Node& node, const std::vector<size_t>& inputValues) const {
  std::vector<Tensor> relabels;
  relabels.reserve(inputValues.size()); // no reallocation: `arguments` points into it
  std::vector<const Tensor*> arguments;
  for (size_t value : inputValues) {
    const Tensor& buffer = buffers_[values_[value].buffer];
    if (buffer.type() == values_[value].type) {
      arguments.push_back(&buffer);
      continue;
    }
    relabels.push_back(relabelled(buffer, values_[value].type));
    arguments.push_back(&relabels.back());
  }
  return evaluateNode(node, arguments);
}

void CompiledGraph::interpret(const Step& step) {
  std::vector<Tensor> results = evaluate(graph_.node(step.node), step.inputs);
  for (size_t port = 0; port < results.size(); ++port) buffers_[values_[step.outputs[port]].buffer] = std::move(results[port]);
}

void CompiledGraph::execute(dnnl::stream& stream) {
  std::vector<const float*> inputs;
  std::vector<float*> outputs;
  for (const Step& step : steps_) {
    try {
      if (!step.op) {
        interpret(step);
        continue;
      }
      inputs.clear();
      outputs.clear();
      for (size_t value : step.inputs) inputs.push_back(buffers_[values_[value].buffer].floats().data());
      for (size_t value : step.outputs) outputs.push_back(buffers_[values_[value].buffer].mutableFloats().data());
      step.op->execute(stream, inputs, outputs);
    } catch (const Error& e) {
      throw Error(describeNode(graph_.node(step.node)) + ": " + e.what());
    } catch (const dnnl::error& e) {
      throw Error(describeNode(graph_.node(step.node)) + ": oneDNN: " + e.what());
    }
  }
}

std::vector<Tensor> CompiledGraph::outputs() const {
  std::vector<Tensor> results;
  for (const GraphOutput& output : graph_.outputs()) {
    const Value& value = values_[valueOf(output.value)];
    results.push_back(relabelled(buffers_[value.buffer], value.type));
  }
  return results;
}

} // namespace tessera::cpu
