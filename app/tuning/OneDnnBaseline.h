// The tuner's yardstick: the library's op for a tuning workload (oneDNN's primitive, timed here on a
// given number of threads; cuBLAS/cuDNN through the cuda plugin's profiler for `tune --target cuda`).
// `tessera-cli tune` reports it as baseline_gflops; the explorer's tuning view draws it.
#pragma once

#include "cost/OpSignature.h"
#include "tune/Workload.h"

#include <optional>
#include <string>

namespace tessera::tuning {

struct LibraryBaseline {
  double latencyMs = 0;
  double gflops = 0;
  std::string what; // the library's op (and, for oneDNN, its implementation)
};

// The workload as the op a library runs: conv fuses bias and relu; matmul fuses relu, or takes the
// bias as a Gemm (whose relu oneDNN does not fuse here); a batched matmul's bias is left out.
OpSignature baselineSignature(const tune::Workload& workload);

// Times baselineSignature(workload) in oneDNN, flushing its operands from the caches before each
// run where `flushCaches` (as the tuner's runner then does). Runs on the calling thread, whose
// OpenMP team it sets to `threads`. nullopt with `why` when oneDNN cannot run the workload or this
// build has no oneDNN.
std::optional<LibraryBaseline> measureOneDnnBaseline(const tune::Workload& workload, int threads, bool flushCaches,
                                                     std::string& why);

} // namespace tessera::tuning
