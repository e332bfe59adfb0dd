// compute-at / inline of the epilogue: fused into the accumulator's write-back, or at the root.
#include "tune/Primitives.h"

namespace tessera::tune {

void computeEpilogueAt(LoopNest& nest, EpiloguePlacement placement) {
  // Without a write-back stage there is nothing to fuse into: the epilogue stays a root pass.
  nest.epilogue = nest.cacheWriteAt < 0 ? EpiloguePlacement::Root : placement;
}

} // namespace tessera::tune
