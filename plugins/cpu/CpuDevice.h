// The CPU as a measuring device: its name (the cost cache key) and a roofline calibrated on it,
// for the few ops oneDNN cannot time.
#pragma once

#include "cost/DeviceProfile.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <string>

namespace tessera::cpu {

// "cpu:<model name from /proc/cpuinfo> (<N> threads)": timings depend on both.
std::string cpuDeviceKey();

// Peak from a 512^3 GEMM, bandwidth from a 64 MiB ReLU, overhead from a 16-element ReLU, all
// through oneDNN on `engine` (about a second on a small machine).
DeviceProfile calibrateCpuProfile(const dnnl::engine& engine);

} // namespace tessera::cpu
