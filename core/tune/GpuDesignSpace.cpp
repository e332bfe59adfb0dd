// The GPU design space's program and its checks.
#include "tune/GpuDesignSpace.h"

#include "tune/CodegenCuda.h"

namespace tessera::tune {

void GpuMultiLevelTilingSpace::build(Schedule& schedule) const {
  const Compute& compute = schedule.nest().compute;
  // S0 S1 S2 R0 R1 S3 R2 S4: spatial axes in five levels, reduction axes in three.
  const std::vector<std::vector<std::string>> levels = multiLevelTile(schedule, "SSSRRSRS", options_.maxInnermostFactor);
  schedule.bind(levels[0], LoopAnnotation::BlockIdx);
  schedule.bind(levels[1], LoopAnnotation::VThread);
  schedule.bind(levels[2], LoopAnnotation::ThreadIdx);
  // reuse_write "must", level 3, scope local: the accumulator right inside the thread level
  // (one choice, so the decision is forced).
  const int64_t spatial = compute.spatialAxes();
  schedule.cacheWrite(schedule.sampleCategorical({3 * spatial}));
  // AutoInline: the epilogue goes into the write-back.
  if (compute.bias || compute.relu) schedule.computeEpilogueAt(schedule.sampleCategorical({1}));
  // reuse_read "must", level 4, scope shared: both inputs below R0, each with its own
  // cooperative-fetch vector length.
  const int reduction = static_cast<int>(compute.axes.size()) - static_cast<int>(spatial);
  const int fetchAt = static_cast<int>(3 * spatial) + reduction;
  for (int buffer : {0, 1}) schedule.cacheReadShared(buffer, fetchAt, schedule.sampleCategorical(options_.vectorLoadLengths));
  schedule.unroll(schedule.sampleCategorical(options_.unrollMaxSteps));
}

Schedule GpuMultiLevelTilingSpace::sample(const Compute& compute, uint64_t seed) const {
  // More attempts than the CPU space: five-level tiles overrun the thread and register limits often.
  return sampleValid(compute, seed, 1024, [this](Schedule& schedule) { build(schedule); });
}

std::string GpuMultiLevelTilingSpace::reject(const LoopNest& nest) const {
  const int64_t threads = nest.boundExtent(LoopAnnotation::ThreadIdx);
  if (threads > options_.maxThreadsPerBlock)
    return std::to_string(threads) + " threads per block exceed " + std::to_string(options_.maxThreadsPerBlock);
  const int64_t vthreads = nest.boundExtent(LoopAnnotation::VThread);
  if (vthreads > options_.maxVThreads) return std::to_string(vthreads) + " virtual threads exceed " + std::to_string(options_.maxVThreads);
  int64_t sharedBytes = 0;
  for (const SharedRead& read : nest.sharedReads) sharedBytes += 4 * sharedTileElements(nest, read);
  if (sharedBytes > options_.maxSharedMemoryBytes)
    return std::to_string(sharedBytes) + " bytes of shared memory exceed " + std::to_string(options_.maxSharedMemoryBytes);
  const int64_t local = threadAccumulatorElements(nest);
  if (local > options_.maxThreadAccumulatorElements)
    return "a thread's accumulator of " + std::to_string(local) + " elements exceeds " +
           std::to_string(options_.maxThreadAccumulatorElements);
  return {};
}

} // namespace tessera::tune
