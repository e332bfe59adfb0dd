// Feature extraction from a loop nest. The names and the values come from one walk, so they
// cannot drift apart.
#include "tune/Features.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace tessera::tune {

namespace {

double log2p(double x) { return std::log2(1.0 + std::max(x, 0.0)); }

// Collects values, and the names on the one walk that featureNames() makes.
struct FeatureSink {
  std::vector<float> values;
  std::vector<std::string>* names = nullptr;
  void add(const std::string& name, double value) {
    values.push_back(static_cast<float>(value));
    if (names) names->push_back(name);
  }
};

// The caches a block of loops should fit: an L1 and an L2 of a current x86 core.
constexpr double kL1Bytes = 32 * 1024, kL2Bytes = 1024 * 1024;

const char* annotationName(LoopAnnotation annotation) {
  switch (annotation) {
  case LoopAnnotation::Parallel: return "parallel";
  case LoopAnnotation::Vectorized: return "vectorized";
  case LoopAnnotation::Unrolled: return "unrolled";
  case LoopAnnotation::BlockIdx: return "block";
  case LoopAnnotation::VThread: return "vthread";
  case LoopAnnotation::ThreadIdx: return "thread";
  case LoopAnnotation::Serial: break;
  }
  return "serial";
}

// Which part of its axis's split a loop is ("i.2" -> 2), and how many parts the axis has.
int partOf(const Loop& loop) {
  const size_t dot = loop.name.rfind('.');
  return dot == std::string::npos ? 0 : std::atoi(loop.name.c_str() + dot + 1);
}

void addAnnotations(const LoopNest& nest, FeatureSink& sink) {
  for (LoopAnnotation kind : {LoopAnnotation::Parallel, LoopAnnotation::Vectorized, LoopAnnotation::Unrolled, LoopAnnotation::Serial,
                              LoopAnnotation::BlockIdx, LoopAnnotation::VThread, LoopAnnotation::ThreadIdx}) {
    int count = 0;
    double extent = 1;
    for (const Loop& loop : nest.loops) {
      if (loop.annotation != kind || loop.extent == 1) continue;
      ++count;
      extent *= static_cast<double>(loop.extent);
    }
    const std::string name = annotationName(kind);
    sink.add(name + ".loops", count);
    sink.add(name + ".log2_extent", log2p(extent));
  }
  double serialSpatial = 1, serialReduction = 1;
  for (const Loop& loop : nest.loops) {
    if (loop.annotation != LoopAnnotation::Serial) continue;
    (nest.compute.axes[loop.axis].reduction ? serialReduction : serialSpatial) *= static_cast<double>(loop.extent);
  }
  sink.add("serial.spatial_log2_extent", log2p(serialSpatial));
  sink.add("serial.reduction_log2_extent", log2p(serialReduction));
  double vectorWidth = 0;
  for (const Loop& loop : nest.loops)
    if (loop.annotation == LoopAnnotation::Vectorized) vectorWidth = static_cast<double>(loop.extent);
  sink.add("vector.width", vectorWidth);
  // AVX-512 and AVX2 registers hold 16 and 8 floats: a remainder costs a masked or scalar tail.
  sink.add("vector.multiple_of_16", vectorWidth > 0 && std::fmod(vectorWidth, 16) == 0);
  sink.add("vector.multiple_of_8", vectorWidth > 0 && std::fmod(vectorWidth, 8) == 0);
}

// The product of the extents at each tiling level: spatial parts 0-3 and reduction parts 0-1 of
// the SSRSRS split (a nest split otherwise is mapped onto as many levels by position).
void addTileSizes(const LoopNest& nest, FeatureSink& sink) {
  std::vector<int> parts(nest.compute.axes.size(), 0);
  for (const Loop& loop : nest.loops) parts[loop.axis] = std::max(parts[loop.axis], partOf(loop) + 1);
  double spatial[4] = {0, 0, 0, 0}, reduction[2] = {0, 0};
  for (const Loop& loop : nest.loops) {
    const bool isReduction = nest.compute.axes[loop.axis].reduction;
    const int levels = isReduction ? 2 : 4;
    const int level = std::min(levels - 1, partOf(loop) * levels / std::max(parts[loop.axis], 1));
    (isReduction ? reduction[level] : spatial[level]) += std::log2(static_cast<double>(loop.extent));
  }
  for (int p = 0; p < 4; ++p) sink.add("tile.spatial" + std::to_string(p) + ".log2_extent", spatial[p]);
  for (int p = 0; p < 2; ++p) sink.add("tile.reduction" + std::to_string(p) + ".log2_extent", reduction[p]);
}

// How far each buffer's address moves per step of the innermost spatial and the innermost
// reduction loop: 1 streams, 0 reuses a register, anything else gathers.
void addInnermostStrides(const LoopNest& nest, FeatureSink& sink) {
  const Compute& c = nest.compute;
  for (bool reduction : {false, true}) {
    const Loop* inner = nullptr;
    for (const Loop& loop : nest.loops)
      if (c.axes[loop.axis].reduction == reduction && loop.extent > 1) inner = &loop;
    const std::string prefix = reduction ? "inner_reduction." : "inner_spatial.";
    sink.add(prefix + "log2_extent", inner ? log2p(static_cast<double>(inner->extent)) : 0);
    const Access* accesses[] = {&c.lhs, &c.rhs, &c.output};
    const char* buffers[] = {"lhs", "rhs", "out"};
    for (int b = 0; b < 3; ++b) {
      const double stride = inner ? std::abs(static_cast<double>(accesses[b]->coeff[inner->axis] * inner->stride)) : 0;
      sink.add(prefix + "stride_" + buffers[b], log2p(stride));
    }
  }
}

void addLocalTiles(const LoopNest& nest, FeatureSink& sink) {
  sink.add("acc.present", nest.cacheWriteAt >= 0);
  sink.add("acc.log2_elements", log2p(static_cast<double>(nest.accumulatorElements())));
  sink.add("acc.depth", nest.cacheWriteAt < 0 ? 0 : static_cast<double>(nest.cacheWriteAt) / static_cast<double>(nest.loops.size()));
  sink.add("reg.present", nest.registerTileAt >= 0);
  sink.add("reg.log2_elements", log2p(static_cast<double>(nest.registerTileElements())));
  sink.add("epilogue.inline", nest.hasEpilogue() && nest.cacheWriteAt >= 0 && nest.epilogue == EpiloguePlacement::Inline);
  sink.add("epilogue.root_pass", nest.hasEpilogue() && (nest.cacheWriteAt < 0 || nest.epilogue == EpiloguePlacement::Root));
}

// What the loops [i, end) touch: per buffer, the elements whose address some loop inside moves
// (overlapping conv windows counted twice), and the multiply-adds they do.
struct Block {
  double iterations = 1;
  double elements[3] = {1, 1, 1}; // lhs, rhs, out
  double bytes() const { return 4 * (elements[0] + elements[1] + elements[2]); }
  double intensity() const { return 2 * iterations / bytes(); } // flops per byte
};

std::vector<Block> blocksOf(const LoopNest& nest) {
  const Compute& c = nest.compute;
  const Access* accesses[] = {&c.lhs, &c.rhs, &c.output};
  std::vector<Block> blocks(nest.loops.size() + 1);
  for (size_t i = nest.loops.size(); i-- > 0;) {
    const Loop& loop = nest.loops[i];
    blocks[i] = blocks[i + 1];
    blocks[i].iterations *= static_cast<double>(loop.extent);
    for (int b = 0; b < 3; ++b)
      if (accesses[b]->coeff[loop.axis] != 0) blocks[i].elements[b] *= static_cast<double>(loop.extent);
  }
  return blocks;
}

// The memory hierarchy as blocks see it: bytes and intensity of the largest block within 2^x
// iterations (MetaSchedule's arithmetic-intensity curve), and of the largest block that fits L1
// and L2 with the traffic its repetitions cause.
void addBlocks(const LoopNest& nest, FeatureSink& sink) {
  const std::vector<Block> blocks = blocksOf(nest);
  const double total = blocks.front().iterations;
  auto largestWhere = [&](auto fits) {
    size_t chosen = blocks.size() - 1;
    for (size_t i = blocks.size(); i-- > 0;)
      if (fits(blocks[i])) chosen = i;
    return blocks[chosen];
  };
  for (int x = 2; x <= 20; x += 2) {
    const Block b = largestWhere([&](const Block& block) { return block.iterations <= std::exp2(x); });
    const std::string prefix = "block" + std::to_string(x) + ".";
    sink.add(prefix + "log2_bytes", log2p(b.bytes()));
    sink.add(prefix + "log2_intensity", log2p(b.intensity()));
  }
  const char* buffers[] = {"lhs", "rhs", "out"};
  for (auto [name, capacity] : {std::pair{"l1", kL1Bytes}, std::pair{"l2", kL2Bytes}}) {
    const Block b = largestWhere([&](const Block& block) { return block.bytes() <= capacity; });
    const std::string prefix = std::string(name) + ".";
    sink.add(prefix + "log2_iterations", log2p(b.iterations));
    sink.add(prefix + "log2_intensity", log2p(b.intensity()));
    sink.add(prefix + "log2_traffic", log2p(b.bytes() * total / b.iterations));
    for (int buffer = 0; buffer < 3; ++buffer) sink.add(prefix + "log2_bytes_" + buffers[buffer], log2p(4 * b.elements[buffer]));
  }
  sink.add("workload.log2_flops", log2p(2 * total));
  sink.add("workload.log2_output_bytes", log2p(4 * static_cast<double>(nest.compute.outputElements)));
}

FeatureSink walk(const LoopNest& nest, std::vector<std::string>* names) {
  FeatureSink sink;
  sink.names = names;
  addAnnotations(nest, sink);
  addTileSizes(nest, sink);
  addInnermostStrides(nest, sink);
  addLocalTiles(nest, sink);
  addBlocks(nest, sink);
  return sink;
}

} // namespace

const std::vector<std::string>& featureNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> collected;
    Workload tiny;
    tiny.m = tiny.n = tiny.k = 1;
    walk(initialNest(computeOf(tiny)), &collected);
    return collected;
  }();
  return names;
}

std::vector<float> extractFeatures(const LoopNest& nest) { return walk(nest, nullptr).values; }

} // namespace tessera::tune
