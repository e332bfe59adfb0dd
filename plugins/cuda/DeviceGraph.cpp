#include "DeviceGraph.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::cuda {

namespace {

Tensor dense(Tensor tensor) { return tensor.isSplat() ? tensor.materialized() : std::move(tensor); }

} // namespace

size_t DeviceGraph::newBuffer(const TensorType& type) {
  buffers_.emplace_back(sizeof(float) * static_cast<size_t>(std::max<int64_t>(type.numel(), 1)));
  return buffers_.size() - 1;
}

DeviceGraph::DeviceGraph(CudaContext& context, const Graph& graph) : context_(context), graph_(graph) {
  valueIndex_.resize(graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) {
    valueIndex_[id] = values_.size();
    for (const TensorType& type : graph.node(id).outputTypes) values_.push_back({type, kNoBuffer, std::nullopt});
  }
  for (NodeId id : graph.topologicalOrder()) {
    const Node& node = graph.node(id);
    const size_t first = valueIndex_[id];
    if (node.kind == OpKind::Input) {
      values_[first].buffer = newBuffer(node.outputTypes[0]);
      inputs_.emplace_back(node.name, first);
      continue;
    }
    if (node.kind == OpKind::Opaque) throw Error("cannot execute opaque op " + describeNode(node) + " on the GPU");
    bool allConstant = node.kind == OpKind::Weight || !node.inputs.empty();
    for (const ValueRef& input : node.inputs) {
      if (input.isNone()) throw Error(describeNode(node) + " has an absent input");
      allConstant = allConstant && values_[valueOf(input)].constant.has_value();
    }
    try {
      if (allConstant) {
        // Weights and what follows from weights alone: computed on the host now, uploaded once.
        std::vector<const Tensor*> arguments;
        for (const ValueRef& input : node.inputs) arguments.push_back(&*values_[valueOf(input)].constant);
        std::vector<Tensor> results = evaluateNode(node, arguments);
        for (size_t port = 0; port < results.size(); ++port) {
          Value& value = values_[first + port];
          value.constant = dense(std::move(results[port]));
          if (!value.constant->holdsFloats()) continue; // integer constants (Gather's indices) stay on the host
          value.buffer = newBuffer(value.type);
          upload(first + port, *value.constant);
        }
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
      for (size_t value : step.outputs) values_[value].buffer = newBuffer(values_[value].type);
      OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
      bool onDevice = true;
      for (size_t value : step.inputs) {
        signature.inputs.push_back(values_[value].type);
        onDevice = onDevice && values_[value].buffer != kNoBuffer;
      }
      if (onDevice) step.op = CudaOp::lower(context_, signature);
      ++(step.op ? gpuOps_ : interpretedOps_);
      steps_.push_back(std::move(step));
    } catch (const Error& e) {
      throw Error(describeNode(node) + ": " + e.what());
    }
  }
  // Convolution algorithms are searched now, on the buffers they will run on, not in a timed run.
  for (Step& step : steps_) {
    if (!step.op) continue;
    std::vector<const float*> in;
    std::vector<float*> out;
    for (size_t value : step.inputs) in.push_back(deviceData(value));
    for (size_t value : step.outputs) out.push_back(deviceData(value));
    try {
      step.op->prepare(in, out);
    } catch (const Error& e) {
      throw Error(describeNode(graph_.node(step.node)) + ": " + e.what());
    }
  }
}

void DeviceGraph::upload(size_t value, const Tensor& tensor) {
  if (!tensor.holdsFloats()) throw Error("cannot put the integer tensor " + tensor.type().toString() + " on the GPU");
  if (tensor.numel() != values_[value].type.numel())
    throw Error("a tensor of " + std::to_string(tensor.numel()) + " elements for a value of type " + values_[value].type.toString());
  if (tensor.numel() == 0) return;
  if (tensor.isSplat()) {
    const Tensor expanded = tensor.materialized();
    context_.upload(deviceData(value), expanded.floats().data(), static_cast<size_t>(expanded.numel()));
    return;
  }
  context_.upload(deviceData(value), tensor.floats().data(), static_cast<size_t>(tensor.numel()));
}

Tensor DeviceGraph::download(size_t value) {
  Tensor tensor = Tensor::zeros(values_[value].type);
  if (tensor.numel() > 0) context_.download(tensor.mutableFloats().data(), deviceData(value), static_cast<size_t>(tensor.numel()));
  return tensor;
}

void DeviceGraph::feed(const TensorMap& inputs) {
  for (const auto& [name, value] : inputs_) {
    auto it = inputs.find(name);
    if (it == inputs.end()) throw Error("no value for input '" + name + "'");
    const TensorType& type = values_[value].type;
    if (it->second.type() != type) throw Error("input '" + name + "' expects " + type.toString() + ", got " + it->second.type().toString());
    if (!it->second.holdsFloats()) throw Error("input '" + name + "' is not a float tensor");
    upload(value, it->second);
  }
}

void DeviceGraph::interpret(const Step& step) {
  std::vector<Tensor> downloaded;
  downloaded.reserve(step.inputs.size()); // no reallocation: `arguments` points into it
  std::vector<const Tensor*> arguments;
  for (size_t value : step.inputs) {
    if (values_[value].constant) {
      arguments.push_back(&*values_[value].constant);
      continue;
    }
    downloaded.push_back(download(value));
    arguments.push_back(&downloaded.back());
  }
  std::vector<Tensor> results = evaluateNode(graph_.node(step.node), arguments);
  for (size_t port = 0; port < results.size(); ++port) upload(step.outputs[port], results[port]);
}

void DeviceGraph::run(Step& step) {
  if (!step.op) {
    interpret(step);
    return;
  }
  std::vector<const float*> in;
  std::vector<float*> out;
  for (size_t value : step.inputs) in.push_back(deviceData(value));
  for (size_t value : step.outputs) out.push_back(deviceData(value));
  step.op->execute(in, out);
}

void DeviceGraph::execute() {
  for (Step& step : steps_) {
    try {
      run(step);
    } catch (const Error& e) {
      throw Error(describeNode(graph_.node(step.node)) + ": " + e.what());
    }
  }
}

std::vector<Tensor> DeviceGraph::outputs() {
  context_.synchronize();
  std::vector<Tensor> results;
  for (const GraphOutput& output : graph_.outputs()) {
    const size_t value = valueOf(output.value);
    results.push_back(values_[value].constant ? *values_[value].constant : download(value));
  }
  return results;
}

} // namespace tessera::cuda
