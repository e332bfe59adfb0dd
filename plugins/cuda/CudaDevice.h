// The GPU as a measuring device: whether it can be used (and why not), its name (the cost cache
// key) and a roofline for the ops the profiler cannot time. Only device 0 is used; pick another
// with CUDA_VISIBLE_DEVICES.
#pragma once

#include "cost/DeviceProfile.h"

#include <string>

namespace tessera::cuda {

// Empty when device 0 can run the plugin; otherwise why not: no driver (the runtime's own error),
// no device, compute capability below 8.0, or cuDNN / cuBLAS failing to start. Never throws.
std::string cudaUnavailableReason();

// "cuda:NVIDIA H200 (sm_90)". Throws tessera::Error without a device.
std::string cudaDeviceKey();

// major * 10 + minor of device 0 (90 for sm_90): what NVRTC compiles tuned kernels for. Throws
// tessera::Error without a device.
int cudaComputeCapability();

// The analytic profile of a GPU Tessera knows by name (H200, A100, V100); otherwise one built from
// the device's attributes: SMs x clock x FP32 lanes per SM x 2 (FMA) for the peak, and
// 2 (double data rate) x memory clock x bus width for the bandwidth. Throws without a device.
DeviceProfile cudaDeviceProfile();

} // namespace tessera::cuda
