// The tuner's yardstick: oneDNN's primitive for a tuning workload, timed on a given number of
// threads. `tessera-cli tune` reports it as baseline_gflops; the explorer's tuning view draws it.
#pragma once

#include "tune/Workload.h"

#include <optional>
#include <string>

namespace tessera::tuning {

struct OneDnnBaseline {
  double latencyMs = 0;
  double gflops = 0;
  std::string what; // the oneDNN primitive and its implementation
};

// Times the workload as the op oneDNN runs: conv fuses bias and relu; matmul fuses relu, or takes
// the bias as a Gemm (whose relu oneDNN does not fuse here); a batched matmul's bias is left out.
// Runs on the calling thread, whose OpenMP team it sets to `threads`. nullopt with `why` when
// oneDNN cannot run the workload or this build has no oneDNN.
std::optional<OneDnnBaseline> measureOneDnnBaseline(const tune::Workload& workload, int threads, std::string& why);

} // namespace tessera::tuning
