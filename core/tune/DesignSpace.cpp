// The CPU design space: SSRSRS tiling, cache-write at tiling level 1 or 2 (or none), epilogue
// fused or at the root, a register tile (or none), then parallel, vectorize and a sampled unroll
// depth.
#include "tune/DesignSpace.h"

#include "support/Error.h"

namespace tessera::tune {

void MultiLevelTilingSpace::build(Schedule& schedule) const {
  const Compute& compute = schedule.nest().compute;
  // S0 S1 R0 S2 R1 S3: spatial axes in four levels, reduction axes in two.
  std::vector<std::vector<std::string>> levels(6);
  const int spatialLevels[] = {0, 1, 3, 5}, reductionLevels[] = {2, 4};
  for (const Axis& axis : compute.axes) {
    const int parts = axis.reduction ? 2 : 4;
    std::string tile = schedule.samplePerfectTile(axis.name, parts, options_.maxInnermostFactor);
    std::vector<std::string> loops = schedule.split(axis.name, tile);
    for (int p = 0; p < parts; ++p) levels[axis.reduction ? reductionLevels[p] : spatialLevels[p]].push_back(loops[p]);
  }
  std::vector<std::string> order;
  for (const auto& level : levels) order.insert(order.end(), level.begin(), level.end());
  schedule.reorder(order);
  // The accumulator sits below tiling level 1 or 2 (MetaSchedule's fusion levels), or is absent.
  const int64_t spatial = compute.spatialAxes();
  schedule.cacheWrite(schedule.sampleCategorical({-1, spatial, 2 * spatial}));
  if (compute.bias || compute.relu) schedule.computeEpilogueAt(schedule.sampleCategorical({0, 1}));
  // Tessera's addition: the innermost spatial tile (S3) accumulated in a register tile across
  // the inner reduction level (R1), which the compiler keeps in vector registers.
  const int64_t reduction = static_cast<int64_t>(compute.axes.size()) - spatial;
  schedule.registerTile(schedule.sampleCategorical({-1, 3 * spatial + reduction}));
  schedule.parallel(options_.threads * options_.maxJobsPerCore);
  schedule.vectorize(options_.maxVectorizeExtent);
  schedule.unroll(schedule.sampleCategorical(options_.unrollMaxSteps));
}

Schedule MultiLevelTilingSpace::sample(const Compute& compute, uint64_t seed) const {
  std::string why;
  for (uint64_t attempt = 0; attempt < 256; ++attempt) {
    Schedule schedule(compute, seed + attempt * 0x9e3779b97f4a7c15ULL);
    build(schedule);
    why = reject(schedule.nest());
    if (why.empty()) return schedule;
  }
  throw Error("design space " + name() + ": no valid schedule for " + compute.workload.key() + " (" + why + ")");
}

std::string MultiLevelTilingSpace::reject(const LoopNest& nest) const {
  if (nest.accumulatorElements() > options_.maxAccumulatorElements)
    return "accumulator of " + std::to_string(nest.accumulatorElements()) + " elements exceeds " +
           std::to_string(options_.maxAccumulatorElements);
  if (nest.registerTileElements() > options_.maxRegisterTileElements)
    return "register tile of " + std::to_string(nest.registerTileElements()) + " elements exceeds " +
           std::to_string(options_.maxRegisterTileElements);
  return {};
}

} // namespace tessera::tune
