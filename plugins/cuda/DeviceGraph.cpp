#include "DeviceGraph.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::cuda {

DeviceGraph::DeviceGraph(CudaContext& context, const Graph& graph) : context_(context), plan_(graph, "the GPU") {
  deviceBuffer_.assign(plan_.bufferCount(), kNoBuffer);
  hostBuffers_.resize(plan_.bufferCount());
  for (size_t b = 0; b < plan_.bufferCount(); ++b) {
    const ExecutionPlan::Value& owner = plan_.value(plan_.ownerOf(b));
    if (isInteger(owner.type.dtype)) { // integers (token ids, masks, indices) stay on the host
      if (!owner.constant) hostBuffers_[b] = Tensor::zeros(owner.type);
      continue;
    }
    buffers_.emplace_back(sizeof(float) * static_cast<size_t>(std::max<int64_t>(owner.type.numel(), 1)));
    deviceBuffer_[b] = buffers_.size() - 1;
  }
  for (size_t b = 0; b < plan_.bufferCount(); ++b) {
    const size_t owner = plan_.ownerOf(b);
    if (!plan_.value(owner).constant || !onDevice(owner)) continue;
    try {
      upload(owner, *plan_.value(owner).tensor); // kept on the host too, for interpreted steps
    } catch (const Error& e) {
      throw Error(describeNode(graph.node(plan_.value(owner).node)) + ": " + e.what());
    }
  }
  for (const ExecutionPlan::Step& step : plan_.steps()) {
    const Node& node = graph.node(step.node);
    OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
    bool allOnDevice = true;
    for (size_t value : step.inputs) {
      signature.inputs.push_back(plan_.value(value).type);
      allOnDevice = allOnDevice && onDevice(value);
    }
    for (size_t value : step.outputs) allOnDevice = allOnDevice && onDevice(value);
    std::unique_ptr<CudaOp> op;
    try {
      if (allOnDevice) op = CudaOp::lower(context_, signature);
      // Convolution algorithms are searched now, on the buffers they will run on, not in a timed run.
      if (op) {
        std::vector<const float*> in;
        std::vector<float*> out;
        for (size_t value : step.inputs) in.push_back(deviceData(value));
        for (size_t value : step.outputs) out.push_back(deviceData(value));
        op->prepare(in, out);
      }
    } catch (const Error& e) {
      throw Error(describeNode(node) + ": " + e.what());
    }
    ++(op ? gpuOps_ : interpretedOps_);
    ops_.push_back(std::move(op));
  }
}

void DeviceGraph::upload(size_t value, const Tensor& tensor) {
  const TensorType& type = plan_.value(value).type;
  if (!tensor.holdsFloats()) throw Error("cannot put the integer tensor " + tensor.type().toString() + " on the GPU");
  if (tensor.numel() != type.numel())
    throw Error("a tensor of " + std::to_string(tensor.numel()) + " elements for a value of type " + type.toString());
  if (tensor.numel() == 0) return;
  if (tensor.isSplat()) {
    const Tensor expanded = tensor.materialized();
    context_.upload(deviceData(value), expanded.floats().data(), static_cast<size_t>(expanded.numel()));
    return;
  }
  context_.upload(deviceData(value), tensor.floats().data(), static_cast<size_t>(tensor.numel()));
}

Tensor DeviceGraph::download(size_t value) {
  Tensor tensor = Tensor::zeros(plan_.value(value).type);
  if (tensor.numel() > 0) context_.download(tensor.mutableFloats().data(), deviceData(value), static_cast<size_t>(tensor.numel()));
  return tensor;
}

void DeviceGraph::feed(const TensorMap& inputs) {
  for (const auto& [name, value] : plan_.inputs()) store(value, plan_.fedInput(inputs, name, value));
}

void DeviceGraph::store(size_t value, const Tensor& tensor) {
  if (onDevice(value)) upload(value, tensor);
  else hostBuffers_[plan_.value(value).buffer] = tensor.materialized();
}

Tensor DeviceGraph::fetch(size_t value) {
  const ExecutionPlan::Value& planned = plan_.value(value);
  if (planned.constant) return *planned.tensor;
  if (onDevice(value)) return download(value);
  return viewOfBuffer(hostBuffers_[planned.buffer], planned);
}

void DeviceGraph::interpret(const ExecutionPlan::Step& step) {
  std::vector<Tensor> fetched;
  fetched.reserve(step.inputs.size()); // no reallocation: `arguments` points into it
  std::vector<const Tensor*> arguments;
  for (size_t value : step.inputs) {
    if (plan_.value(value).constant) {
      arguments.push_back(&*plan_.value(value).tensor);
      continue;
    }
    fetched.push_back(fetch(value));
    arguments.push_back(&fetched.back());
  }
  std::vector<Tensor> results = evaluateNode(plan_.graph().node(step.node), arguments);
  for (size_t port = 0; port < results.size(); ++port) store(step.outputs[port], results[port]);
}

void DeviceGraph::run(size_t s) {
  const ExecutionPlan::Step& step = plan_.steps()[s];
  if (!ops_[s]) {
    interpret(step);
    return;
  }
  std::vector<const float*> in;
  std::vector<float*> out;
  for (size_t value : step.inputs) in.push_back(deviceData(value));
  for (size_t value : step.outputs) out.push_back(deviceData(value));
  ops_[s]->execute(in, out);
}

void DeviceGraph::execute() {
  for (size_t s = 0; s < plan_.steps().size(); ++s) {
    try {
      run(s);
    } catch (const Error& e) {
      throw Error(describeNode(plan_.graph().node(plan_.steps()[s].node)) + ": " + e.what());
    }
  }
}

std::vector<Tensor> DeviceGraph::outputs() {
  context_.synchronize();
  std::vector<Tensor> results;
  for (const GraphOutput& output : plan_.graph().outputs()) {
    const size_t value = plan_.valueOf(output.value);
    results.push_back(fetch(value));
  }
  return results;
}

} // namespace tessera::cuda
