// The loop-nest IR a schedule transforms: one perfectly tiled nest over the compute's axes, an
// optional local accumulator tile (cache-write), where the epilogue runs and, on a GPU, which
// loops are bound to blocks and threads and which inputs are staged in shared memory. Code
// generation lowers exactly this; two schedules with equal nests are the same kernel.
#pragma once

#include "tune/Compute.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tune {

// The last three bind a loop to the GPU's grid (tune/Bind.cpp): its iterations become blocks,
// virtual threads (TVM's vthread: a thread's strided share, run inside it) or threads of a block.
enum class LoopAnnotation { Serial, Parallel, Vectorized, Unrolled, BlockIdx, VThread, ThreadIdx };

inline bool isGpuBinding(LoopAnnotation annotation) {
  return annotation == LoopAnnotation::BlockIdx || annotation == LoopAnnotation::VThread || annotation == LoopAnnotation::ThreadIdx;
}
// "blockIdx.x", "vthread.x", "threadIdx.x"; nullptr for the CPU annotations.
const char* gpuBindingName(LoopAnnotation annotation);

// value(axis) = sum over the axis's loops of stride * loop variable. Splits are perfect (the
// factors multiply to the extent), so no loop needs a bounds check.
struct Loop {
  std::string name; // "i", then "i.0", "i.1", ... after a split
  int axis = 0;
  int64_t extent = 1;
  int64_t stride = 1;
  LoopAnnotation annotation = LoopAnnotation::Serial;

  friend bool operator==(const Loop&, const Loop&) = default;
};

enum class EpiloguePlacement {
  Root,   // one more pass over the whole output after the nest
  Inline, // fused into the accumulator's write-back (needs a cache-write)
};

// An input tile staged in GPU shared memory (TVM's cache_read "shared" with cooperative fetch):
// loaded by all threads of a block before each iteration of loop `at - 1`, covering what the
// block's threads read inside it; each thread fetches `vectorLength` consecutive elements a step.
struct SharedRead {
  int buffer = 0; // 0 lhs, 1 rhs
  int at = 0;     // loops outside the fetch
  int64_t vectorLength = 1;
  friend bool operator==(const SharedRead&, const SharedRead&) = default;
};

struct LoopNest {
  Compute compute;
  std::vector<Loop> loops; // outermost first
  // Loops [0, cacheWriteAt) are outside a local accumulator that covers the tile the inner
  // loops write; it is zeroed there and written back after the inner loops. -1: the nest
  // accumulates into the output, which is zeroed first.
  int cacheWriteAt = -1;
  EpiloguePlacement epilogue = EpiloguePlacement::Root;
  // Loops [registerTileAt, end) accumulate into a small tile zeroed there and added into the
  // accumulator (or the output) after them; reduction loops may be inside, so the compiler can
  // keep it in registers across them. -1: none.
  int registerTileAt = -1;
  std::vector<SharedRead> sharedReads; // GPU only

  int findLoop(const std::string& name) const; // -1 when absent
  // Throws tessera::Error when `name` is not a loop of the nest.
  int loopIndex(const std::string& name) const;
  int parallelLoops() const; // the outermost loops annotated Parallel (collapsed into one)
  // Extent of the accumulator tile along each spatial axis (1 for axes it does not cover).
  std::vector<int64_t> tileExtents() const;
  int64_t accumulatorElements() const;
  std::vector<int64_t> registerTileExtents() const;
  int64_t registerTileElements() const;
  // Product of the extents of the loops bound to `binding` (1 when none is).
  int64_t boundExtent(LoopAnnotation binding) const;
  bool hasEpilogue() const { return compute.bias.has_value() || compute.relu; }
  // Pseudo-code, one loop per line, for reports, tests and the database.
  std::string toString() const;

  friend bool operator==(const LoopNest& a, const LoopNest& b) {
    return a.loops == b.loops && a.cacheWriteAt == b.cacheWriteAt && a.epilogue == b.epilogue &&
           a.registerTileAt == b.registerTileAt && a.sharedReads == b.sharedReads &&
           a.compute.workload == b.compute.workload;
  }
};

// One loop per axis in the compute's order (spatial, then reduction), all serial.
LoopNest initialNest(const Compute& compute);

} // namespace tessera::tune
