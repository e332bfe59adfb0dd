// A Graph prepared for repeated execution on the GPU, over its ExecutionPlan (buffers, constants,
// steps). Each step runs as a CudaOp (cuDNN, cuBLAS or Tessera's kernels) where one computes it
// exactly; otherwise through the reference interpreter's kernel (evaluateNode) on downloaded
// inputs, its outputs uploaded again (Gather, Pad of edge or reflect mode, LayerNorm with a
// broadcast scale, ...), counted as interpreted. Every plan buffer of floats is one device buffer,
// allocated once; integer values (token ids, attention masks, Gather's indices) stay on the host,
// and the ops that read or write them are interpreted.
#pragma once

#include "CudaOp.h"

#include "interp/ExecutionPlan.h"

#include <memory>
#include <vector>

namespace tessera::cuda {

class DeviceGraph {
public:
  // Uploads the weights and picks each convolution's algorithm. Throws tessera::Error for an
  // opaque op, a graph that cannot be ordered, or a device failure (naming the node).
  DeviceGraph(CudaContext& context, const Graph& graph);

  // Uploads every float Input by name, keeps integer ones on the host; throws tessera::Error for a
  // missing or mistyped one.
  void feed(const TensorMap& inputs);
  // Enqueues every op once (an interpreted op waits for the GPU). Throws tessera::Error naming the
  // node that failed.
  void execute();
  // Waits for the GPU and downloads the graph outputs.
  std::vector<Tensor> outputs();

  size_t gpuOps() const { return gpuOps_; }
  size_t interpretedOps() const { return interpretedOps_; }

private:
  static constexpr size_t kNoBuffer = static_cast<size_t>(-1);

  float* deviceData(size_t value) const { return buffers_[deviceBuffer_[plan_.value(value).buffer]].floats(); }
  bool onDevice(size_t value) const { return deviceBuffer_[plan_.value(value).buffer] != kNoBuffer; }
  void upload(size_t value, const Tensor& tensor);
  Tensor download(size_t value);
  // A value's tensor wherever it lives: a constant, a device buffer, or a host buffer of integers.
  void store(size_t value, const Tensor& tensor);
  Tensor fetch(size_t value);
  void interpret(const ExecutionPlan::Step& step);
  void run(size_t step);

  CudaContext& context_;
  ExecutionPlan plan_;
  std::vector<size_t> deviceBuffer_;         // per plan buffer, its index in buffers_ (kNoBuffer: host only)
  std::vector<DeviceBuffer> buffers_;
  std::vector<Tensor> hostBuffers_;          // per plan buffer of integers that is no constant, its values
  std::vector<std::unique_ptr<CudaOp>> ops_; // per plan step; nullptr: interpreted
  size_t gpuOps_ = 0;
  size_t interpretedOps_ = 0;
};

} // namespace tessera::cuda
