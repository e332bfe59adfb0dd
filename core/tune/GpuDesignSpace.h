// The GPU design space, MetaSchedule's CUDA defaults: multi-level tiling "SSSRRSRS" whose first
// three spatial levels are bound to blockIdx.x, vthread.x and threadIdx.x, a local (register)
// accumulator below the thread level, both inputs staged in shared memory below the first
// reduction level with a sampled cooperative-fetch vector length, the epilogue inlined into the
// write-back, and a sampled unroll depth. Its schedules lower with generateCuda().
#pragma once

#include "tune/DesignSpace.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::tune {

// TVM's cuda target limits and MetaSchedule's CUDA rule parameters; the plugin fills the first
// two from the device.
struct GpuSpaceOptions {
  int64_t maxThreadsPerBlock = 1024;
  int64_t maxSharedMemoryBytes = 48 * 1024; // static shared memory per block
  int64_t maxVThreads = 8;                  // TVM's verify_gpu_code default
  int64_t maxInnermostFactor = 64;
  std::vector<int64_t> vectorLoadLengths{1, 2, 3, 4, 8, 16};
  std::vector<int64_t> unrollMaxSteps{0, 16, 64, 512, 1024};
  // Tessera's limit: a thread's accumulator beyond this spills from registers to local memory.
  int64_t maxThreadAccumulatorElements = 128;
};

class GpuMultiLevelTilingSpace : public SpaceGenerator {
public:
  explicit GpuMultiLevelTilingSpace(GpuSpaceOptions options = {}) : options_(std::move(options)) {}
  std::string name() const override { return "cuda-sssrrsrs"; }
  Schedule sample(const Compute& compute, uint64_t seed) const override;
  // MetaSchedule's VerifyGPUCode: threads per block, virtual threads, shared memory, and the
  // accumulator's registers.
  std::string reject(const LoopNest& nest) const override;
  const GpuSpaceOptions& options() const { return options_; }

private:
  void build(Schedule& schedule) const;
  GpuSpaceOptions options_;
};

} // namespace tessera::tune
