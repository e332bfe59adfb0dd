// The few CUDA driver API calls the kernel runner needs (loading a PTX module, launching its
// kernel), reached through the runtime's cudaGetDriverEntryPointByVersion: the plugin links no
// libcuda, so it still loads on a machine without an NVIDIA driver and says why it cannot run.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace tessera::cuda {

struct CudaDriver {
  PFN_cuModuleLoadData_v2000 moduleLoadData = nullptr;
  PFN_cuModuleUnload_v2000 moduleUnload = nullptr;
  PFN_cuModuleGetFunction_v2000 moduleGetFunction = nullptr;
  PFN_cuModuleGetGlobal_v3020 moduleGetGlobal = nullptr;
  PFN_cuLaunchKernel_v4000 launchKernel = nullptr;
  PFN_cuGetErrorString_v6000 getErrorString = nullptr;
};

// Resolved once. Throws tessera::Error naming the symbol the driver does not provide.
const CudaDriver& cudaDriver();

// Throw tessera::Error("<call>: <the driver's error string>") unless the status is CUDA_SUCCESS.
void checkDriver(CUresult status, const char* call);

} // namespace tessera::cuda
