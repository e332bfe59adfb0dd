// split: one loop into perfectly nested loops whose extents multiply to its extent.
#include "tune/Primitives.h"

#include "support/Error.h"

namespace tessera::tune {

std::vector<std::string> split(LoopNest& nest, const std::string& loopName, const std::vector<int64_t>& factors) {
  const int index = nest.loopIndex(loopName);
  const Loop loop = nest.loops[index];
  if (factors.empty()) throw Error("split of " + loopName + ": no factors");
  int64_t product = 1;
  for (int64_t f : factors) {
    if (f < 1) throw Error("split of " + loopName + ": factor " + std::to_string(f) + " is not positive");
    product *= f;
  }
  if (product != loop.extent)
    throw Error("split of " + loopName + ": factors multiply to " + std::to_string(product) + ", not its extent " +
                std::to_string(loop.extent));
  std::vector<Loop> parts;
  std::vector<std::string> names;
  int64_t stride = loop.stride * loop.extent;
  for (size_t i = 0; i < factors.size(); ++i) {
    stride /= factors[i];
    parts.push_back({loopName + "." + std::to_string(i), loop.axis, factors[i], stride, LoopAnnotation::Serial});
    names.push_back(parts.back().name);
  }
  nest.loops.erase(nest.loops.begin() + index);
  nest.loops.insert(nest.loops.begin() + index, parts.begin(), parts.end());
  if (nest.cacheWriteAt > index) nest.cacheWriteAt += static_cast<int>(factors.size()) - 1;
  for (SharedRead& read : nest.sharedReads)
    if (read.at > index) read.at += static_cast<int>(factors.size()) - 1;
  return names;
}

} // namespace tessera::tune
