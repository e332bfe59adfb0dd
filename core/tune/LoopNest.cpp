// The loop nest's queries and its pseudo-code form.
#include "tune/LoopNest.h"

#include "support/Error.h"

namespace tessera::tune {

const char* gpuBindingName(LoopAnnotation annotation) {
  switch (annotation) {
  case LoopAnnotation::BlockIdx: return "blockIdx.x";
  case LoopAnnotation::VThread: return "vthread.x";
  case LoopAnnotation::ThreadIdx: return "threadIdx.x";
  case LoopAnnotation::Serial:
  case LoopAnnotation::Parallel:
  case LoopAnnotation::Vectorized:
  case LoopAnnotation::Unrolled: break;
  }
  return nullptr;
}

int64_t LoopNest::boundExtent(LoopAnnotation binding) const {
  int64_t product = 1;
  for (const Loop& loop : loops)
    if (loop.annotation == binding) product *= loop.extent;
  return product;
}

int LoopNest::findLoop(const std::string& name) const {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].name == name) return static_cast<int>(i);
  return -1;
}

int LoopNest::loopIndex(const std::string& name) const {
  int index = findLoop(name);
  if (index < 0) throw Error("schedule: no loop '" + name + "' in the nest");
  return index;
}

int LoopNest::parallelLoops() const {
  int count = 0;
  while (count < static_cast<int>(loops.size()) && loops[count].annotation == LoopAnnotation::Parallel) ++count;
  return count;
}

std::vector<int64_t> LoopNest::tileExtents() const {
  std::vector<int64_t> extents(compute.axes.size(), 1);
  if (cacheWriteAt < 0) return extents;
  for (size_t i = cacheWriteAt; i < loops.size(); ++i)
    if (!compute.axes[loops[i].axis].reduction) extents[loops[i].axis] *= loops[i].extent;
  return extents;
}

std::vector<int64_t> LoopNest::registerTileExtents() const {
  std::vector<int64_t> extents(compute.axes.size(), 1);
  if (registerTileAt < 0) return extents;
  for (size_t i = registerTileAt; i < loops.size(); ++i)
    if (!compute.axes[loops[i].axis].reduction) extents[loops[i].axis] *= loops[i].extent;
  return extents;
}

int64_t LoopNest::registerTileElements() const {
  if (registerTileAt < 0) return 0;
  int64_t total = 1;
  for (int64_t extent : registerTileExtents()) total *= extent;
  return total;
}

int64_t LoopNest::accumulatorElements() const {
  if (cacheWriteAt < 0) return 0;
  int64_t total = 1;
  for (int64_t extent : tileExtents()) total *= extent;
  return total;
}

std::string LoopNest::toString() const {
  std::string text;
  auto line = [&](size_t depth, const std::string& content) { text += std::string(2 * depth, ' ') + content + "\n"; };
  if (compute.padded) line(0, "pad input by " + std::to_string(compute.padded->pad));
  if (cacheWriteAt < 0) line(0, "out = 0");
  const std::string target = registerTileAt >= 0 ? "reg" : cacheWriteAt < 0 ? "out" : "acc";
  for (size_t i = 0; i <= loops.size(); ++i) {
    if (static_cast<int>(i) == cacheWriteAt) {
      std::string shape;
      const std::vector<int64_t> tile = tileExtents();
      for (int a = 0; a < compute.spatialAxes(); ++a) shape += (shape.empty() ? "" : "x") + std::to_string(tile[a]);
      line(i, "acc[" + shape + "] = 0");
    }
    if (static_cast<int>(i) == registerTileAt) {
      std::string shape;
      const std::vector<int64_t> tile = registerTileExtents();
      for (int a = 0; a < compute.spatialAxes(); ++a) shape += (shape.empty() ? "" : "x") + std::to_string(tile[a]);
      line(i, "reg[" + shape + "] = 0");
    }
    for (const SharedRead& read : sharedReads)
      if (static_cast<size_t>(read.at) == i)
        line(i, std::string("shared ") + (read.buffer == 0 ? "lhs" : "rhs") + " = cooperative fetch (vector " +
                    std::to_string(read.vectorLength) + ")");
    if (i == loops.size()) {
      line(i, target + " += lhs * rhs");
      break;
    }
    const Loop& loop = loops[i];
    const char* kind = loop.annotation == LoopAnnotation::Parallel     ? "parallel "
                       : loop.annotation == LoopAnnotation::Vectorized ? "vectorized "
                       : loop.annotation == LoopAnnotation::Unrolled   ? "unrolled "
                                                                       : "";
    const std::string binding = isGpuBinding(loop.annotation) ? std::string(gpuBindingName(loop.annotation)) + " " : "";
    line(i, binding + std::string(kind) + "for " + loop.name + " in " + std::to_string(loop.extent) +
                (loop.stride != 1 ? " (stride " + std::to_string(loop.stride) + ")" : ""));
  }
  std::string epilogue = std::string(compute.bias ? " + bias" : "") + (compute.relu ? " then relu" : "");
  if (registerTileAt >= 0) line(registerTileAt, std::string(cacheWriteAt < 0 ? "out" : "acc") + " += reg");
  if (cacheWriteAt >= 0)
    line(cacheWriteAt, "out = acc" + (this->epilogue == EpiloguePlacement::Inline ? epilogue : std::string()));
  if (hasEpilogue() && (cacheWriteAt < 0 || this->epilogue == EpiloguePlacement::Root)) line(0, "out = out" + epilogue);
  return text;
}

LoopNest initialNest(const Compute& compute) {
  LoopNest nest;
  nest.compute = compute;
  for (size_t a = 0; a < compute.axes.size(); ++a)
    nest.loops.push_back({compute.axes[a].name, static_cast<int>(a), compute.axes[a].extent, 1, LoopAnnotation::Serial});
  return nest;
}

} // namespace tessera::tune
