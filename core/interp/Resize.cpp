// Resize with ONNX semantics (as its reference implementation computes it): each axis maps an
// output coordinate back to the input through the coordinate transformation mode, then takes
// the nearest element, a linear blend of two or a cubic blend of four (edge elements repeat
// past the border). Axes are independent, so an output element is the tensor product of the
// per-axis taps.
#include "interp/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tessera::interp {

namespace {

struct Tap {
  int64_t index;
  double weight;
};

double sourceCoordinate(const std::string& mode, int64_t x, int64_t inSize, int64_t outSize, double scale) {
  const double out = scale * static_cast<double>(inSize); // the reference's (fractional) output width
  const double centre = (static_cast<double>(x) + 0.5) / scale - 0.5;
  if (mode == "asymmetric") return static_cast<double>(x) / scale;
  if (mode == "align_corners") return out == 1.0 ? 0.0 : static_cast<double>(x) * static_cast<double>(inSize - 1) / (out - 1.0);
  if (mode == "pytorch_half_pixel") return out == 1.0 ? -0.5 : centre;
  if (mode == "half_pixel_symmetric") {
    const double adjustment = static_cast<double>(outSize) / out;
    return static_cast<double>(inSize) / 2.0 * (1.0 - adjustment) + centre;
  }
  if (mode == "half_pixel") return centre;
  kernelError("unsupported coordinate transformation mode '" + mode + "'");
}

std::vector<double> coefficients(const Node& node, const std::string& mode, double ratio) {
  if (mode == "linear") return {1.0 - ratio, ratio};
  if (mode == "cubic") {
    const double a = node.attrs.getFloat("cubic_coeff_a", -0.75f);
    const double r = ratio, s = 1.0 - ratio;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
  }
  // Nearest: pick one of the two neighbours; an exact coordinate (ratio 1) is the right one.
  if (ratio == 1.0) return {0.0, 1.0};
  const std::string rounding = node.attrs.getString("nearest_mode", "round_prefer_floor");
  bool right = false;
  if (rounding == "round_prefer_floor") right = ratio > 0.5;
  else if (rounding == "round_prefer_ceil") right = ratio >= 0.5;
  else if (rounding == "ceil") right = true;
  else if (rounding != "floor") kernelError("unknown nearest_mode '" + rounding + "'");
  return {right ? 0.0 : 1.0, right ? 1.0 : 0.0};
}

// The taps of every output coordinate along one axis.
std::vector<std::vector<Tap>> axisTaps(const Node& node, int64_t inSize, int64_t outSize, double scale) {
  const std::string mode = node.attrs.getString("mode", "nearest");
  const std::string transform = node.attrs.getString("coordinate_transformation_mode", "half_pixel");
  const bool excludeOutside = node.attrs.getInt("exclude_outside", 0) != 0;
  std::vector<std::vector<Tap>> taps(static_cast<size_t>(outSize));
  for (int64_t x = 0; x < outSize; ++x) {
    const double source = sourceCoordinate(transform, x, inSize, outSize, scale);
    // The left neighbour and the ratio in (0, 1] past it (the reference prefers the left pixel).
    const int64_t left = static_cast<int64_t>(std::ceil(source)) - 1;
    const double ratio = source - static_cast<double>(left);
    const std::vector<double> weights = coefficients(node, mode, ratio);
    const int64_t first = left - (static_cast<int64_t>(weights.size()) / 2 - 1);
    double total = 0.0;
    std::vector<Tap>& list = taps[static_cast<size_t>(x)];
    for (size_t k = 0; k < weights.size(); ++k) {
      const int64_t index = first + static_cast<int64_t>(k);
      const bool outside = index < 0 || index >= inSize;
      if (excludeOutside && outside) continue;
      // A tap of weight 0 adds nothing (the sum skips it), and leaving it out lets a nearest
      // resize at a half-way coordinate (x2 upsampling, asymmetric) be the one-tap copy below.
      if (weights[k] == 0.0) continue;
      list.push_back({std::clamp<int64_t>(index, 0, inSize - 1), weights[k]});
      total += weights[k];
    }
    if (excludeOutside && total != 0.0)
      for (Tap& tap : list) tap.weight /= total;
  }
  return taps;
}

// Does every output position read exactly one input element, whole (nearest, or any mode at
// scale 1)? Then resizing is a gather per axis.
bool copiesElements(const std::vector<std::vector<std::vector<Tap>>>& taps) {
  if (taps.empty()) return false;
  for (const auto& axis : taps)
    for (const auto& list : axis)
      if (list.size() != 1 || list[0].weight != 1.0) return false;
  return true;
}

// The one-tap case row by row: the leading axes pick an input row, the last axis gathers from it
// (a DB detector's upsamplings took seconds through the general odometer).
void copyNearest(const std::vector<std::vector<std::vector<Tap>>>& taps, const float* src, const std::vector<int64_t>& inStrides,
                 const Shape& outShape, float* out) {
  const size_t rank = outShape.size();
  const int64_t rowLength = outShape[rank - 1];
  std::vector<int64_t> last(static_cast<size_t>(rowLength));
  for (int64_t x = 0; x < rowLength; ++x) last[static_cast<size_t>(x)] = taps[rank - 1][static_cast<size_t>(x)][0].index * inStrides[rank - 1];
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= outShape[d];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t rest = r, offset = 0;
    for (size_t d = rank - 1; d-- > 0;) {
      offset += taps[d][static_cast<size_t>(rest % outShape[d])][0].index * inStrides[d];
      rest /= outShape[d];
    }
    const float* row = src + offset;
    float* dst = out + r * rowLength;
    for (int64_t x = 0; x < rowLength; ++x) dst[x] = row[last[static_cast<size_t>(x)]];
  }
}

} // namespace

Tensor resize(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const std::vector<float> scales = node.attrs.getFloats("scales");
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  const size_t rank = shape.size();
  if (y.numel() == 0) return y;
  if (in[0]->numel() == 0) kernelError("cannot resize an empty tensor");
  std::vector<std::vector<std::vector<Tap>>> taps;
  for (size_t d = 0; d < rank; ++d) taps.push_back(axisTaps(node, shape[d], outShape[d], scales[d]));
  const std::vector<int64_t> inStrides = contiguousStrides(shape), outStrides = contiguousStrides(outShape);
  const float* src = in[0]->floats().data();
  float* out = y.mutableFloats().data();
  if (copiesElements(taps)) {
    copyNearest(taps, src, inStrides, outShape, out);
    return y;
  }
  std::vector<const std::vector<Tap>*> chosen(rank);
  std::vector<size_t> position(rank);
  for (int64_t i = 0; i < y.numel(); ++i) {
    bool empty = false;
    for (size_t d = 0; d < rank; ++d) {
      chosen[d] = &taps[d][static_cast<size_t>(i / outStrides[d] % outShape[d])];
      empty = empty || chosen[d]->empty();
    }
    if (empty) continue; // every tap outside with exclude_outside: 0
    // Odometer over the taps of every axis.
    std::fill(position.begin(), position.end(), 0);
    double sum = 0.0;
    while (true) {
      double weight = 1.0;
      int64_t offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        const Tap& tap = (*chosen[d])[position[d]];
        weight *= tap.weight;
        offset += tap.index * inStrides[d];
      }
      if (weight != 0.0) sum += weight * src[offset];
      size_t d = rank;
      while (d > 0 && ++position[d - 1] == chosen[d - 1]->size()) position[--d] = 0;
      if (d == 0) break;
    }
    out[i] = roundToPrecision(y.dtype(), static_cast<float>(sum));
  }
  return y;
}

} // namespace tessera::interp
