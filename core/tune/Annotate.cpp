// parallel, vectorize and unroll annotations (MetaSchedule's parallel-vectorize-unroll rule).
#include "tune/Primitives.h"

#include <algorithm>

namespace tessera::tune {

namespace {

bool isSpatial(const LoopNest& nest, const Loop& loop) { return !nest.compute.axes[loop.axis].reduction; }

} // namespace

void parallelize(LoopNest& nest, int64_t maxExtent) {
  for (Loop& loop : nest.loops)
    if (loop.annotation == LoopAnnotation::Parallel) loop.annotation = LoopAnnotation::Serial;
  // Collapsed loops must be perfectly nested, so they stop at the accumulator.
  int limit = nest.cacheWriteAt < 0 ? static_cast<int>(nest.loops.size()) - 1 : nest.cacheWriteAt;
  if (nest.registerTileAt >= 0) limit = std::min(limit, nest.registerTileAt);
  int64_t product = 1;
  for (int i = 0; i < limit; ++i) {
    Loop& loop = nest.loops[i];
    if (!isSpatial(nest, loop) || loop.annotation != LoopAnnotation::Serial) break;
    if (i > 0 && product * loop.extent > maxExtent) break;
    loop.annotation = LoopAnnotation::Parallel;
    product *= loop.extent;
  }
}

void vectorize(LoopNest& nest, int64_t maxExtent) {
  if (nest.loops.empty()) return;
  Loop& inner = nest.loops.back();
  if (!isSpatial(nest, inner) || inner.extent < 2 || inner.extent > maxExtent) return;
  if (inner.annotation != LoopAnnotation::Serial || static_cast<int>(nest.loops.size()) - 1 < nest.parallelLoops()) return;
  inner.annotation = LoopAnnotation::Vectorized;
}

void unroll(LoopNest& nest, int64_t maxSteps, int64_t vectorLanes) {
  for (Loop& loop : nest.loops)
    if (loop.annotation == LoopAnnotation::Unrolled) loop.annotation = LoopAnnotation::Serial;
  if (maxSteps <= 0) return;
  const int first = std::max(nest.cacheWriteAt, nest.parallelLoops());
  int64_t steps = 1;
  for (int i = static_cast<int>(nest.loops.size()) - 1; i >= first; --i) {
    Loop& loop = nest.loops[i];
    if (loop.annotation == LoopAnnotation::Vectorized) {
      if (vectorLanes > 0) steps *= loop.extent / vectorLanes + loop.extent % vectorLanes;
      continue;
    }
    if (loop.annotation != LoopAnnotation::Serial || steps * loop.extent > maxSteps) break;
    steps *= loop.extent;
    if (loop.extent > 1) loop.annotation = LoopAnnotation::Unrolled;
  }
}

} // namespace tessera::tune
