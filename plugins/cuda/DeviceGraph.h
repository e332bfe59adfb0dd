// A Graph prepared for repeated execution on the GPU. Each op runs as a CudaOp (cuDNN, cuBLAS or
// Tessera's kernels) where one computes it exactly; otherwise through the reference interpreter's
// kernel (evaluateNode) on downloaded inputs, its outputs uploaded again (Gather, Pad of edge or
// reflect mode, LayerNorm with a broadcast scale, ...), counted as interpreted. Every value has
// one device buffer, allocated once; views (Reshape, Flatten, Squeeze, Unsqueeze, Identity,
// Dropout) share their input's. Weights, and ops that depend on weights only, are computed once
// on the host here and uploaded (as the CPU's CompiledGraph and TASO precompute them).
#pragma once

#include "CudaOp.h"

#include "interp/Interpreter.h"
#include "ir/Graph.h"

#include <memory>
#include <optional>
#include <vector>

namespace tessera::cuda {

class DeviceGraph {
public:
  // Uploads the weights and picks each convolution's algorithm. Throws tessera::Error for an
  // opaque op, a graph that cannot be ordered, or a device failure (naming the node).
  DeviceGraph(CudaContext& context, const Graph& graph);

  // Uploads every Input by name; throws tessera::Error for a missing or mistyped one.
  void feed(const TensorMap& inputs);
  // Enqueues every op once (an interpreted op waits for the GPU). Throws tessera::Error naming the
  // node that failed.
  void execute();
  // Waits for the GPU and downloads the graph outputs.
  std::vector<Tensor> outputs();

  size_t gpuOps() const { return gpuOps_; }
  size_t interpretedOps() const { return interpretedOps_; }

private:
  struct Value {
    TensorType type;
    size_t buffer = kNoBuffer;     // index into buffers_, shared by views
    std::optional<Tensor> constant; // weights and what follows from them alone, kept on the host too
  };
  struct Step {
    NodeId node = 0;
    std::unique_ptr<CudaOp> op; // nullptr: interpreted
    std::vector<size_t> inputs;  // value indices
    std::vector<size_t> outputs; // value indices
  };
  static constexpr size_t kNoBuffer = static_cast<size_t>(-1);

  size_t valueOf(ValueRef ref) const { return valueIndex_[ref.node] + ref.port; }
  size_t newBuffer(const TensorType& type);
  void upload(size_t value, const Tensor& tensor);
  Tensor download(size_t value);
  float* deviceData(size_t value) const { return buffers_[values_[value].buffer].floats(); }
  void interpret(const Step& step);
  void run(Step& step);

  CudaContext& context_;
  const Graph& graph_;
  std::vector<size_t> valueIndex_; // first value of each node
  std::vector<Value> values_;
  std::vector<DeviceBuffer> buffers_;
  std::vector<Step> steps_;
  std::vector<std::pair<std::string, size_t>> inputs_; // Input name -> value
  size_t gpuOps_ = 0;
  size_t interpretedOps_ = 0;
};

} // namespace tessera::cuda
