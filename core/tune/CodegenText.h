// What the C and the CUDA code generators both write: a loop's variable name, a local tile's
// row-major layout and an affine index (a sum of coefficient * term).
#pragma once

#include "tune/LoopNest.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tune {

// "l_i_0" for loop "i.0".
inline std::string loopVariable(const Loop& loop) {
  std::string name = "l_" + loop.name;
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

// Coefficients of a row-major array over the spatial axes' extents (0 for the other axes): how a
// local tile (accumulator, register tile) is laid out.
inline std::vector<int64_t> rowMajorCoefficients(const Compute& compute, const std::vector<int64_t>& extents) {
  std::vector<int64_t> coefficients(compute.axes.size(), 0);
  int64_t stride = 1;
  for (int a = compute.spatialAxes() - 1; a >= 0; --a) {
    coefficients[a] = stride;
    stride *= extents[a];
  }
  return coefficients;
}

// sum of coeff * term, or "0".
struct Affine {
  std::string text;
  void add(int64_t coeff, const std::string& term) {
    if (coeff == 0) return;
    if (!text.empty()) text += " + ";
    text += coeff == 1 ? term : std::to_string(coeff) + "*" + term;
  }
  std::string str() const { return text.empty() ? "0" : text; }
};

} // namespace tessera::tune
