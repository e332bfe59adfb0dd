#include "CudaDriver.h"

#include "CudaHandles.h"

#include "support/Error.h"

namespace tessera::cuda {

namespace {

// The ABI of CUDA 12.0: every symbol below has had this signature since long before.
constexpr unsigned int kDriverAbi = 12000;

template <class Function> void resolve(Function& function, const char* symbol) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult found{};
  check(cudaGetDriverEntryPointByVersion(symbol, &address, kDriverAbi, cudaEnableDefault, &found),
        "cudaGetDriverEntryPointByVersion");
  if (found != cudaDriverEntryPointSuccess || !address) throw Error(std::string("the CUDA driver does not provide ") + symbol);
  function = reinterpret_cast<Function>(address);
}

CudaDriver load() {
  CudaDriver driver;
  resolve(driver.moduleLoadData, "cuModuleLoadData");
  resolve(driver.moduleUnload, "cuModuleUnload");
  resolve(driver.moduleGetFunction, "cuModuleGetFunction");
  resolve(driver.moduleGetGlobal, "cuModuleGetGlobal");
  resolve(driver.launchKernel, "cuLaunchKernel");
  resolve(driver.getErrorString, "cuGetErrorString");
  return driver;
}

} // namespace

const CudaDriver& cudaDriver() {
  static const CudaDriver driver = load();
  return driver;
}

void checkDriver(CUresult status, const char* call) {
  if (status == CUDA_SUCCESS) return;
  const char* text = nullptr;
  if (cudaDriver().getErrorString(status, &text) != CUDA_SUCCESS || !text) text = "unknown driver error";
  throw Error(std::string(call) + ": " + text + " (" + std::to_string(static_cast<int>(status)) + ")");
}

} // namespace tessera::cuda
