#include "CpuExecutor.h"

#include "CompiledGraph.h"
#include "CpuDevice.h"

#include "interp/TestData.h"
#include "support/Error.h"

#include <algorithm>
#include <chrono>

namespace tessera::cpu {

CpuExecutor::CpuExecutor(std::string device) : device_(std::move(device)), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {}

std::vector<Tensor> CpuExecutor::run(const Graph& graph, const TensorMap& inputs) {
  useCpuThreads();
  CompiledGraph compiled(engine_, graph);
  compiled.feed(inputs);
  compiled.execute(stream_);
  return compiled.outputs();
}

double CpuExecutor::measureLatencyMs(const Graph& graph, int warmup, int runs) {
  if (runs < 1) throw Error("measureLatencyMs needs at least one timed run, got " + std::to_string(runs));
  useCpuThreads();
  CompiledGraph compiled(engine_, graph);
  compiled.feed(dummyInputs(graph));
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup; ++i) compiled.execute(stream_);
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    compiled.execute(stream_);
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

} // namespace tessera::cpu
