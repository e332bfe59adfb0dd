#include "GpuTimer.h"

#include "support/Error.h"

#include <algorithm>
#include <vector>

namespace tessera::cuda {

double medianRunMs(CudaContext& context, int warmup, int runs, const std::function<void()>& once) {
  return medianMs(timedRunsMs(context.stream(), warmup, runs, once));
}

std::vector<double> timedRunsMs(cudaStream_t stream, int warmup, int runs, const std::function<void()>& once) {
  if (runs < 1) throw Error("timing needs at least one timed run, got " + std::to_string(runs));
  for (int i = 0; i < warmup; ++i) once();
  // Run i lies between events i and i + 1: back to back, so no gap between runs goes untimed or
  // is counted twice.
  std::vector<Event> events;
  for (int i = 0; i <= runs; ++i) events.push_back(makeEvent());
  TESSERA_CUDA_CHECK(cudaEventRecord(events[0], stream));
  for (int i = 0; i < runs; ++i) {
    once();
    TESSERA_CUDA_CHECK(cudaEventRecord(events[static_cast<size_t>(i) + 1], stream));
  }
  TESSERA_CUDA_CHECK(cudaEventSynchronize(events.back()));
  std::vector<double> times;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    float ms = 0;
    TESSERA_CUDA_CHECK(cudaEventElapsedTime(&ms, events[i], events[i + 1]));
    times.push_back(ms);
  }
  return times;
}

double medianMs(std::vector<double> times) {
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  return n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
}

} // namespace tessera::cuda
