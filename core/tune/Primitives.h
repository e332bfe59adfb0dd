// The schedule primitives, each a function of the loop nest that checks its preconditions and
// throws tessera::Error (naming the loop) when they do not hold. Schedule (tune/Schedule.h)
// records them in a trace; each is defined in its own file.
#pragma once

#include "tune/LoopNest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tune {

// Split.cpp: `loop` becomes factors.size() nested loops "<loop>.0" (outermost) ... whose
// extents are the factors; their product must equal the loop's extent (perfect tiling).
std::vector<std::string> split(LoopNest& nest, const std::string& loop, const std::vector<int64_t>& factors);

// Reorder.cpp: the named loops take the positions they occupy now, in the given order.
void reorder(LoopNest& nest, const std::vector<std::string>& order);

// CacheWrite.cpp: accumulate in a local tile covering loops [loopsOutside, end); every loop
// outside must be spatial, and each axis's inner loops must tile a contiguous range.
// loopsOutside < 0 removes the accumulator.
void cacheWrite(LoopNest& nest, int loopsOutside);

// CacheWrite.cpp: a register tile over loops [loopsOutside, end), inside the accumulator (if
// any) and the parallel loops, reduction loops allowed inside; added into its target after them.
// loopsOutside < 0 removes it.
void registerTile(LoopNest& nest, int loopsOutside);

// ComputeAt.cpp: where the epilogue (bias, relu) runs. Inline needs a cache-write; without one
// the epilogue stays at the root.
void computeEpilogueAt(LoopNest& nest, EpiloguePlacement placement);

// Annotate.cpp: MetaSchedule's parallel-vectorize-unroll, applied to the nest's structure.
// Parallel: the outermost spatial loops outside the accumulator, collapsed, while their product
// stays within maxExtent (at least the first).
void parallelize(LoopNest& nest, int64_t maxExtent);
// The innermost loop when it is spatial and its extent is in [2, maxExtent].
void vectorize(LoopNest& nest, int64_t maxExtent);
// Fully unrolls the inner loops (inside the accumulator, not parallel or vectorised) from the
// innermost outwards while the steps of the unrolled body stay within maxSteps; 0 unrolls none.
// A vectorised loop is one step when vectorLanes is 0 (TVM vectorises before it unrolls, so its
// loop is one vector statement); otherwise it is the instructions a C compiler makes of it, its
// full vectors of vectorLanes plus a scalar remainder (7 for an extent of 7 with 8 lanes), so an
// unrolled body's size, and its compile time, stays within the bound.
void unroll(LoopNest& nest, int64_t maxSteps, int64_t vectorLanes = 0);

// Bind.cpp: binds `loop` to a GPU thread axis (BlockIdx, VThread or ThreadIdx). Bound loops are
// spatial and the outermost of the nest, blocks outside virtual threads outside threads; the
// loops bound to one axis are fused into it.
void bind(LoopNest& nest, const std::string& loop, LoopAnnotation binding);
// The leading loops of the nest that are bound to a GPU thread axis.
int boundLoops(const LoopNest& nest);
// Bind.cpp: stages `buffer` (0 lhs, 1 rhs) in shared memory, fetched cooperatively by the
// block's threads inside loops [0, loopsOutside), which must include every bound loop; a second
// read of the same buffer replaces the first.
void cacheReadShared(LoopNest& nest, int buffer, int loopsOutside, int64_t vectorLength);

} // namespace tessera::tune
