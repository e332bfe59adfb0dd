// Shape rules, one case per op. The IR's canonical attribute forms (which the ONNX importer
// produces) are documented next to each rule.
#include "ir/ShapeInference.h"

#include "support/Error.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace tessera {

namespace {

[[noreturn]] void fail(const std::string& message) { throw Error(message); }

void expectInputs(std::span<const TensorType> inputs, size_t min, size_t max) {
  if (inputs.size() < min || inputs.size() > max)
    fail("expected " + std::to_string(min) + (min == max ? "" : ".." + std::to_string(max)) + " inputs, got " +
         std::to_string(inputs.size()));
}

void expectRank(const TensorType& type, int64_t rank, const char* what) {
  if (type.rank() != rank)
    fail(std::string(what) + " must have rank " + std::to_string(rank) + ", got " + type.toString());
}

void expectFloat(const TensorType& type, const char* what) {
  if (!isFloatingPoint(type.dtype)) fail(std::string(what) + " must be a float tensor, got " + type.toString());
}

std::vector<int64_t> pairOr(const Attributes& attrs, const char* name, int64_t fallback, size_t count) {
  std::vector<int64_t> values = attrs.getInts(name, std::vector<int64_t>(count, fallback));
  if (values.size() != count)
    fail(std::string(name) + " needs " + std::to_string(count) + " values, got " + std::to_string(values.size()));
  return values;
}

// Conv: X[N,C,H,W], W[M,C/g,kH,kW], optional B[M]. strides, pads [t,l,b,r], dilations;
// the group count is C / W[1] (an explicit `group` must agree); `activation` fuses a unary op.
TensorType convOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 2, 3);
  expectRank(in[0], 4, "conv input");
  expectRank(in[1], 4, "conv weight");
  expectFloat(in[0], "conv input");
  const Shape& x = in[0].shape;
  const Shape& w = in[1].shape;
  if (w[1] <= 0 || x[1] % w[1] != 0)
    fail("input channels " + std::to_string(x[1]) + " are not a multiple of weight channels " + std::to_string(w[1]));
  int64_t groups = x[1] / w[1];
  if (attrs.has("group") && attrs.getInt("group", 1) != groups)
    fail("group " + std::to_string(attrs.getInt("group", 1)) + " does not match channels " + std::to_string(x[1]) +
         "/" + std::to_string(w[1]));
  if (w[0] % groups != 0) fail("output channels " + std::to_string(w[0]) + " not divisible by groups " + std::to_string(groups));
  if (attrs.has("kernel_shape") && attrs.getInts("kernel_shape") != Shape{w[2], w[3]})
    fail("kernel_shape does not match the weight " + in[1].toString());
  if (in.size() == 3 && in[2].shape != Shape{w[0]}) fail("bias must be [" + std::to_string(w[0]) + "], got " + in[2].toString());
  auto strides = pairOr(attrs, "strides", 1, 2);
  auto dilations = pairOr(attrs, "dilations", 1, 2);
  auto pads = pairOr(attrs, "pads", 0, 4);
  int64_t h = windowOutputSize(x[2], w[2], strides[0], pads[0], pads[2], dilations[0], false);
  int64_t wd = windowOutputSize(x[3], w[3], strides[1], pads[1], pads[3], dilations[1], false);
  return {in[0].dtype, {x[0], w[0], h, wd}};
}

// MaxPool / AveragePool: X[N,C,H,W]; kernel_shape, strides, pads [t,l,b,r], dilations, ceil_mode.
TensorType poolOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  expectRank(in[0], 4, "pool input");
  const Shape& x = in[0].shape;
  auto kernel = attrs.getInts("kernel_shape");
  if (kernel.size() != 2) fail("pool needs a 2-D kernel_shape");
  auto strides = pairOr(attrs, "strides", 1, 2);
  auto dilations = pairOr(attrs, "dilations", 1, 2);
  auto pads = pairOr(attrs, "pads", 0, 4);
  bool ceil = attrs.getInt("ceil_mode", 0) != 0;
  int64_t h = windowOutputSize(x[2], kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil);
  int64_t w = windowOutputSize(x[3], kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil);
  return {in[0].dtype, {x[0], x[1], h, w}};
}

// MatMul with numpy semantics: 1-D operands are promoted and the added axis removed again.
TensorType matmulOutput(std::span<const TensorType> in) {
  expectInputs(in, 2, 2);
  Shape a = in[0].shape, b = in[1].shape;
  if (a.empty() || b.empty()) fail("matmul operands must have rank >= 1");
  bool aVector = a.size() == 1, bVector = b.size() == 1;
  if (aVector) a.insert(a.begin(), 1);
  if (bVector) b.push_back(1);
  if (a.back() != b[b.size() - 2])
    fail("matmul inner dimensions differ: " + in[0].toString() + " x " + in[1].toString());
  Shape batch = broadcastShapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
  Shape out = batch;
  if (!aVector) out.push_back(a[a.size() - 2]);
  if (!bVector) out.push_back(b.back());
  return {in[0].dtype, out};
}

// Gemm: A[M,K] (or [K,M] with transA), B[K,N] (or [N,K]), optional C broadcastable to [M,N].
TensorType gemmOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 2, 3);
  expectRank(in[0], 2, "gemm A");
  expectRank(in[1], 2, "gemm B");
  bool transA = attrs.getInt("transA", 0) != 0, transB = attrs.getInt("transB", 0) != 0;
  int64_t m = transA ? in[0].shape[1] : in[0].shape[0];
  int64_t ka = transA ? in[0].shape[0] : in[0].shape[1];
  int64_t kb = transB ? in[1].shape[1] : in[1].shape[0];
  int64_t n = transB ? in[1].shape[0] : in[1].shape[1];
  if (ka != kb) fail("gemm inner dimensions differ: " + in[0].toString() + " x " + in[1].toString());
  if (in.size() == 3 && broadcastShapes(in[2].shape, {m, n}) != Shape{m, n})
    fail("gemm C " + in[2].toString() + " does not broadcast to [" + std::to_string(m) + "," + std::to_string(n) + "]");
  return {in[0].dtype, {m, n}};
}

// Concat: all inputs agree except on `axis`.
TensorType concatOutput(const Attributes& attrs, std::span<const TensorType> in) {
  if (in.empty()) fail("concat needs at least one input");
  int64_t axis = normalizeAxis(attrs.getInt("axis", 0), in[0].rank());
  Shape out = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i) {
    if (in[i].rank() != in[0].rank()) fail("concat inputs differ in rank");
    for (int64_t d = 0; d < in[0].rank(); ++d) {
      if (d == axis) continue;
      if (in[i].shape[d] != out[d]) fail("concat inputs differ outside axis: " + in[0].toString() + " vs " + in[i].toString());
    }
    out[axis] += in[i].shape[axis];
  }
  return {in[0].dtype, out};
}

// Split: `split` lists the sizes along `axis` (always explicit in the IR); one output each.
std::vector<TensorType> splitOutputs(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  int64_t axis = normalizeAxis(attrs.getInt("axis", 0), in[0].rank());
  auto sizes = attrs.getInts("split");
  if (sizes.empty()) fail("split needs explicit sizes");
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) fail("split sizes must be non-negative");
    total += s;
  }
  if (total != in[0].shape[axis]) fail("split sizes sum to " + std::to_string(total) + " but the axis has " + std::to_string(in[0].shape[axis]));
  std::vector<TensorType> outs;
  for (int64_t s : sizes) {
    TensorType t = in[0];
    t.shape[axis] = s;
    outs.push_back(t);
  }
  return outs;
}

// Reshape: `shape` with 0 = copy the input dimension (unless allowzero) and one -1 = inferred.
TensorType reshapeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  Shape target = attrs.getInts("shape");
  bool allowZero = attrs.getInt("allowzero", 0) != 0;
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allowZero) {
      if (i >= in[0].shape.size()) fail("reshape copies dimension " + std::to_string(i) + " that the input lacks");
      target[i] = in[0].shape[i];
    }
    if (target[i] == -1) {
      if (inferred >= 0) fail("reshape has more than one -1");
      inferred = static_cast<int64_t>(i);
      continue;
    }
    if (target[i] < 0) fail("reshape has a negative dimension");
    known *= target[i];
  }
  int64_t numel = in[0].numel();
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0) fail("reshape cannot infer -1 for " + in[0].toString() + " -> " + shapeToString(target));
    target[inferred] = numel / known;
  } else if (known != numel) {
    fail("reshape " + in[0].toString() + " -> " + shapeToString(target) + " changes the element count");
  }
  return {in[0].dtype, target};
}

// Transpose: `perm` (default: reverse the axes).
TensorType transposeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  int64_t rank = in[0].rank();
  std::vector<int64_t> perm = attrs.getInts("perm");
  if (perm.empty()) {
    perm.resize(rank);
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  if (static_cast<int64_t>(perm.size()) != rank) fail("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(rank));
  std::vector<bool> seen(rank, false);
  Shape out(rank);
  for (int64_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) fail("perm is not a permutation");
    seen[perm[i]] = true;
    out[i] = in[0].shape[perm[i]];
  }
  return {in[0].dtype, out};
}

// Slice: starts, ends, axes (default 0..), steps (default 1), clamped as ONNX does.
TensorType sliceOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  auto starts = attrs.getInts("starts");
  auto ends = attrs.getInts("ends");
  auto axes = attrs.getInts("axes");
  auto steps = attrs.getInts("steps");
  if (axes.empty()) {
    axes.resize(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    fail("slice starts, ends, axes and steps differ in length");
  Shape out = in[0].shape;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = normalizeAxis(axes[i], in[0].rank());
    int64_t dim = in[0].shape[axis];
    int64_t step = steps[i];
    if (step == 0) fail("slice step is 0");
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      out[axis] = end > start ? (end - start + step - 1) / step : 0;
    } else {
      start = std::clamp<int64_t>(start, -1, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      out[axis] = start > end ? (start - end - step - 1) / (-step) : 0;
    }
  }
  return {in[0].dtype, out};
}

std::vector<int64_t> normalizedAxes(const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) out.push_back(normalizeAxis(a, rank));
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) fail("axes repeat");
  return out;
}

TensorType unsqueezeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  int64_t outRank = in[0].rank() + static_cast<int64_t>(attrs.getInts("axes").size());
  auto axes = normalizedAxes(attrs.getInts("axes"), outRank);
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d) {
    if (std::binary_search(axes.begin(), axes.end(), d))
      out.push_back(1);
    else
      out.push_back(in[0].shape[next++]);
  }
  return {in[0].dtype, out};
}

TensorType squeezeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  auto axes = normalizedAxes(attrs.getInts("axes"), in[0].rank());
  Shape out;
  for (int64_t d = 0; d < in[0].rank(); ++d) {
    bool listed = std::binary_search(axes.begin(), axes.end(), d);
    if (listed && in[0].shape[d] != 1) fail("squeeze of axis " + std::to_string(d) + " whose size is not 1");
    if (listed || (axes.empty() && in[0].shape[d] == 1)) continue;
    out.push_back(in[0].shape[d]);
  }
  return {in[0].dtype, out};
}

// ReduceMean: `axes` (empty = all), keepdims (default 1).
TensorType reduceOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  auto axes = normalizedAxes(attrs.getInts("axes"), in[0].rank());
  bool keep = attrs.getInt("keepdims", 1) != 0;
  Shape out;
  for (int64_t d = 0; d < in[0].rank(); ++d) {
    bool reduced = axes.empty() || std::binary_search(axes.begin(), axes.end(), d);
    if (!reduced)
      out.push_back(in[0].shape[d]);
    else if (keep)
      out.push_back(1);
  }
  return {in[0].dtype, out};
}

// Gather: data, integer indices; output = data[:axis] + indices + data[axis+1:].
TensorType gatherOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 2, 2);
  if (!isInteger(in[1].dtype)) fail("gather indices must be integers, got " + in[1].toString());
  int64_t axis = normalizeAxis(attrs.getInt("axis", 0), in[0].rank());
  Shape out(in[0].shape.begin(), in[0].shape.begin() + axis);
  out.insert(out.end(), in[1].shape.begin(), in[1].shape.end());
  out.insert(out.end(), in[0].shape.begin() + axis + 1, in[0].shape.end());
  return {in[0].dtype, out};
}

// Pad: pads = [begin_0.., end_0..] (negative crops), mode constant|reflect|edge, value.
TensorType padOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  auto pads = attrs.getInts("pads");
  int64_t rank = in[0].rank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank) fail("pads needs " + std::to_string(2 * rank) + " values");
  std::string mode = attrs.getString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") fail("unsupported pad mode '" + mode + "'");
  Shape out = in[0].shape;
  for (int64_t d = 0; d < rank; ++d) {
    out[d] += pads[d] + pads[d + rank];
    if (out[d] < 0) fail("pads crop below zero");
  }
  return {in[0].dtype, out};
}

// Flatten: [prod(d < axis), prod(d >= axis)].
TensorType flattenOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  int64_t rank = in[0].rank();
  int64_t axis = attrs.getInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) fail("flatten axis out of range");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= in[0].shape[d];
  return {in[0].dtype, {outer, inner}};
}

TensorType broadcastOutput(std::span<const TensorType> in) {
  if (in.empty()) fail("needs at least one input");
  Shape out = in[0].shape;
  for (size_t i = 1; i < in.size(); ++i) out = broadcastShapes(out, in[i].shape);
  return {in[0].dtype, out};
}

// BatchNorm: X[N,C,...] and four [C] vectors (scale, bias, mean, var); `epsilon`.
TensorType batchNormOutput(std::span<const TensorType> in) {
  expectInputs(in, 5, 5);
  if (in[0].rank() < 2) fail("batchnorm input must have rank >= 2");
  for (size_t i = 1; i < 5; ++i)
    if (in[i].shape != Shape{in[0].shape[1]}) fail("batchnorm parameter " + std::to_string(i) + " must be [C], got " + in[i].toString());
  return in[0];
}

// LayerNorm: normalises over dims >= axis; scale (and bias) broadcast to those dims.
TensorType layerNormOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 2, 3);
  int64_t axis = normalizeAxis(attrs.getInt("axis", -1), in[0].rank());
  Shape normalized(in[0].shape.begin() + axis, in[0].shape.end());
  for (size_t i = 1; i < in.size(); ++i)
    if (broadcastShapes(in[i].shape, normalized) != normalized)
      fail("layernorm parameter " + in[i].toString() + " does not fit " + shapeToString(normalized));
  return in[0];
}

// Element-wise ops with several operands: one element type for all of them.
void expectSameDtype(std::span<const TensorType> in) {
  for (const TensorType& t : in)
    if (t.dtype != in[0].dtype) fail("operands differ in element type: " + in[0].toString() + " and " + t.toString());
}

void expectDtype(const TensorType& type, DType dtype, const char* what) {
  if (type.dtype != dtype) fail(std::string(what) + " must be " + std::string(dtypeName(dtype)) + ", got " + type.toString());
}

// Where: Bool condition, x and y of one type, all three broadcast together.
TensorType whereOutput(std::span<const TensorType> in) {
  expectDtype(in[0], DType::Bool, "where condition");
  expectSameDtype(in.subspan(1));
  return {in[1].dtype, broadcastShapes(broadcastShapes(in[0].shape, in[1].shape), in[2].shape)};
}

// Cast: `to` names the target element type (ir/DType.h's names: "f32", "i64", "bool", ...).
TensorType castOutput(const Attributes& attrs, std::span<const TensorType> in) {
  DType to = dtypeFromName(attrs.getString("to", ""));
  if (to == DType::Undefined || to == DType::String) fail("cast needs a numeric target type, got '" + attrs.getString("to", "") + "'");
  return {to, in[0].shape};
}

// ArgMax / ArgMin: int64 indices along `axis`, kept as a size-1 axis unless keepdims=0.
TensorType argReduceOutput(const Attributes& attrs, std::span<const TensorType> in) {
  int64_t axis = normalizeAxis(attrs.getInt("axis", 0), in[0].rank());
  Shape out = in[0].shape;
  if (attrs.getInt("keepdims", 1) != 0)
    out[static_cast<size_t>(axis)] = 1;
  else
    out.erase(out.begin() + axis);
  return {DType::Int64, out};
}

// Expand: broadcast of the input with `shape` (either may supply the larger dimension).
TensorType expandOutput(const Attributes& attrs, std::span<const TensorType> in) {
  return {in[0].dtype, broadcastShapes(in[0].shape, attrs.getInts("shape"))};
}

// Tile: `repeats` (one per axis, non-negative) multiplies each dimension.
TensorType tileOutput(const Attributes& attrs, std::span<const TensorType> in) {
  auto repeats = attrs.getInts("repeats");
  if (static_cast<int64_t>(repeats.size()) != in[0].rank()) fail("tile needs one repeat per axis");
  Shape out = in[0].shape;
  for (size_t d = 0; d < out.size(); ++d) {
    if (repeats[d] < 0) fail("tile repeats must be non-negative");
    out[d] *= repeats[d];
  }
  return {in[0].dtype, out};
}

// DepthToSpace / SpaceToDepth: X[N,C,H,W] with `blocksize` b; DepthToSpace's `mode` DCR|CRD.
TensorType depthToSpaceOutput(OpKind kind, const Attributes& attrs, std::span<const TensorType> in) {
  expectRank(in[0], 4, "depth/space input");
  int64_t b = attrs.getInt("blocksize", 0);
  if (b < 1) fail("blocksize must be >= 1");
  Shape x = in[0].shape;
  if (kind == OpKind::DepthToSpace) {
    std::string mode = attrs.getString("mode", "DCR");
    if (mode != "DCR" && mode != "CRD") fail("unknown DepthToSpace mode '" + mode + "'");
    if (x[1] % (b * b) != 0) fail("channels are not a multiple of blocksize^2");
    return {in[0].dtype, {x[0], x[1] / (b * b), x[2] * b, x[3] * b}};
  }
  if (x[2] % b != 0 || x[3] % b != 0) fail("height and width must be multiples of blocksize");
  return {in[0].dtype, {x[0], x[1] * b * b, x[2] / b, x[3] / b}};
}

// Trilu: the upper (`upper`=1, default) or lower triangle of the last two axes, offset by `k`.
TensorType triluOutput(std::span<const TensorType> in) {
  if (in[0].rank() < 2) fail("trilu input must have rank >= 2");
  return in[0];
}

// ConvTranspose: X[N,C,H,W], W[C,M/g,kH,kW], optional B[M]; strides, pads [t,l,b,r],
// dilations, group, output_padding (all explicit in the IR except defaults).
TensorType convTransposeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectRank(in[0], 4, "conv-transpose input");
  expectRank(in[1], 4, "conv-transpose weight");
  expectFloat(in[0], "conv-transpose input");
  const Shape& x = in[0].shape;
  const Shape& w = in[1].shape;
  int64_t group = attrs.getInt("group", 1);
  if (group < 1 || x[1] != w[0] || w[0] % group != 0)
    fail("input channels " + std::to_string(x[1]) + " do not match the weight " + in[1].toString() + " with group " + std::to_string(group));
  int64_t m = w[1] * group;
  if (in.size() == 3 && in[2].shape != Shape{m}) fail("bias must be [" + std::to_string(m) + "], got " + in[2].toString());
  auto strides = pairOr(attrs, "strides", 1, 2);
  auto dilations = pairOr(attrs, "dilations", 1, 2);
  auto pads = pairOr(attrs, "pads", 0, 4);
  auto outputPadding = pairOr(attrs, "output_padding", 0, 2);
  Shape out = {x[0], m, 0, 0};
  for (size_t i = 0; i < 2; ++i) {
    if (strides[i] < 1 || dilations[i] < 1) fail("strides and dilations must be positive");
    out[i + 2] = strides[i] * (x[i + 2] - 1) + outputPadding[i] + (w[i + 2] - 1) * dilations[i] + 1 - pads[i] - pads[i + 2];
    if (out[i + 2] < 1) fail("conv-transpose output would be empty");
  }
  return {in[0].dtype, out};
}

// Resize: `sizes` is the output shape; `scales` (one per axis) what the coordinate transform
// divides by; mode nearest|linear|cubic.
TensorType resizeOutput(const Attributes& attrs, std::span<const TensorType> in) {
  auto sizes = attrs.getInts("sizes");
  auto scales = attrs.getFloats("scales");
  if (static_cast<int64_t>(sizes.size()) != in[0].rank() || scales.size() != sizes.size())
    fail("resize needs one size and one scale per axis");
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || !(scales[d] > 0.0f)) fail("resize sizes must be non-negative and scales positive");
  std::string mode = attrs.getString("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic") fail("unknown resize mode '" + mode + "'");
  return {in[0].dtype, sizes};
}

// Enlarge (TENSAT): zero-pads kernel W[M,C,kh,kw] to the spatial size of Ref's kernel, centred.
TensorType enlargeOutput(std::span<const TensorType> in) {
  expectInputs(in, 2, 2);
  expectRank(in[0], 4, "enlarge weight");
  expectRank(in[1], 4, "enlarge reference");
  Shape out = in[0].shape;
  if (in[1].shape[2] < out[2] || in[1].shape[3] < out[3]) fail("enlarge reference kernel is smaller than the weight");
  if ((in[1].shape[2] - out[2]) % 2 != 0 || (in[1].shape[3] - out[3]) % 2 != 0) fail("enlarge must grow each side evenly");
  out[2] = in[1].shape[2];
  out[3] = in[1].shape[3];
  return {in[0].dtype, out};
}

// MergeGroups (TENSAT merge): the weight W[M,C/g,kh,kw] of a conv with `groups` = g groups
// becomes the block-diagonal weight [M,count*C/g,kh,kw] of the same conv with g/count groups.
TensorType mergeGroupsOutput(const Attributes& attrs, std::span<const TensorType> in) {
  expectInputs(in, 1, 1);
  expectRank(in[0], 4, "merge weight");
  int64_t count = attrs.getInt("count", 0);
  int64_t groups = attrs.getInt("groups", 0);
  if (count < 1) fail("merge count must be >= 1");
  if (groups < 1 || groups % count != 0) fail("merge count " + std::to_string(count) + " must divide the groups " + std::to_string(groups));
  if (in[0].shape[0] % groups != 0) fail("the groups must divide the output channels");
  Shape out = in[0].shape;
  out[1] *= count;
  return {in[0].dtype, out};
}

// FoldBatchNormWeight (w, scale, var){epsilon}: the conv weight with a following batchnorm folded
// in, w * scale / sqrt(var + epsilon) per output channel.
TensorType foldWeightOutput(std::span<const TensorType> in) {
  expectInputs(in, 3, 3);
  if (in[0].rank() < 2) fail("the folded weight must have rank >= 2");
  for (size_t i = 1; i < 3; ++i)
    if (in[i].shape != Shape{in[0].shape[0]}) fail("batchnorm parameter must be [" + std::to_string(in[0].shape[0]) + "], got " + in[i].toString());
  return in[0];
}

// FoldBatchNormBias (scale, bias, mean, var[, convBias]){epsilon}:
// (convBias - mean) * scale / sqrt(var + epsilon) + bias, with convBias = 0 when absent.
TensorType foldBiasOutput(std::span<const TensorType> in) {
  expectInputs(in, 4, 5);
  for (const TensorType& t : in)
    if (t.rank() != 1 || t.shape != in[0].shape) fail("batchnorm parameters must all be [C], got " + t.toString());
  return in[0];
}

} // namespace

int64_t normalizeAxis(int64_t axis, int64_t rank) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank) fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return normalized;
}

Shape broadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) fail("shapes " + shapeToString(a) + " and " + shapeToString(b) + " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int64_t windowOutputSize(int64_t input, int64_t kernel, int64_t stride, int64_t padBegin, int64_t padEnd,
                         int64_t dilation, bool ceilMode) {
  if (kernel < 1 || stride < 1 || dilation < 1) fail("kernel, stride and dilation must be positive");
  if (padBegin < 0 || padEnd < 0) fail("pads must be non-negative");
  int64_t span = dilation * (kernel - 1) + 1;
  int64_t padded = input + padBegin + padEnd;
  if (padded < span) fail("window " + std::to_string(span) + " is larger than the padded input " + std::to_string(padded));
  int64_t steps = padded - span;
  int64_t out = (ceilMode ? (steps + stride - 1) / stride : steps / stride) + 1;
  // With ceil_mode, a last window that starts inside the right padding is dropped (ONNX/PyTorch).
  if (ceilMode && (out - 1) * stride >= input + padBegin) --out;
  return out;
}

// ONNX's LSTM with its optional inputs present but sequence_lens last and optional: X, W, R, B,
// initial_h, initial_c, P and sequence_lens (integers); outputs Y, Y_h, Y_c. layout 1 puts the
// batch first.
static std::vector<TensorType> lstmOutputs(const Attributes& attrs, std::span<const TensorType> in) {
  const int64_t hidden = attrs.getInt("hidden_size", 0);
  if (hidden < 1) fail("LSTM needs a positive hidden_size");
  const std::string direction = attrs.getString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    fail("LSTM direction must be forward, reverse or bidirectional, got '" + direction + "'");
  const int64_t layout = attrs.getInt("layout", 0);
  if (layout != 0 && layout != 1) fail("LSTM layout must be 0 or 1");
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  expectRank(in[0], 3, "LSTM input X");
  for (size_t i = 0; i < 7; ++i) {
    expectFloat(in[i], "LSTM operand");
    expectDtype(in[i], in[0].dtype, "LSTM operand");
  }
  const int64_t seq = in[0].shape[layout == 0 ? 0 : 1], batch = in[0].shape[layout == 0 ? 1 : 0], size = in[0].shape[2];
  auto expectShape = [](const TensorType& t, const Shape& shape, const char* what) {
    if (t.shape != shape) fail(std::string("LSTM ") + what + " must be " + shapeToString(shape) + ", got " + t.toString());
  };
  expectShape(in[1], {dirs, 4 * hidden, size}, "W");
  expectShape(in[2], {dirs, 4 * hidden, hidden}, "R");
  expectShape(in[3], {dirs, 8 * hidden}, "B");
  const Shape state = layout == 0 ? Shape{dirs, batch, hidden} : Shape{batch, dirs, hidden};
  expectShape(in[4], state, "initial_h");
  expectShape(in[5], state, "initial_c");
  expectShape(in[6], {dirs, 3 * hidden}, "P");
  if (in.size() == 8) {
    if (!isInteger(in[7].dtype) || in[7].dtype == DType::Bool) fail("LSTM sequence_lens must hold integers, got " + in[7].toString());
    expectShape(in[7], {batch}, "sequence_lens");
  }
  const DType dtype = in[0].dtype;
  const Shape y = layout == 0 ? Shape{seq, dirs, batch, hidden} : Shape{batch, seq, dirs, hidden};
  return {TensorType{dtype, y}, TensorType{dtype, state}, TensorType{dtype, state}};
}

std::vector<TensorType> inferOutputTypes(OpKind kind, const Attributes& attrs, std::span<const TensorType> in) {
  const OpInfo& info = opInfo(kind);
  if (static_cast<int>(in.size()) < info.minInputs || (info.maxInputs >= 0 && static_cast<int>(in.size()) > info.maxInputs))
    expectInputs(in, info.minInputs, info.maxInputs < 0 ? in.size() : info.maxInputs);
  for (const TensorType& t : in)
    for (int64_t d : t.shape)
      if (d < 0) fail("input " + t.toString() + " has an unknown or negative dimension");

  switch (kind) {
  case OpKind::Input:
  case OpKind::Weight:
  case OpKind::Opaque: fail("has no shape rule: its types are given, not inferred");
  case OpKind::Conv: return {convOutput(attrs, in)};
  case OpKind::ConvTranspose: return {convTransposeOutput(attrs, in)};
  case OpKind::Gemm: return {gemmOutput(attrs, in)};
  case OpKind::MatMul: return {matmulOutput(in)};
  case OpKind::LSTM: return lstmOutputs(attrs, in);
  case OpKind::BatchNorm: return {batchNormOutput(in)};
  case OpKind::LayerNorm: return {layerNormOutput(attrs, in)};
  case OpKind::InstanceNorm:
    if (in[0].rank() < 3) fail("instance norm input must have rank >= 3");
    for (size_t i = 1; i < 3; ++i)
      if (in[i].shape != Shape{in[0].shape[1]}) fail("instance norm parameter must be [C], got " + in[i].toString());
    return {in[0]};
  case OpKind::LRN:
  case OpKind::LrnDenominator:
    expectRank(in[0], 4, "LRN input");
    if (attrs.getInt("size", 0) < 1) fail("LRN size must be >= 1");
    return {in[0]};
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Hardmax: normalizeAxis(attrs.getInt("axis", -1), in[0].rank()); return {in[0]};
  case OpKind::PRelu:
    expectSameDtype(in);
    if (broadcastShapes(in[0].shape, in[1].shape) != in[0].shape) fail("prelu slope " + in[1].toString() + " does not broadcast to the input");
    return {in[0]};
  case OpKind::Abs:
  case OpKind::Sign:
  case OpKind::Log:
  case OpKind::Reciprocal:
  case OpKind::Floor:
  case OpKind::Ceil:
  case OpKind::Round:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Tan:
  case OpKind::Asin:
  case OpKind::Acos:
  case OpKind::Atan:
  case OpKind::Sinh:
  case OpKind::Cosh:
  case OpKind::Asinh:
  case OpKind::Acosh:
  case OpKind::Atanh:
  case OpKind::Softplus:
  case OpKind::Softsign:
  case OpKind::Elu:
  case OpKind::Selu:
  case OpKind::Celu:
  case OpKind::LeakyRelu:
  case OpKind::ThresholdedRelu:
  case OpKind::HardSigmoid:
  case OpKind::HardSwish:
  case OpKind::Shrink:
  case OpKind::Mish: return {in[0]};
  case OpKind::CumSum: normalizeAxis(attrs.getInt("axis", 0), in[0].rank()); return {in[0]};
  case OpKind::Trilu: return {triluOutput(in)};
  case OpKind::IsNaN:
  case OpKind::IsInf:
    expectFloat(in[0], "IsNaN/IsInf input");
    return {TensorType{DType::Bool, in[0].shape}};
  case OpKind::Not:
    expectDtype(in[0], DType::Bool, "not input");
    return {in[0]};
  case OpKind::Equal:
  case OpKind::Less:
  case OpKind::LessOrEqual:
  case OpKind::Greater:
  case OpKind::GreaterOrEqual:
    expectSameDtype(in);
    return {TensorType{DType::Bool, broadcastShapes(in[0].shape, in[1].shape)}};
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor:
    expectDtype(in[0], DType::Bool, "logical operand");
    expectDtype(in[1], DType::Bool, "logical operand");
    return {TensorType{DType::Bool, broadcastShapes(in[0].shape, in[1].shape)}};
  case OpKind::Where: return {whereOutput(in)};
  case OpKind::Cast: return {castOutput(attrs, in)};
  case OpKind::Mean:
  case OpKind::Min:
  case OpKind::Max:
  case OpKind::Mod: expectSameDtype(in); return {broadcastOutput(in)};
  case OpKind::Relu:
  case OpKind::Sigmoid:
  case OpKind::Tanh:
  case OpKind::Erf:
  case OpKind::Gelu:
  case OpKind::Sqrt:
  case OpKind::Exp:
  case OpKind::Neg:
  case OpKind::Clip:
  case OpKind::Dropout:
  case OpKind::Identity: return {in[0]};
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div: expectSameDtype(in); return {broadcastOutput(in)};
  case OpKind::Sum: expectSameDtype(in); return {broadcastOutput(in)};
  case OpKind::Pow: return {broadcastOutput(in)}; // the exponent may have another type
  case OpKind::ScalarMul:
    if (in[1].numel() != 1) fail("smul needs a scalar second operand, got " + in[1].toString());
    return {in[0]};
  case OpKind::MaxPool:
  case OpKind::AveragePool: return {poolOutput(attrs, in)};
  case OpKind::GlobalAveragePool:
  case OpKind::GlobalMaxPool: {
    if (in[0].rank() < 3) fail("global pool input must have rank >= 3");
    TensorType out = in[0];
    std::fill(out.shape.begin() + 2, out.shape.end(), 1);
    return {out};
  }
  case OpKind::ReduceMean:
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceL1:
  case OpKind::ReduceL2:
  case OpKind::ReduceLogSum:
  case OpKind::ReduceLogSumExp:
  case OpKind::ReduceSumSquare: return {reduceOutput(attrs, in)};
  case OpKind::ArgMax:
  case OpKind::ArgMin: return {argReduceOutput(attrs, in)};
  case OpKind::Concat: return {concatOutput(attrs, in)};
  case OpKind::Split: return splitOutputs(attrs, in);
  case OpKind::Reshape: return {reshapeOutput(attrs, in)};
  case OpKind::Flatten: return {flattenOutput(attrs, in)};
  case OpKind::Transpose: return {transposeOutput(attrs, in)};
  case OpKind::Unsqueeze: return {unsqueezeOutput(attrs, in)};
  case OpKind::Squeeze: return {squeezeOutput(attrs, in)};
  case OpKind::Slice: return {sliceOutput(attrs, in)};
  case OpKind::Gather: return {gatherOutput(attrs, in)};
  case OpKind::Pad: return {padOutput(attrs, in)};
  case OpKind::Resize: return {resizeOutput(attrs, in)};
  case OpKind::Expand: return {expandOutput(attrs, in)};
  case OpKind::Tile: return {tileOutput(attrs, in)};
  case OpKind::DepthToSpace:
  case OpKind::SpaceToDepth: return {depthToSpaceOutput(kind, attrs, in)};
  case OpKind::Enlarge: return {enlargeOutput(in)};
  case OpKind::MergeGroups: return {mergeGroupsOutput(attrs, in)};
  case OpKind::FoldBatchNormWeight: return {foldWeightOutput(in)};
  case OpKind::FoldBatchNormBias: return {foldBiasOutput(in)};
  }
  fail("unknown op kind");
}

} // namespace tessera
