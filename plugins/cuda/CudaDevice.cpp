#include "CudaDevice.h"

#include "CudaContext.h"

#include "support/Error.h"

#include <cctype>
#include <exception>

namespace tessera::cuda {

namespace {

struct DeviceFacts {
  std::string name;
  int major = 0, minor = 0;
  int multiprocessors = 0;
  int clockKHz = 0, memoryClockKHz = 0, busWidthBits = 0;
};

int attribute(cudaDeviceAttr which, const char* what) {
  int value = 0;
  check(cudaDeviceGetAttribute(&value, which, 0), what);
  return value;
}

DeviceFacts deviceFacts() {
  cudaDeviceProp properties{};
  TESSERA_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  DeviceFacts facts;
  facts.name = properties.name;
  facts.major = properties.major;
  facts.minor = properties.minor;
  facts.multiprocessors = properties.multiProcessorCount;
  // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes remain.
  facts.clockKHz = attribute(cudaDevAttrClockRate, "cudaDeviceGetAttribute(cudaDevAttrClockRate)");
  facts.memoryClockKHz = attribute(cudaDevAttrMemoryClockRate, "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)");
  facts.busWidthBits = properties.memoryBusWidth;
  return facts;
}

std::string smName(const DeviceFacts& facts) { return "sm_" + std::to_string(facts.major) + std::to_string(facts.minor); }

// FP32 lanes per SM: 64 on GA100 (sm_80), 128 on the other Ampere parts, Ada and Hopper.
int fp32LanesPerSm(const DeviceFacts& facts) { return facts.major == 8 && facts.minor == 0 ? 64 : 128; }

} // namespace

std::string cudaUnavailableReason() {
  try {
    int count = 0;
    if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
      (void)cudaGetLastError();
      return status == cudaErrorNoDevice ? std::string("no CUDA device (") + cudaGetErrorString(status) + ")"
                                         : std::string("no usable NVIDIA driver: ") + cudaGetErrorString(status);
    }
    if (count == 0) return "no CUDA device";
    const DeviceFacts facts = deviceFacts();
    if (facts.major < 8)
      return facts.name + " has compute capability " + std::to_string(facts.major) + "." + std::to_string(facts.minor) +
             "; the cuda plugin needs 8.0 or newer (built for sm_80 and sm_90)";
    CudaContext probe; // cuDNN and cuBLAS must start too
    return {};
  } catch (const std::exception& e) {
    return std::string("the GPU cannot be used: ") + e.what();
  }
}

std::string cudaDeviceKey() {
  const DeviceFacts facts = deviceFacts();
  return "cuda:" + facts.name + " (" + smName(facts) + ")";
}

int cudaComputeCapability() {
  const DeviceFacts facts = deviceFacts();
  return facts.major * 10 + facts.minor;
}

DeviceProfile cudaDeviceProfile() {
  const DeviceFacts facts = deviceFacts();
  for (const char* known : {"H200", "A100", "V100"}) {
    if (facts.name.find(known) == std::string::npos) continue;
    std::string key(known);
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (const DeviceProfile* profile = findDeviceProfile(key)) return *profile;
  }
  DeviceProfile profile = *findDeviceProfile("h200"); // launch overhead and efficiencies of cuDNN-class kernels
  profile.name = "cuda-" + smName(facts);
  profile.description = facts.name + " (" + smName(facts) + "), from its attributes: " + std::to_string(facts.multiprocessors) + " SMs";
  profile.peakGflops = static_cast<double>(facts.multiprocessors) * facts.clockKHz * 1e-6 * fp32LanesPerSm(facts) * 2.0;
  profile.bandwidthGBs = 2.0 * facts.memoryClockKHz * 1e3 * (facts.busWidthBits / 8.0) / 1e9;
  if (profile.peakGflops <= 0 || profile.bandwidthGBs <= 0) throw Error(facts.name + " reports no clock rates; no roofline for it");
  return profile;
}

} // namespace tessera::cuda
