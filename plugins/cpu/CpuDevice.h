// The CPU as a measuring device: its name (the cost cache key) and a roofline calibrated on it,
// for the few ops oneDNN cannot time.
#pragma once

#include "cost/DeviceProfile.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <string>

namespace tessera::cpu {

// How many threads oneDNN's OpenMP team gets: OMP_NUM_THREADS when set, otherwise all cores; the
// device key names it. Never the load of the moment: a busy machine measures slowly (a 2-thread
// conv beside another process can run 8x slower than alone), but under the same key a quiet run
// would otherwise miss what a busy one stored. Measure on a quiet machine, or set
// OMP_NUM_THREADS=1 beside other work. Decided once per process.
int cpuThreads();
// Applies cpuThreads() to the calling thread's OpenMP team; call before running primitives.
void useCpuThreads();

// "cpu:<hostCpuName()> (<N> threads, executor timings on huge pages, operands from memory)":
// timings depend on both, and on the method (ops timed as the executor runs them, on huge pages
// where the kernel gives them (HugePages.h), their operands flushed from the caches first; earlier
// caches timed them otherwise).
std::string cpuDeviceKey();

// Peak from a 512^3 GEMM, bandwidth from a 64 MiB ReLU, overhead from a 16-element ReLU, all
// through oneDNN on `engine` (about a second on a small machine).
DeviceProfile calibrateCpuProfile(const dnnl::engine& engine);

} // namespace tessera::cpu
