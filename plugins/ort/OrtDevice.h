// ONNX Runtime as a measuring device: its cost-cache key and a roofline calibrated in it, for the
// few ops the profiler cannot time.
#pragma once

#include "OrtProfiler.h"

#include "cost/DeviceProfile.h"

#include <string>

namespace tessera::ort {

// "ort:onnxruntime <version> on <CPU model> (<N> threads)": timings depend on all three
// (", CPU time" inside the parentheses when runs are timed by CPU time).
std::string ortDeviceKey(const std::string& version, const OrtInstall& install);

// Peak from a 512^3 MatMul, bandwidth from a ReLU over 16 MiB, overhead from a 16-element ReLU,
// all run in ONNX Runtime through `profiler`. Throws tessera::Error when the worker fails.
DeviceProfile calibrateOrtProfile(OrtProfiler& profiler);

} // namespace tessera::ort
