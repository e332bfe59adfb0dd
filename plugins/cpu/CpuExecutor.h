// Whole-graph execution on the CPU (CompiledGraph, with the tuned kernels chosen) behind the
// plugin API's GraphExecutor.
#pragma once

#include "TunedKernels.h"

#include "cost/GraphExecutor.h"

#include <oneapi/dnnl/dnnl.hpp>

namespace tessera::cpu {

class CpuExecutor final : public GraphExecutor {
public:
  // `tuned` may be null (oneDNN and the interpreter only).
  explicit CpuExecutor(std::string device, std::shared_ptr<TunedKernels> tuned = nullptr);

  std::string device() const override { return device_; }
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override;
  double measureLatencyMs(const Graph& graph, int warmup, int runs) override;
  // The graph compiled once (oneDNN primitives, weights) and fed dummy inputs; each run is timed
  // by the wall clock, as measureLatencyMs times them.
  std::unique_ptr<TimedGraph> prepareTiming(const Graph& graph) override;

private:
  std::string device_;
  std::shared_ptr<TunedKernels> tuned_;
  dnnl::engine engine_;
  dnnl::stream stream_;
};

} // namespace tessera::cpu
