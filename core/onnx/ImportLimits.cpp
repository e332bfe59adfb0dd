#include "onnx/ImportLimits.h"

#include "support/Error.h"

namespace tessera::onnx_io {

int64_t checkedNumel(const Shape& shape, const std::string& what) {
  if (shape.size() > kMaxRank) throw Error(what + " has rank " + std::to_string(shape.size()) + ", more than " + std::to_string(kMaxRank));
  int64_t numel = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) throw Error(what + " has a negative dimension in " + shapeToString(shape));
    if (d > kMaxDimension) throw Error(what + " has a dimension larger than 2^31 in " + shapeToString(shape));
    if (d == 0) empty = true;
    // Keep multiplying the non-zero dims so that an absurd shape is refused even with a 0 in it.
    if (d > 0 && numel > kMaxElements / d) throw Error(what + " has more than 2^40 elements: " + shapeToString(shape));
    if (d > 0) numel *= d;
  }
  return empty ? 0 : numel;
}

void checkBoundedInts(const std::vector<int64_t>& values, const std::string& what) {
  for (int64_t v : values)
    if (v < -kMaxDimension || v > kMaxDimension)
      throw Error(what + " holds " + std::to_string(v) + ", outside the supported range of +-2^31");
}

} // namespace tessera::onnx_io
