// The CPU design space: SSRSRS tiling, cache-write at tiling level 1 or 2 (or none), epilogue
// fused or at the root, a register tile (or none), then parallel, vectorize and a sampled unroll
// depth.
#include "tune/DesignSpace.h"

#include "support/Error.h"

namespace tessera::tune {

std::vector<std::vector<std::string>> multiLevelTile(Schedule& schedule, std::string_view structure, int64_t maxInnermostFactor) {
  const Compute& compute = schedule.nest().compute;
  std::vector<std::vector<std::string>> levels(structure.size());
  std::vector<int> spatialLevels, reductionLevels;
  for (size_t level = 0; level < structure.size(); ++level) {
    if (structure[level] != 'S' && structure[level] != 'R') throw Error("tiling structure '" + std::string(structure) + "': not S or R");
    (structure[level] == 'S' ? spatialLevels : reductionLevels).push_back(static_cast<int>(level));
  }
  for (const Axis& axis : compute.axes) {
    const std::vector<int>& axisLevels = axis.reduction ? reductionLevels : spatialLevels;
    const int parts = static_cast<int>(axisLevels.size());
    std::string tile = schedule.samplePerfectTile(axis.name, parts, maxInnermostFactor);
    std::vector<std::string> loops = schedule.split(axis.name, tile);
    for (int p = 0; p < parts; ++p) levels[axisLevels[p]].push_back(loops[p]);
  }
  std::vector<std::string> order;
  for (const auto& level : levels) order.insert(order.end(), level.begin(), level.end());
  schedule.reorder(order);
  return levels;
}

void MultiLevelTilingSpace::build(Schedule& schedule) const {
  const Compute& compute = schedule.nest().compute;
  // S0 S1 R0 S2 R1 S3: spatial axes in four levels, reduction axes in two.
  multiLevelTile(schedule, "SSRSRS", options_.maxInnermostFactor);
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
  schedule.unroll(schedule.sampleCategorical(options_.unrollMaxSteps), options_.vectorLanes);
}

Schedule SpaceGenerator::sampleValid(const Compute& compute, uint64_t seed, int attempts,
                                     const std::function<void(Schedule&)>& build) const {
  std::string why;
  for (uint64_t attempt = 0; attempt < static_cast<uint64_t>(attempts); ++attempt) {
    Schedule schedule(compute, seed + attempt * 0x9e3779b97f4a7c15ULL);
    build(schedule);
    why = reject(schedule.nest());
    if (why.empty()) return schedule;
  }
  throw Error("design space " + name() + ": no valid schedule for " + compute.workload.key() + " (" + why + ")");
}

Schedule MultiLevelTilingSpace::sample(const Compute& compute, uint64_t seed) const {
  return sampleValid(compute, seed, 256, [this](Schedule& schedule) { build(schedule); });
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
