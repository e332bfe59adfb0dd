// Design spaces (MetaSchedule's space generators): a program of sampling instructions and
// primitives whose runs are the candidate schedules. The CPU space is multi-level tiling
// "SSRSRS" with a cache-write and the parallel-vectorize-unroll annotations.
#pragma once

#include "tune/Schedule.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::tune {

// MetaSchedule's CPU defaults (llvm target), with the parallelism of this machine.
struct CpuSpaceOptions {
  int threads = 2;
  int64_t maxJobsPerCore = 16;
  int64_t maxVectorizeExtent = 64;
  int64_t maxInnermostFactor = 64;
  std::vector<int64_t> unrollMaxSteps{0, 16, 64, 512};
  // Floats in one AVX2 vector: how the unroll bound counts a vectorised loop (tune::unroll).
  int64_t vectorLanes = 8;
  // A larger accumulator tile lives on a thread's stack and spills out of L2: rejected.
  int64_t maxAccumulatorElements = 32768;
  // A register tile beyond 32 AVX-512 registers spills.
  int64_t maxRegisterTileElements = 512;
};

class SpaceGenerator {
public:
  virtual ~SpaceGenerator() = default;
  virtual std::string name() const = 0;
  // One schedule of the space, its decisions drawn with `seed`; a schedule the space's checks
  // reject is redrawn. Throws tessera::Error when no valid schedule is found.
  virtual Schedule sample(const Compute& compute, uint64_t seed) const = 0;
  // Why a replayed schedule is not in the space (empty when it is): the checks MetaSchedule's
  // post-processors make, applied to sampled and mutated schedules alike.
  virtual std::string reject(const LoopNest& nest) const = 0;

protected:
  // Runs the space's program `build` on fresh schedules, their seeds derived from `seed`, until
  // one passes reject(); after `attempts` throws tessera::Error with the last reason.
  Schedule sampleValid(const Compute& compute, uint64_t seed, int attempts, const std::function<void(Schedule&)>& build) const;
};

// MetaSchedule's multi-level tiling: each axis split into as many loops as `structure` ("SSRSRS")
// has levels of its kind (S spatial, R reduction), their tiles sampled, and the loops reordered
// level by level. Returns each level's loops (axes in the compute's order). Throws tessera::Error
// for a structure with other letters.
std::vector<std::vector<std::string>> multiLevelTile(Schedule& schedule, std::string_view structure, int64_t maxInnermostFactor);

class MultiLevelTilingSpace : public SpaceGenerator {
public:
  explicit MultiLevelTilingSpace(CpuSpaceOptions options = {}) : options_(std::move(options)) {}
  std::string name() const override { return "cpu-ssrsrs"; }
  Schedule sample(const Compute& compute, uint64_t seed) const override;
  std::string reject(const LoopNest& nest) const override;
  const CpuSpaceOptions& options() const { return options_; }

private:
  // The space's program, run on a fresh schedule.
  void build(Schedule& schedule) const;
  CpuSpaceOptions options_;
};

} // namespace tessera::tune
