#include "onnx/ConstantFolding.h"

#include "ir/ShapeInference.h"
#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/OnnxNode.h"
#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace tessera::onnx_io {

namespace {

using Ints = std::vector<int64_t>;

// A small integer constant as folding sees it: dense values in row-major order.
struct IntTensor {
  DType dtype = DType::Int64;
  Shape shape;
  Ints values;
};

std::optional<IntTensor> smallIntConstant(const ImportContext& ctx, const OnnxNode& node, int i) {
  if (!node.hasInput(i)) return std::nullopt;
  const Tensor* tensor = ctx.constant(node.input(i));
  if (!tensor || tensor->holdsFloats() || tensor->numel() > kMaxFoldElements) return std::nullopt;
  IntTensor result{tensor->dtype(), tensor->shape(), Ints(static_cast<size_t>(tensor->numel()))};
  for (int64_t k = 0; k < tensor->numel(); ++k) result.values[static_cast<size_t>(k)] = tensor->intAt(k);
  return result;
}

Tensor toTensor(IntTensor t) { return Tensor::fromInts({t.dtype, std::move(t.shape)}, std::move(t.values)); }

Ints rowMajorStrides(const Shape& shape) {
  Ints strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

int64_t normalizedAxis(const OnnxNode& node, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) node.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

// Axes from the attribute (before `inputSinceOpset`) or from constant input `inputIndex`.
// nullopt: the axes input is not a constant, so the node cannot fold.
std::optional<Ints> axesOf(const ImportContext& ctx, const OnnxNode& node, int64_t inputSinceOpset, int inputIndex) {
  if (ctx.opset < inputSinceOpset) {
    if (node.numInputs() > inputIndex) return std::nullopt; // malformed: left to the op importer
    return node.getInts("axes");
  }
  if (!node.hasInput(inputIndex)) return Ints{};
  auto axes = smallIntConstant(ctx, node, inputIndex);
  if (!axes) return std::nullopt;
  return axes->values;
}

std::optional<IntTensor> foldGather(const ImportContext& ctx, const OnnxNode& node) {
  auto data = smallIntConstant(ctx, node, 0);
  auto indices = smallIntConstant(ctx, node, 1);
  if (!data || !indices) return std::nullopt;
  int64_t rank = static_cast<int64_t>(data->shape.size());
  if (rank == 0) node.fail("cannot gather from a scalar");
  int64_t axis = normalizedAxis(node, node.getInt("axis", 0), rank);
  Shape outShape(data->shape.begin(), data->shape.begin() + axis);
  outShape.insert(outShape.end(), indices->shape.begin(), indices->shape.end());
  outShape.insert(outShape.end(), data->shape.begin() + axis + 1, data->shape.end());
  if (checkedNumel(outShape, node.label()) > kMaxFoldElements) return std::nullopt;
  int64_t outer = numelOf(Shape(data->shape.begin(), data->shape.begin() + axis));
  int64_t inner = numelOf(Shape(data->shape.begin() + axis + 1, data->shape.end()));
  int64_t dim = data->shape[static_cast<size_t>(axis)];
  IntTensor out{data->dtype, outShape, {}};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : indices->values) {
      if (index < -dim || index >= dim) node.fail("index " + std::to_string(index) + " is out of range for size " + std::to_string(dim));
      int64_t row = index < 0 ? index + dim : index;
      for (int64_t i = 0; i < inner; ++i) out.values.push_back(data->values[static_cast<size_t>((o * dim + row) * inner + i)]);
    }
  return out;
}

std::optional<IntTensor> foldConcat(const ImportContext& ctx, const OnnxNode& node) {
  if (node.numInputs() < 1) return std::nullopt;
  std::vector<IntTensor> parts;
  for (int i = 0; i < node.numInputs(); ++i) {
    auto part = smallIntConstant(ctx, node, i);
    if (!part) return std::nullopt;
    parts.push_back(std::move(*part));
  }
  int64_t rank = static_cast<int64_t>(parts[0].shape.size());
  if (rank == 0) node.fail("cannot concatenate scalars");
  int64_t axis = normalizedAxis(node, node.getInt("axis", 0), rank);
  Shape outShape = parts[0].shape;
  outShape[static_cast<size_t>(axis)] = 0;
  for (const IntTensor& part : parts) {
    for (int64_t d = 0; d < rank; ++d)
      if (part.shape.size() != parts[0].shape.size() || (d != axis && part.shape[static_cast<size_t>(d)] != outShape[static_cast<size_t>(d)]))
        node.fail("inputs " + shapeToString(parts[0].shape) + " and " + shapeToString(part.shape) + " do not concatenate");
    outShape[static_cast<size_t>(axis)] += part.shape[static_cast<size_t>(axis)];
  }
  if (checkedNumel(outShape, node.label()) > kMaxFoldElements) return std::nullopt;
  int64_t outer = numelOf(Shape(outShape.begin(), outShape.begin() + axis));
  IntTensor out{parts[0].dtype, outShape, {}};
  for (int64_t o = 0; o < outer; ++o)
    for (const IntTensor& part : parts) {
      int64_t chunk = numelOf(Shape(part.shape.begin() + axis, part.shape.end()));
      auto begin = part.values.begin() + o * chunk;
      out.values.insert(out.values.end(), begin, begin + chunk);
    }
  return out;
}

std::optional<IntTensor> foldUnsqueeze(const ImportContext& ctx, const OnnxNode& node) {
  auto data = smallIntConstant(ctx, node, 0);
  auto axes = axesOf(ctx, node, 13, 1);
  if (!data || !axes) return std::nullopt;
  int64_t outRank = static_cast<int64_t>(data->shape.size() + axes->size());
  if (outRank > static_cast<int64_t>(kMaxRank)) node.fail("result rank " + std::to_string(outRank) + " is too large");
  std::vector<bool> inserted(static_cast<size_t>(outRank), false);
  for (int64_t axis : *axes) {
    int64_t a = normalizedAxis(node, axis, outRank);
    if (inserted[static_cast<size_t>(a)]) node.fail("axis " + std::to_string(axis) + " repeats");
    inserted[static_cast<size_t>(a)] = true;
  }
  Shape outShape;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d) outShape.push_back(inserted[static_cast<size_t>(d)] ? 1 : data->shape[next++]);
  data->shape = outShape;
  return data;
}

std::optional<IntTensor> foldSqueeze(const ImportContext& ctx, const OnnxNode& node) {
  auto data = smallIntConstant(ctx, node, 0);
  auto axes = axesOf(ctx, node, 13, 1);
  if (!data || !axes) return std::nullopt;
  int64_t rank = static_cast<int64_t>(data->shape.size());
  std::vector<bool> removed(static_cast<size_t>(rank), false);
  for (int64_t axis : *axes) {
    int64_t a = normalizedAxis(node, axis, rank);
    if (data->shape[static_cast<size_t>(a)] != 1) node.fail("cannot squeeze axis " + std::to_string(axis) + " of size " + std::to_string(data->shape[static_cast<size_t>(a)]));
    removed[static_cast<size_t>(a)] = true;
  }
  Shape outShape;
  for (int64_t d = 0; d < rank; ++d) {
    bool squeeze = axes->empty() ? data->shape[static_cast<size_t>(d)] == 1 : removed[static_cast<size_t>(d)];
    if (!squeeze) outShape.push_back(data->shape[static_cast<size_t>(d)]);
  }
  data->shape = outShape;
  return data;
}

std::optional<IntTensor> foldSlice(const ImportContext& ctx, const OnnxNode& node) {
  auto data = smallIntConstant(ctx, node, 0);
  if (!data) return std::nullopt;
  Ints starts, ends, axes, steps;
  if (ctx.opset < 10) {
    starts = node.getInts("starts");
    ends = node.getInts("ends");
    axes = node.getInts("axes");
  } else {
    std::vector<Ints*> targets = {&starts, &ends, &axes, &steps};
    for (int i = 1; i <= 4; ++i) {
      if (!node.hasInput(i)) continue;
      auto values = smallIntConstant(ctx, node, i);
      if (!values) return std::nullopt;
      *targets[static_cast<size_t>(i - 1)] = values->values;
    }
  }
  int64_t rank = static_cast<int64_t>(data->shape.size());
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    node.fail("starts, ends, axes and steps differ in length");

  // Per axis: first index, step, and count, clamped as ONNX specifies.
  Ints first(static_cast<size_t>(rank), 0), stride(static_cast<size_t>(rank), 1), count(data->shape);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < starts.size(); ++i) {
    size_t axis = static_cast<size_t>(normalizedAxis(node, axes[i], rank));
    if (seen[axis]) node.fail("axis " + std::to_string(axes[i]) + " repeats");
    seen[axis] = true;
    int64_t dim = data->shape[axis];
    int64_t step = steps[i];
    if (step == 0) node.fail("step is 0");
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    int64_t end = ends[i] < 0 ? ends[i] + dim : ends[i];
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      count[axis] = end > start ? 1 + static_cast<int64_t>(static_cast<uint64_t>(end - start - 1) / static_cast<uint64_t>(step)) : 0;
    } else {
      start = std::clamp<int64_t>(start, -1, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      uint64_t magnitude = static_cast<uint64_t>(-(step + 1)) + 1; // |step| without overflow
      count[axis] = start > end ? 1 + static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / magnitude) : 0;
    }
    first[axis] = start;
    // With one element taken the step never matters; keep it small so index arithmetic is exact.
    stride[axis] = count[axis] > 1 ? step : 1;
  }
  IntTensor out{data->dtype, count, {}};
  int64_t total = numelOf(count);
  Ints inStrides = rowMajorStrides(data->shape);
  Ints index(static_cast<size_t>(rank), 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) offset += (first[d] + index[d] * stride[d]) * inStrides[d];
    out.values.push_back(data->values[static_cast<size_t>(offset)]);
    for (size_t d = static_cast<size_t>(rank); d-- > 0;) {
      if (++index[d] < count[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// Two's-complement arithmetic, wrapping like the fixed-width integers ONNX runtimes use.
// Reshape and Transpose of small integer constants: the pads chain PyTorch exports for reflect
// padding (Concat, Reshape, Slice, Transpose, Reshape, Cast) must fold for Pad to be typed.
std::optional<IntTensor> foldReshape(const ImportContext& ctx, const OnnxNode& node) {
  if (ctx.opset < 5) return std::nullopt; // the old form takes the shape as an attribute
  auto data = smallIntConstant(ctx, node, 0);
  auto shape = smallIntConstant(ctx, node, 1);
  if (!data || !shape || shape->shape.size() != 1) return std::nullopt;
  const bool allowZero = node.getInt("allowzero", 0) != 0;
  Shape outShape;
  int64_t inferred = -1, known = 1;
  for (size_t d = 0; d < shape->values.size(); ++d) {
    int64_t dim = shape->values[d];
    if (dim == 0 && !allowZero) {
      if (d >= data->shape.size()) node.fail("shape copies axis " + std::to_string(d) + " of a rank-" + std::to_string(data->shape.size()) + " input");
      dim = data->shape[d];
    }
    if (dim == -1) {
      if (inferred >= 0) node.fail("shape has more than one -1");
      inferred = static_cast<int64_t>(d);
    } else if (dim < 0) {
      node.fail("shape has a negative size " + std::to_string(dim));
    } else {
      known *= dim;
    }
    outShape.push_back(dim);
  }
  const int64_t numel = static_cast<int64_t>(data->values.size());
  if (inferred >= 0) {
    if (known == 0 || numel % known != 0) node.fail("cannot reshape " + shapeToString(data->shape) + " to " + shapeToString(outShape));
    outShape[static_cast<size_t>(inferred)] = numel / known;
  } else if (known != numel) {
    node.fail("cannot reshape " + shapeToString(data->shape) + " to " + shapeToString(outShape));
  }
  data->shape = outShape;
  return data;
}

std::optional<IntTensor> foldTranspose(const ImportContext& ctx, const OnnxNode& node) {
  auto data = smallIntConstant(ctx, node, 0);
  if (!data) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(data->shape.size());
  Ints perm = node.getInts("perm");
  if (perm.empty())
    for (int64_t d = rank; d-- > 0;) perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != rank) node.fail("perm has " + std::to_string(perm.size()) + " axes for rank " + std::to_string(rank));
  std::vector<bool> used(static_cast<size_t>(rank), false);
  Shape outShape;
  for (int64_t& axis : perm) {
    axis = normalizedAxis(node, axis, rank);
    if (used[static_cast<size_t>(axis)]) node.fail("perm repeats axis " + std::to_string(axis));
    used[static_cast<size_t>(axis)] = true;
    outShape.push_back(data->shape[static_cast<size_t>(axis)]);
  }
  const Ints inStrides = rowMajorStrides(data->shape);
  const Ints outStrides = rowMajorStrides(outShape);
  IntTensor out{data->dtype, outShape, Ints(data->values.size())};
  for (int64_t i = 0; i < static_cast<int64_t>(out.values.size()); ++i) {
    int64_t source = 0, rest = i;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t index = rest / outStrides[static_cast<size_t>(d)];
      rest %= outStrides[static_cast<size_t>(d)];
      source += index * inStrides[static_cast<size_t>(perm[static_cast<size_t>(d)])];
    }
    out.values[static_cast<size_t>(i)] = data->values[static_cast<size_t>(source)];
  }
  return out;
}

int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

std::optional<IntTensor> foldArithmetic(const ImportContext& ctx, const OnnxNode& node) {
  auto a = smallIntConstant(ctx, node, 0);
  auto b = smallIntConstant(ctx, node, 1);
  if (!a || !b || node.numInputs() != 2) return std::nullopt;
  Shape outShape;
  try {
    outShape = broadcastShapes(a->shape, b->shape);
  } catch (const Error& e) {
    node.fail(e.what());
  }
  if (checkedNumel(outShape, node.label()) > kMaxFoldElements) return std::nullopt;
  const std::string& op = node.opType();
  // Comparisons give Bool: an If on a shape test ("is this axis 1?") then has a constant condition.
  const bool comparison = op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual";
  IntTensor out{comparison ? DType::Bool : a->dtype, outShape, {}};
  Ints outStrides = rowMajorStrides(outShape);
  auto sourceIndex = [&](const IntTensor& in, int64_t flat) {
    // Broadcast: trailing dims align; size-1 dims repeat.
    Ints inStrides = rowMajorStrides(in.shape);
    size_t shift = outShape.size() - in.shape.size();
    int64_t offset = 0;
    for (size_t d = 0; d < in.shape.size(); ++d) {
      int64_t coordinate = (flat / outStrides[d + shift]) % outShape[d + shift];
      if (in.shape[d] != 1) offset += coordinate * inStrides[d];
    }
    return static_cast<size_t>(offset);
  };
  int64_t total = numelOf(outShape);
  for (int64_t n = 0; n < total; ++n) {
    int64_t x = a->values[sourceIndex(*a, n)];
    int64_t y = b->values[sourceIndex(*b, n)];
    int64_t value = 0;
    if (op == "Add") value = wrapAdd(x, y);
    else if (op == "Sub") value = wrapSub(x, y);
    else if (op == "Mul") value = wrapMul(x, y);
    else if (op == "Equal") value = x == y;
    else if (op == "Less") value = x < y;
    else if (op == "Greater") value = x > y;
    else if (op == "LessOrEqual") value = x <= y;
    else if (op == "GreaterOrEqual") value = x >= y;
    else {
      if (y == 0) node.fail("divides by zero");
      value = (x == std::numeric_limits<int64_t>::min() && y == -1) ? x : x / y;
    }
    out.values.push_back(narrowInteger(out.dtype, value));
  }
  return out;
}

std::optional<Tensor> foldCast(const ImportContext& ctx, const OnnxNode& node) {
  if (!node.hasInput(0) || node.numInputs() != 1) return std::nullopt;
  const Tensor* input = ctx.constant(node.input(0));
  std::optional<DType> target = dtypeFromOnnx(static_cast<int32_t>(node.getInt("to", 0)));
  if (!input || input->numel() > kMaxFoldElements || !target || *target == DType::String) return std::nullopt;
  TensorType type{*target, input->shape()};
  int64_t numel = input->numel();
  if (isFloatingPoint(*target)) {
    Tensor out = Tensor::zeros(type);
    auto values = out.mutableFloats();
    for (int64_t i = 0; i < numel; ++i) {
      float v = static_cast<float>(input->valueAt(i));
      if (*target == DType::Float16) v = halfToFloat(floatToHalf(v));
      if (*target == DType::BFloat16) v = bfloat16ToFloat(floatToBfloat16(v));
      values[static_cast<size_t>(i)] = v;
    }
    return out;
  }
  Ints values(static_cast<size_t>(numel));
  for (int64_t i = 0; i < numel; ++i) {
    if (!input->holdsFloats()) {
      values[static_cast<size_t>(i)] = narrowInteger(*target, input->intAt(i));
      continue;
    }
    double v = input->valueAt(i);
    if (*target == DType::Bool) {
      values[static_cast<size_t>(i)] = v != 0.0 ? 1 : 0;
      continue;
    }
    // 2^63 is exactly representable; anything at or beyond it (or NaN) has no int64 value.
    if (!(std::trunc(v) >= -9223372036854775808.0 && std::trunc(v) < 9223372036854775808.0))
      node.fail("cannot cast " + std::to_string(v) + " to an integer");
    values[static_cast<size_t>(i)] = narrowInteger(*target, static_cast<int64_t>(std::trunc(v)));
  }
  return Tensor::fromInts(type, std::move(values));
}

// Range(start, limit, delta) of constant scalars: max(ceil((limit - start) / delta), 0) values.
std::optional<Tensor> foldRange(const ImportContext& ctx, const OnnxNode& node) {
  if (node.numInputs() != 3) return std::nullopt;
  const Tensor* operands[3];
  for (int i = 0; i < 3; ++i) {
    operands[i] = node.hasInput(i) ? ctx.constant(node.input(i)) : nullptr;
    if (!operands[i]) return std::nullopt;
    if (operands[i]->numel() != 1) node.fail("input '" + node.input(i) + "' must be a scalar");
    if (operands[i]->dtype() != operands[0]->dtype()) node.fail("start, limit and delta differ in type");
  }
  const double start = operands[0]->valueAt(0), limit = operands[1]->valueAt(0), delta = operands[2]->valueAt(0);
  if (delta == 0.0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta)) node.fail("needs finite bounds and a non-zero delta");
  const double count = std::max(std::ceil((limit - start) / delta), 0.0);
  if (count > static_cast<double>(kMaxFoldElements)) return std::nullopt;
  const DType type = operands[0]->dtype();
  const int64_t n = static_cast<int64_t>(count);
  if (isFloatingPoint(type)) {
    std::vector<float> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<float>(start + static_cast<double>(i) * delta);
    Tensor floats = Tensor::fromFloats({n}, std::move(values));
    if (type == DType::Float32) return floats;
    return std::nullopt; // other float widths stay opaque rather than change type
  }
  Ints values(static_cast<size_t>(n));
  const int64_t first = operands[0]->intAt(0), step = operands[2]->intAt(0);
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = narrowInteger(type, first + i * step);
  return Tensor::fromInts({type, {n}}, std::move(values));
}

std::optional<Tensor> foldShape(const ImportContext& ctx, const OnnxNode& node) {
  if (!node.hasInput(0) || node.numInputs() != 1) return std::nullopt;
  const TensorType& type = ctx.typeOf(node.input(0));
  if (type.dtype == DType::Undefined) return std::nullopt;
  int64_t rank = type.rank();
  if (node.opType() == "Size") return Tensor::fromInts({DType::Int64, {}}, {type.numel()});
  // Opset 15 added start/end; out-of-range values clamp.
  auto clampAxis = [&](int64_t axis) { return std::clamp<int64_t>(axis < 0 ? axis + rank : axis, 0, rank); };
  int64_t start = clampAxis(node.getInt("start", 0));
  int64_t end = clampAxis(node.getInt("end", rank));
  Ints dims;
  for (int64_t d = start; d < end; ++d) dims.push_back(type.shape[static_cast<size_t>(d)]);
  int64_t count = static_cast<int64_t>(dims.size());
  return Tensor::fromInts({DType::Int64, {count}}, std::move(dims));
}

} // namespace

bool foldConstantNode(ImportContext& ctx, const OnnxNode& node) {
  const std::string& op = node.opType();
  if (node.numOutputs() != 1 || node.output(0).empty()) return false;
  std::optional<Tensor> result;
  auto fromInts = [](std::optional<IntTensor> t) { return t ? std::optional<Tensor>(toTensor(std::move(*t))) : std::nullopt; };
  if (op == "Shape" || op == "Size") {
    result = foldShape(ctx, node);
  } else if (op == "Range") {
    result = foldRange(ctx, node);
  } else if (op == "Cast") {
    result = foldCast(ctx, node);
  } else if (op == "Identity") {
    const Tensor* input = node.hasInput(0) ? ctx.constant(node.input(0)) : nullptr;
    if (input && input->numel() <= kMaxFoldElements) result = *input;
  } else if (op == "Gather") {
    result = fromInts(foldGather(ctx, node));
  } else if (op == "Concat") {
    result = fromInts(foldConcat(ctx, node));
  } else if (op == "Unsqueeze") {
    result = fromInts(foldUnsqueeze(ctx, node));
  } else if (op == "Squeeze") {
    result = fromInts(foldSqueeze(ctx, node));
  } else if (op == "Slice") {
    result = fromInts(foldSlice(ctx, node));
  } else if (op == "Not") {
    if (auto x = smallIntConstant(ctx, node, 0); x && x->dtype == DType::Bool) {
      for (int64_t& v : x->values) v = v == 0 ? 1 : 0;
      result = toTensor(std::move(*x));
    }
  } else if (op == "Reshape") {
    result = fromInts(foldReshape(ctx, node));
  } else if (op == "Transpose") {
    result = fromInts(foldTranspose(ctx, node));
  } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Equal" || op == "Less" || op == "Greater" ||
             op == "LessOrEqual" || op == "GreaterOrEqual") {
    result = fromInts(foldArithmetic(ctx, node));
  }
  if (!result) return false;
  ctx.defineConstant(node.output(0), std::move(*result));
  return true;
}

} // namespace tessera::onnx_io
