// ONNX Runtime as a measuring device: its cost-cache key and a roofline calibrated in it, for the
// few ops the profiler cannot time.
#pragma once

#include "OrtProfiler.h"

#include "cost/DeviceProfile.h"

#include <string>

namespace tessera::ort {

// How OrtProfiler prices an op, in the device key so that a cost cache never mixes figures of two
// ways of pricing: since revision 2 an op is timed without the NCHWc reorders of its one-op model.
inline constexpr const char* kOrtPricing = "pricing 2";

// "ort:onnxruntime <version> on <CPU model> (<N> threads, pricing <R>)": timings depend on all of
// them (", CPU time" after the threads when runs are timed by CPU time).
std::string ortDeviceKey(const std::string& version, const OrtInstall& install);

// Peak from a 512^3 MatMul, bandwidth from a ReLU over 16 MiB, overhead from a 16-element ReLU,
// all run in ONNX Runtime through `profiler`. Throws tessera::Error when the worker fails.
DeviceProfile calibrateOrtProfile(OrtProfiler& profiler);

} // namespace tessera::ort
