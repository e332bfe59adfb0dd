#include "CudaKernelRunner.h"

#include "CudaDriver.h"
#include "GpuTimer.h"

#include "support/Error.h"
#include "tune/CodegenCuda.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

namespace tessera::cuda {

namespace {

class Module {
public:
  explicit Module(const std::string& ptx) { checkDriver(cudaDriver().moduleLoadData(&module_, ptx.c_str()), "cuModuleLoadData"); }
  ~Module() {
    if (module_) (void)cudaDriver().moduleUnload(module_);
  }
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  CUmodule get() const { return module_; }

private:
  CUmodule module_ = nullptr;
};

tune::RunResult failure(tune::TrialStatus status, std::string error) {
  tune::RunResult result;
  result.status = status;
  result.error = std::move(error);
  return result;
}

} // namespace

CudaKernelRunner::CudaKernelRunner(const tune::Problem& problem, KernelRunOptions options) : problem_(problem), options_(options) {
  TESSERA_CUDA_CHECK(cudaSetDevice(0));
  TESSERA_CUDA_CHECK(cudaFree(nullptr)); // the primary context, current for the driver calls too
  (void)cudaDriver();
  stream_ = makeStream();
  for (const std::vector<float>& input : problem_.inputs) {
    inputs_.emplace_back(input.size() * sizeof(float));
    TESSERA_CUDA_CHECK(cudaMemcpy(inputs_.back().data(), input.data(), input.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  output_ = DeviceBuffer(problem_.expected.size() * sizeof(float));
}

tune::RunResult CudaKernelRunner::run(const std::string& library) {
  std::ifstream in(library, std::ios::binary);
  const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in || ptx.empty()) return failure(tune::TrialStatus::RuntimeError, "cannot read the PTX file " + library);
  try {
    const Module module(ptx);
    CUfunction function = nullptr;
    checkDriver(cudaDriver().moduleGetFunction(&function, module.get(), tune::kCudaKernelSymbol), "cuModuleGetFunction");
    CUdeviceptr launchAddress = 0;
    size_t launchBytes = 0;
    checkDriver(cudaDriver().moduleGetGlobal(&launchAddress, &launchBytes, module.get(), tune::kCudaLaunchSymbol), "cuModuleGetGlobal");
    unsigned int launch[2] = {0, 0};
    if (launchBytes != sizeof launch) throw Error(std::string(tune::kCudaLaunchSymbol) + " is not two unsigned ints");
    TESSERA_CUDA_CHECK(cudaMemcpy(launch, reinterpret_cast<const void*>(launchAddress), sizeof launch, cudaMemcpyDeviceToHost));

    std::vector<const void*> pointers;
    for (const DeviceBuffer& input : inputs_) pointers.push_back(input.data());
    void* out = output_.data();
    std::vector<void*> arguments;
    for (const void*& pointer : pointers) arguments.push_back(&pointer);
    arguments.push_back(&out);
    auto once = [&] {
      checkDriver(cudaDriver().launchKernel(function, launch[0], 1, 1, launch[1], 1, 1, 0, stream_, arguments.data(), nullptr),
                  "cuLaunchKernel");
    };

    // All bits set is a NaN: an element the kernel never writes fails the check.
    TESSERA_CUDA_CHECK(cudaMemsetAsync(out, 0xFF, output_.bytes(), stream_));
    once();
    if (cudaError_t status = cudaStreamSynchronize(stream_); status != cudaSuccess)
      return failure(tune::TrialStatus::Crashed, std::string("the kernel failed: ") + cudaGetErrorString(status));
    std::vector<float> got(problem_.expected.size());
    TESSERA_CUDA_CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double maxError = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double want = problem_.expected[i], error = std::fabs(static_cast<double>(got[i]) - want);
      if (!(error <= problem_.atol + problem_.rtol * std::fabs(want))) {
        tune::RunResult wrong = failure(tune::TrialStatus::WrongResult, "element " + std::to_string(i) + " is " +
                                                                            std::to_string(got[i]) + ", expected " + std::to_string(want));
        wrong.maxAbsError = std::isnan(error) ? INFINITY : error;
        return wrong;
      }
      maxError = std::max(maxError, error);
    }

    tune::RunResult result;
    result.status = tune::TrialStatus::Ok;
    result.maxAbsError = maxError;
    result.runMs = timedRunsMs(stream_, options_.warmup, options_.repeats, once);
    result.medianMs = medianMs(result.runMs);
    return result;
  } catch (const Error& e) {
    return failure(tune::TrialStatus::RuntimeError, e.what());
  }
}

} // namespace tessera::cuda
