// cache-write: a local accumulator tile, zeroed before and written back after the inner loops;
// and the register tile, the same one level down with reduction loops inside.
#include "tune/Primitives.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::tune {

namespace {

// Each spatial axis's loops inside `at` (of extent > 1) must tile [0, tile) exactly: sorted by
// stride, each stride is the product of the extents below it; outside, strides are multiples
// of the tile.
void checkContiguousTile(const LoopNest& nest, int at, const std::string& what) {
  for (size_t a = 0; a < nest.compute.axes.size(); ++a) {
    if (nest.compute.axes[a].reduction) continue;
    std::vector<const Loop*> inner;
    for (size_t i = at; i < nest.loops.size(); ++i)
      if (nest.loops[i].axis == static_cast<int>(a) && nest.loops[i].extent > 1) inner.push_back(&nest.loops[i]);
    std::sort(inner.begin(), inner.end(), [](const Loop* x, const Loop* y) { return x->stride < y->stride; });
    int64_t covered = 1;
    for (const Loop* loop : inner) {
      if (loop->stride != covered)
        throw Error(what + " at " + std::to_string(at) + ": loop " + loop->name + " does not tile axis " +
                    nest.compute.axes[a].name + " contiguously");
      covered *= loop->extent;
    }
    for (int i = 0; i < at; ++i)
      if (nest.loops[i].axis == static_cast<int>(a) && nest.loops[i].extent > 1 && nest.loops[i].stride % covered != 0)
        throw Error(what + " at " + std::to_string(at) + ": outer loop " + nest.loops[i].name + " overlaps the tile of axis " +
                    nest.compute.axes[a].name);
  }
}

} // namespace

void registerTile(LoopNest& nest, int loopsOutside) {
  if (loopsOutside < 0) {
    nest.registerTileAt = -1;
    return;
  }
  if (loopsOutside > static_cast<int>(nest.loops.size()))
    throw Error("register tile at " + std::to_string(loopsOutside) + ": the nest has only " + std::to_string(nest.loops.size()) +
                " loops");
  if (loopsOutside <= nest.cacheWriteAt || loopsOutside < nest.parallelLoops())
    throw Error("register tile at " + std::to_string(loopsOutside) + ": must be inside the accumulator and the parallel loops");
  checkContiguousTile(nest, loopsOutside, "register tile");
  nest.registerTileAt = loopsOutside;
}

void cacheWrite(LoopNest& nest, int loopsOutside) {
  if (loopsOutside < 0) {
    nest.cacheWriteAt = -1;
    return;
  }
  if (loopsOutside > static_cast<int>(nest.loops.size()))
    throw Error("cache-write at " + std::to_string(loopsOutside) + ": the nest has only " + std::to_string(nest.loops.size()) +
                " loops");
  for (int i = 0; i < loopsOutside; ++i)
    if (nest.compute.axes[nest.loops[i].axis].reduction)
      throw Error("cache-write at " + std::to_string(loopsOutside) + ": reduction loop " + nest.loops[i].name +
                  " would be outside the accumulator");
  if (nest.registerTileAt >= 0 && nest.registerTileAt <= loopsOutside)
    throw Error("cache-write at " + std::to_string(loopsOutside) + ": the register tile would be outside it");
  checkContiguousTile(nest, loopsOutside, "cache-write");
  nest.cacheWriteAt = loopsOutside;
}

} // namespace tessera::tune
