// Timing on the GPU's own clock: CUDA events recorded on the stream around each run, TASO's method.
#pragma once

#include "CudaContext.h"

#include <functional>
#include <vector>

namespace tessera::cuda {

// Runs `once` `warmup` times untimed, then `runs` times each between two events, and returns the
// median of the per-run times in milliseconds. The median, not the mean: one run stretched by a
// clock ramp, a context switch or another process's kernel would drag a mean of 32 along, and
// the CPU plugin reports medians too, so costs from both backends mean the same thing. Events
// are read once after the last run, so the host never waits between runs. Throws tessera::Error.
double medianRunMs(CudaContext& context, int warmup, int runs, const std::function<void()>& once);

// The same on any stream, each timed run's milliseconds in the order they ran.
std::vector<double> timedRunsMs(cudaStream_t stream, int warmup, int runs, const std::function<void()>& once);
// The median of those times.
double medianMs(std::vector<double> times);

} // namespace tessera::cuda
