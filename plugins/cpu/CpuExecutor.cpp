#include "CpuExecutor.h"

#include "CompiledGraph.h"
#include "CpuDevice.h"

#include "cost/PairedSpeedup.h"
#include "interp/TestData.h"
#include "support/Error.h"

#include <chrono>

namespace tessera::cpu {

CpuExecutor::CpuExecutor(std::string device, std::shared_ptr<TunedKernels> tuned)
    : device_(std::move(device)), tuned_(std::move(tuned)), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

std::vector<Tensor> CpuExecutor::run(const Graph& graph, const TensorMap& inputs) {
  useCpuThreads();
  CompiledGraph compiled(engine_, graph, tuned_);
  compiled.feed(inputs);
  compiled.execute(stream_);
  return compiled.outputs();
}

namespace {

class CpuTimedGraph final : public TimedGraph {
public:
  CpuTimedGraph(const dnnl::engine& engine, dnnl::stream& stream, const Graph& graph, std::shared_ptr<TunedKernels> tuned)
      : compiled_(engine, graph, std::move(tuned)), stream_(stream) {
    compiled_.feed(dummyInputs(graph));
  }

  double runMs() override {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    compiled_.execute(stream_);
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  }

private:
  CompiledGraph compiled_;
  dnnl::stream& stream_;
};

} // namespace

std::unique_ptr<TimedGraph> CpuExecutor::prepareTiming(const Graph& graph) {
  useCpuThreads();
  return std::make_unique<CpuTimedGraph>(engine_, stream_, graph, tuned_);
}

double CpuExecutor::measureLatencyMs(const Graph& graph, int warmup, int runs) {
  if (runs < 1) throw Error("measureLatencyMs needs at least one timed run, got " + std::to_string(runs));
  std::unique_ptr<TimedGraph> timed = prepareTiming(graph);
  for (int i = 0; i < warmup; ++i) timed->runMs();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(timed->runMs());
  return medianOf(std::move(times));
}

} // namespace tessera::cpu
