#include "CudaExecutor.h"

#include "DeviceGraph.h"
#include "GpuTimer.h"

#include "interp/TestData.h"
#include "support/Error.h"

namespace tessera::cuda {

CudaExecutor::CudaExecutor(std::string device) : device_(std::move(device)) {}

std::vector<Tensor> CudaExecutor::run(const Graph& graph, const TensorMap& inputs) {
  DeviceGraph compiled(context_, graph);
  compiled.feed(inputs);
  compiled.execute();
  return compiled.outputs();
}

double CudaExecutor::measureLatencyMs(const Graph& graph, int warmup, int runs) {
  if (runs < 1) throw Error("measureLatencyMs needs at least one timed run, got " + std::to_string(runs));
  DeviceGraph compiled(context_, graph);
  compiled.feed(dummyInputs(graph));
  return medianRunMs(context_, warmup, runs, [&] { compiled.execute(); });
}

namespace {

class CudaTimedGraph final : public TimedGraph {
public:
  CudaTimedGraph(CudaContext& context, const Graph& graph) : context_(context), compiled_(context, graph) {
    compiled_.feed(dummyInputs(graph));
  }
  double runMs() override { return medianRunMs(context_, 0, 1, [&] { compiled_.execute(); }); }

private:
  CudaContext& context_;
  DeviceGraph compiled_;
};

} // namespace

std::unique_ptr<TimedGraph> CudaExecutor::prepareTiming(const Graph& graph) { return std::make_unique<CudaTimedGraph>(context_, graph); }

} // namespace tessera::cuda
