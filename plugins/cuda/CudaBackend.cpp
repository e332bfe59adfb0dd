#include "CudaBackend.h"

#include "CudaDevice.h"
#include "CudaExecutor.h"
#include "CudaKernelRunner.h"
#include "CudaProfiler.h"
#include "NvrtcCompiler.h"

#include "support/Error.h"

#include <cudnn.h>

namespace tessera::cuda {

std::string CudaBackend::description() const {
  const size_t version = cudnnGetVersion(); // major * 10000 + minor * 100 + patch since cuDNN 9
  return "cuDNN " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." + std::to_string(version % 100) +
         " and cuBLAS op profiler and graph executor on an NVIDIA GPU";
}

std::string CudaBackend::unavailableReason() {
  std::call_once(probed_, [this] { unavailable_ = cudaUnavailableReason(); });
  return unavailable_;
}

std::string CudaBackend::device() { return cudaDeviceKey(); }

std::optional<DeviceProfile> CudaBackend::fallbackProfile() {
  try {
    return cudaDeviceProfile();
  } catch (const Error&) {
    return std::nullopt; // the host falls back to its default roofline
  }
}

std::unique_ptr<OpProfiler> CudaBackend::makeProfiler() {
  try {
    return std::make_unique<CudaProfiler>(cudaDeviceKey());
  } catch (const Error& e) {
    throw Error(std::string("measured:cuda: the GPU failed to start: ") + e.what());
  }
}

std::unique_ptr<GraphExecutor> CudaBackend::makeExecutor() {
  try {
    return std::make_unique<CudaExecutor>(cudaDeviceKey());
  } catch (const Error& e) {
    throw Error(std::string("cuda executor: the GPU failed to start: ") + e.what());
  }
}

std::string CudaBackend::tuningTarget() { return cudaDeviceKey(); }

tune::GpuSpaceOptions CudaBackend::spaceOptions() {
  tune::GpuSpaceOptions options;
  int threads = 0, sharedBytes = 0;
  TESSERA_CUDA_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, 0));
  // Static shared memory: what a kernel without an opt-in attribute may declare.
  TESSERA_CUDA_CHECK(cudaDeviceGetAttribute(&sharedBytes, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  options.maxThreadsPerBlock = threads;
  options.maxSharedMemoryBytes = sharedBytes;
  return options;
}

std::unique_ptr<tune::Builder> CudaBackend::makeKernelBuilder() { return std::make_unique<NvrtcBuilder>(cudaComputeCapability()); }

std::unique_ptr<tune::Runner> CudaBackend::makeKernelRunner(const tune::Problem& problem) {
  return std::make_unique<CudaKernelRunner>(problem);
}

} // namespace tessera::cuda
