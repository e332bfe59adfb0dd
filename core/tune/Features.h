// The learned cost model's view of a candidate: a fixed-length feature vector of its scheduled
// loop nest, in the spirit of MetaSchedule's per-store features (Tessera's nests have one store):
// loop extents by annotation, tile sizes per tiling level, innermost strides, the accumulator and
// register tile, and the bytes each loop block touches with its arithmetic intensity.
#pragma once

#include "tune/LoopNest.h"

#include <string>
#include <vector>

namespace tessera::tune {

// The names of the features, in the order extractFeatures() returns them.
const std::vector<std::string>& featureNames();

// featureNames().size() values; extents, sizes and bytes as log2(1 + x), so that trees split on
// orders of magnitude.
std::vector<float> extractFeatures(const LoopNest& nest);

} // namespace tessera::tune
