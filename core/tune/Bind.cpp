// bind: loops onto the GPU's grid (blockIdx.x, vthread.x, threadIdx.x), and the cooperative
// fetch of an input tile into shared memory.
#include "tune/Primitives.h"

#include "support/Error.h"

namespace tessera::tune {

namespace {

// Bound loops must be the outermost ones, blocks outside virtual threads outside threads: each
// level is then the fused index of its loops, and the code inside is one thread's program.
int bindingRank(LoopAnnotation annotation) {
  switch (annotation) {
  case LoopAnnotation::BlockIdx: return 0;
  case LoopAnnotation::VThread: return 1;
  case LoopAnnotation::ThreadIdx: return 2;
  case LoopAnnotation::Serial:
  case LoopAnnotation::Parallel:
  case LoopAnnotation::Vectorized:
  case LoopAnnotation::Unrolled: break;
  }
  return 3;
}

} // namespace

int boundLoops(const LoopNest& nest) {
  int count = 0;
  while (count < static_cast<int>(nest.loops.size()) && isGpuBinding(nest.loops[count].annotation)) ++count;
  return count;
}

void bind(LoopNest& nest, const std::string& loopName, LoopAnnotation binding) {
  if (!isGpuBinding(binding)) throw Error("bind of " + loopName + ": not a GPU thread axis");
  const int index = nest.loopIndex(loopName);
  Loop& loop = nest.loops[index];
  // Threads of a reduction loop would race on the same output element.
  if (nest.compute.axes[loop.axis].reduction) throw Error("bind of " + loopName + ": it is a reduction loop");
  if (loop.annotation != LoopAnnotation::Serial) throw Error("bind of " + loopName + ": it is already annotated");
  if (index != boundLoops(nest))
    throw Error("bind of " + loopName + ": bound loops must be the outermost, and it is not next to them");
  if (index > 0 && bindingRank(nest.loops[index - 1].annotation) > bindingRank(binding))
    throw Error(std::string("bind of ") + loopName + ": " + gpuBindingName(binding) + " inside " +
                gpuBindingName(nest.loops[index - 1].annotation));
  loop.annotation = binding;
}

void cacheReadShared(LoopNest& nest, int buffer, int loopsOutside, int64_t vectorLength) {
  const std::string what = "shared cache-read of " + std::string(buffer == 0 ? "lhs" : "rhs");
  if (buffer != 0 && buffer != 1) throw Error("shared cache-read: buffer " + std::to_string(buffer) + " is not lhs (0) or rhs (1)");
  if (loopsOutside < boundLoops(nest) || loopsOutside > static_cast<int>(nest.loops.size()))
    throw Error(what + " at " + std::to_string(loopsOutside) + ": must be inside the bound loops and within the " +
                std::to_string(nest.loops.size()) + " loops of the nest");
  if (vectorLength < 1) throw Error(what + ": vector length " + std::to_string(vectorLength) + " is not positive");
  for (SharedRead& read : nest.sharedReads)
    if (read.buffer == buffer) {
      read = {buffer, loopsOutside, vectorLength};
      return;
    }
  nest.sharedReads.push_back({buffer, loopsOutside, vectorLength});
}

} // namespace tessera::tune
