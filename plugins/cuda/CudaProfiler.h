// measured:cuda — times op signatures on the GPU with TASO's method: each distinct signature
// lowered once onto cuDNN, cuBLAS or Tessera's kernels (CudaOp), a convolution with the fastest
// algorithm cudnnFindConvolutionForwardAlgorithmEx finds, then 8 warm-up and 32 timed runs
// between CUDA events (GpuTimer.h: the median of the per-run times).
#pragma once

#include "CudaOp.h"

#include "cost/OpProfiler.h"

#include <map>
#include <memory>

namespace tessera::cuda {

class CudaProfiler final : public OpProfiler {
public:
  // Throws tessera::Error when the device, cuDNN or cuBLAS cannot be set up.
  explicit CudaProfiler(std::string device);

  std::string device() const override { return device_; }
  // False for ops with no GPU path (Gather, Pad of edge/reflect mode, weight transforms, ...) and
  // for anything but float32: measured costs are float32 timings.
  bool canMeasure(const OpSignature& signature) override;
  double measureMs(const OpSignature& signature) override;

  static constexpr int kWarmupRuns = 8;
  static constexpr int kTimedRuns = 32;

private:
  std::string device_;
  CudaContext context_; // before lowered_: ops refer to it
  // Lowered by canMeasure, consumed by measureMs; nullptr records "cannot".
  std::map<std::string, std::unique_ptr<CudaOp>> lowered_;
};

} // namespace tessera::cuda
