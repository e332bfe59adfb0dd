// Whole-graph execution on the GPU (DeviceGraph) behind the plugin API's GraphExecutor.
#pragma once

#include "CudaContext.h"

#include "cost/GraphExecutor.h"

namespace tessera::cuda {

class CudaExecutor final : public GraphExecutor {
public:
  // Throws tessera::Error when the device, cuDNN or cuBLAS cannot be set up.
  explicit CudaExecutor(std::string device);

  std::string device() const override { return device_; }
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override;
  // The median of `runs` whole-graph executions, each between two CUDA events, after `warmup`
  // untimed ones, on dummy inputs; weights are uploaded and convolution algorithms chosen first.
  double measureLatencyMs(const Graph& graph, int warmup, int runs) override;
  // Uploaded and set up once; each run is timed between two CUDA events.
  std::unique_ptr<TimedGraph> prepareTiming(const Graph& graph) override;

private:
  std::string device_;
  CudaContext context_;
};

} // namespace tessera::cuda
