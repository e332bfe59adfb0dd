#include "CompiledGraph.h"

#include "HugePages.h"

#include "support/Error.h"
#include "tune/TunedKernel.h"

#include <algorithm>
#include <cstring>

namespace tessera::cpu {

CompiledGraph::CompiledGraph(const dnnl::engine& engine, const Graph& graph, std::shared_ptr<TunedKernels> tuned)
    : plan_(graph, "the CPU", ExecutionPlan::Splits::Sliced), tunedKernels_(std::move(tuned)) {
  buffers_.reserve(plan_.bufferCount());
  for (size_t b = 0; b < plan_.bufferCount(); ++b) {
    const size_t owner = plan_.ownerOf(b);
    buffers_.push_back(plan_.value(owner).constant ? plan_.releaseConstant(owner) : Tensor::zeros(plan_.value(owner).type));
  }
  for (const Tensor& buffer : buffers_) backWithHugePages(buffer.bytes());
  for (const ExecutionPlan::Step& step : plan_.steps()) {
    const Node& node = graph.node(step.node);
    OpSignature signature{node.kind, {}, node.outputTypes, node.attrs};
    bool denseFloats = true;
    for (size_t value : step.inputs) {
      signature.inputs.push_back(plan_.value(value).type);
      denseFloats = denseFloats && buffer(value).holdsFloats();
    }
    const tune::TunedKernel* kernel = denseFloats && tunedKernels_ ? tunedKernels_->chosenKernel(signature) : nullptr;
    tuned_.push_back(kernel);
    if (kernel) {
      ++tunedOps_;
      ops_.push_back(nullptr);
      continue;
    }
    std::unique_ptr<DnnlOp> op = denseFloats ? DnnlOp::lower(engine, signature, DnnlOp::Purpose::Execute) : nullptr;
    if (op) {
      for (size_t i = 0; i < step.inputs.size(); ++i)
        if (plan_.value(step.inputs[i]).constant) op->setConstant(i);
    }
    ++(op ? oneDnnOps_ : interpretedOps_);
    ops_.push_back(std::move(op));
  }
}

void CompiledGraph::feed(const TensorMap& inputs) {
  for (const auto& [name, value] : plan_.inputs()) {
    const Tensor& fed = plan_.fedInput(inputs, name, value);
    Tensor& target = buffers_[plan_.value(value).buffer];
    // Integer inputs (token ids, indices) feed interpreted ops only; a copy keeps their type.
    if (!fed.holdsFloats()) {
      target = fed.materialized();
      continue;
    }
    for (int64_t i = 0; i < fed.numel(); ++i) target.mutableFloats()[static_cast<size_t>(i)] = fed.floatAt(i);
  }
}

std::vector<Tensor> CompiledGraph::evaluate(const Node& node, const std::vector<size_t>& inputValues) const {
  std::vector<Tensor> relabels;
  relabels.reserve(inputValues.size()); // no reallocation: `arguments` points into it
  std::vector<const Tensor*> arguments;
  for (size_t value : inputValues) {
    const ExecutionPlan::Value& planned = plan_.value(value);
    if (buffer(value).type() == planned.type && planned.offset == 0) {
      arguments.push_back(&buffer(value));
      continue;
    }
    relabels.push_back(viewOfBuffer(buffer(value), planned));
    arguments.push_back(&relabels.back());
  }
  return evaluateNode(node, arguments);
}

void CompiledGraph::interpret(const ExecutionPlan::Step& step) {
  std::vector<Tensor> results = evaluate(plan_.graph().node(step.node), step.inputs);
  for (size_t port = 0; port < results.size(); ++port) {
    Tensor& target = buffers_[plan_.value(step.outputs[port]).buffer];
    Tensor& result = results[port];
    // Into the buffer's own memory where the kinds agree, so it keeps its pages.
    if (target.type() == result.type() && !result.isSplat() && target.holdsFloats())
      std::copy(result.floats().begin(), result.floats().end(), target.mutableFloats().begin());
    else
      target = std::move(result);
  }
}

void CompiledGraph::execute(dnnl::stream& stream) {
  std::vector<const float*> inputs;
  std::vector<float*> outputs;
  const std::vector<ExecutionPlan::Step>& steps = plan_.steps();
  for (size_t s = 0; s < steps.size(); ++s) {
    const ExecutionPlan::Step& step = steps[s];
    const Node& node = plan_.graph().node(step.node);
    try {
      if (!ops_[s] && !tuned_[s]) {
        interpret(step);
        continue;
      }
      inputs.clear();
      outputs.clear();
      for (size_t value : step.inputs) inputs.push_back(buffer(value).floats().data() + plan_.value(value).offset);
      for (size_t value : step.outputs) outputs.push_back(buffers_[plan_.value(value).buffer].mutableFloats().data());
      if (tuned_[s]) tuned_[s]->run(inputs, outputs.at(0));
      else ops_[s]->execute(stream, inputs, outputs);
    } catch (const Error& e) {
      throw Error(describeNode(node) + ": " + e.what());
    } catch (const dnnl::error& e) {
      throw Error(describeNode(node) + ": oneDNN: " + e.what());
    }
  }
}

std::vector<Tensor> CompiledGraph::outputs() const {
  std::vector<Tensor> results;
  for (const GraphOutput& output : plan_.graph().outputs()) {
    const size_t value = plan_.valueOf(output.value);
    results.push_back(viewOfBuffer(buffer(value), plan_.value(value)));
  }
  return results;
}

} // namespace tessera::cpu
