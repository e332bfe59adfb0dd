// The tuner's runner on the GPU (MetaSchedule's runner for the cuda target): loads a candidate's
// PTX with cuModuleLoadData, launches its kernel with the geometry the module carries, checks the
// output against the reference on the problem's random inputs, then times it between CUDA events
// after warm-up. The inputs stay on the device across candidates. Runs in-process: a kernel that
// faults leaves the CUDA context unusable, so the trials after it fail too (the generated kernels
// index within their buffers by construction).
#pragma once

#include "CudaHandles.h"

#include "tune/Reference.h"
#include "tune/Runner.h"

#include <vector>

namespace tessera::cuda {

struct KernelRunOptions {
  int warmup = 8;  // TASO's, as the profiler
  int repeats = 32;
};

class CudaKernelRunner final : public tune::Runner {
public:
  // Uploads the problem's inputs to device 0. Throws tessera::Error without a usable device.
  explicit CudaKernelRunner(const tune::Problem& problem, KernelRunOptions options = {});
  // `library`: a PTX file from NvrtcBuilder.
  tune::RunResult run(const std::string& library) override;

private:
  tune::Problem problem_;
  KernelRunOptions options_;
  Stream stream_;
  std::vector<DeviceBuffer> inputs_;
  DeviceBuffer output_;
};

} // namespace tessera::cuda
