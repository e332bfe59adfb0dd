// The ops whose shape-like operands moved from attributes to inputs across opsets 9-21:
// Reshape, Split, Slice, Pad, Squeeze, Unsqueeze, the reductions and Clip; and those whose
// operand always was an input (Expand, Tile, CumSum, Trilu). Input operands must be
// constants (after folding); when one is computed at run time the node stays opaque.
#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/ImportOps.h"
#include "onnx/OnnxNode.h"

#include <limits>

namespace tessera::onnx_io {

namespace {
using Ints = std::vector<int64_t>;
} // namespace

ImportedOutputs importReshape(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"allowzero"})) return std::nullopt;
  node.expectInputs(2, 2);
  auto shape = constantInts(ctx, node, 1);
  if (!shape) return std::nullopt;
  checkBoundedInts(*shape, node.label() + ": shape");
  // The IR multiplies the target's dimensions (a 0 copies the input's); refuse products beyond
  // the element limit before it does.
  const Shape& input = ctx.typeOf(node.input(0)).shape;
  bool allowZero = node.getInt("allowzero", 0) != 0;
  int64_t product = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    int64_t d = (*shape)[i];
    if (d == 0 && !allowZero && i < input.size()) d = input[i];
    if (d <= 0) continue;
    if (product > kMaxElements / d) node.fail("target shape " + shapeToString(*shape) + " is too large");
    product *= d;
  }
  Attributes attrs{{"shape", *shape}};
  if (node.has("allowzero")) attrs.set("allowzero", node.getInt("allowzero", 0));
  return singleOutput(ctx.addNode(node, OpKind::Reshape, {ctx.materialize(node.input(0))}, attrs));
}

// Split sizes are explicit in the IR: the `split` attribute (< 13), the split input (>= 13),
// `num_outputs` (>= 18: ceil-sized chunks, the last one smaller) or an equal split.
ImportedOutputs importSplit(ImportContext& ctx, const OnnxNode& node) {
  Ints sizes;
  if (ctx.opset < 13) {
    if (!node.onlyAttributes({"axis", "split"})) return std::nullopt;
    node.expectInputs(1, 1);
    sizes = node.getInts("split");
  } else {
    if (!node.onlyAttributes(ctx.opset >= 18 ? std::initializer_list<std::string_view>{"axis", "num_outputs"}
                                             : std::initializer_list<std::string_view>{"axis"}))
      return std::nullopt;
    node.expectInputs(1, 2);
    if (node.hasInput(1)) {
      auto given = constantInts(ctx, node, 1);
      if (!given) return std::nullopt;
      sizes = *given;
    }
  }
  int64_t outputs = node.proto().output_size();
  if (outputs < 1) node.fail("has no outputs");
  const TensorType& x = ctx.typeOf(node.input(0));
  int64_t axis = normalizedAxis(node, node.getInt("axis", 0), x.rank());
  int64_t dim = x.shape[static_cast<size_t>(axis)];
  if (!sizes.empty()) {
    if (static_cast<int64_t>(sizes.size()) != outputs)
      node.fail("lists " + std::to_string(sizes.size()) + " split sizes for " + std::to_string(outputs) + " outputs");
    checkBoundedInts(sizes, node.label() + ": split");
  } else if (ctx.opset >= 18 && node.has("num_outputs")) {
    int64_t count = node.getInt("num_outputs", 0);
    if (count != outputs) node.fail("num_outputs is " + std::to_string(count) + " but the node has " + std::to_string(outputs) + " outputs");
    int64_t chunk = (dim + count - 1) / count;
    sizes.assign(static_cast<size_t>(count), chunk);
    sizes.back() = dim - chunk * (count - 1);
    if (sizes.back() < 0) node.fail("cannot split " + std::to_string(dim) + " into " + std::to_string(count) + " chunks");
  } else {
    if (dim % outputs != 0) node.fail("cannot split size " + std::to_string(dim) + " evenly into " + std::to_string(outputs) + " outputs");
    sizes.assign(static_cast<size_t>(outputs), dim / outputs);
  }
  NodeId id = ctx.addNode(node, OpKind::Split, {ctx.materialize(node.input(0))}, {{"axis", axis}, {"split", sizes}});
  std::vector<ValueRef> values;
  for (int64_t i = 0; i < outputs; ++i) values.push_back({id, static_cast<uint32_t>(i)});
  return values;
}

// Slice: attributes starts, ends, axes in opset 9; inputs starts, ends, [axes], [steps] from 10.
ImportedOutputs importSlice(ImportContext& ctx, const OnnxNode& node) {
  Attributes attrs;
  if (ctx.opset < 10) {
    if (!node.onlyAttributes({"starts", "ends", "axes"})) return std::nullopt;
    node.expectInputs(1, 1);
    attrs.set("starts", node.getInts("starts"));
    attrs.set("ends", node.getInts("ends"));
    if (node.has("axes")) attrs.set("axes", node.getInts("axes"));
  } else {
    if (!node.onlyAttributes({})) return std::nullopt;
    node.expectInputs(3, 5);
    const char* names[] = {"starts", "ends", "axes", "steps"};
    for (int i = 1; i <= 4; ++i) {
      if (!node.hasInput(i)) continue;
      auto values = constantInts(ctx, node, i);
      if (!values) return std::nullopt;
      attrs.set(names[i - 1], *values);
    }
  }
  // Starts and ends are clamped by the shape rule; a step's magnitude enters its arithmetic.
  checkBoundedInts(attrs.getInts("steps"), node.label() + ": steps");
  return singleOutput(ctx.addNode(node, OpKind::Slice, {ctx.materialize(node.input(0))}, attrs));
}

// Pad: attributes pads, mode, value before opset 11; inputs pads, [constant_value] from 11 and
// [axes] from 18. The IR always lists 2 * rank pads.
ImportedOutputs importPad(ImportContext& ctx, const OnnxNode& node) {
  Ints pads;
  Ints axes;
  float value = 0.0f;
  if (ctx.opset < 11) {
    if (!node.onlyAttributes({"mode", "pads", "value"})) return std::nullopt;
    node.expectInputs(1, 1);
    pads = node.getInts("pads");
    value = node.getFloat("value", 0.0f);
  } else {
    if (!node.onlyAttributes({"mode"})) return std::nullopt;
    node.expectInputs(2, ctx.opset >= 18 ? 4 : 3);
    auto given = constantInts(ctx, node, 1);
    if (!given) return std::nullopt;
    pads = *given;
    if (node.hasInput(2)) {
      auto constant = constantScalar(ctx, node, 2);
      if (!constant) return std::nullopt;
      value = *constant;
    }
    if (node.hasInput(3)) {
      auto given = constantInts(ctx, node, 3);
      if (!given) return std::nullopt;
      axes = *given;
    }
  }
  std::string mode = node.getString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") return std::nullopt; // "wrap" (opset 19)
  checkBoundedInts(pads, node.label() + ": pads");
  const TensorType& x = ctx.typeOf(node.input(0));
  int64_t rank = x.rank();
  if (node.hasInput(3)) {
    size_t count = axes.size();
    if (pads.size() != 2 * count) node.fail("has " + std::to_string(pads.size()) + " pads for " + std::to_string(count) + " axes");
    Ints full(static_cast<size_t>(2 * rank), 0);
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (size_t j = 0; j < count; ++j) {
      size_t axis = static_cast<size_t>(normalizedAxis(node, axes[j], rank));
      if (seen[axis]) node.fail("axis " + std::to_string(axes[j]) + " repeats");
      seen[axis] = true;
      full[axis] = pads[j];
      full[axis + static_cast<size_t>(rank)] = pads[j + count];
    }
    pads = full;
  }
  Attributes attrs{{"pads", pads}, {"mode", mode}};
  if (mode == "constant") attrs.set("value", value);
  return singleOutput(ctx.addNode(node, OpKind::Pad, {ctx.materialize(node.input(0))}, attrs));
}

// Squeeze / Unsqueeze: `axes` attribute before opset 13, input from 13 (optional for Squeeze).
ImportedOutputs importSqueezeOrUnsqueeze(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  Ints axes;
  if (ctx.opset < 13) {
    if (!node.onlyAttributes({"axes"})) return std::nullopt;
    node.expectInputs(1, 1);
    axes = node.getInts("axes");
  } else {
    if (!node.onlyAttributes({})) return std::nullopt;
    node.expectInputs(kind == OpKind::Unsqueeze ? 2 : 1, 2);
    if (node.hasInput(1)) {
      auto given = constantInts(ctx, node, 1);
      if (!given) return std::nullopt;
      axes = *given;
    }
  }
  if (kind == OpKind::Unsqueeze && axes.empty()) node.fail("needs axes");
  if (axes.size() > kMaxRank) node.fail("has too many axes");
  Attributes attrs;
  if (!axes.empty()) attrs.set("axes", axes);
  return singleOutput(ctx.addNode(node, kind, {ctx.materialize(node.input(0))}, attrs));
}

// Reductions: `axes` attribute until its input form (opset 13 for ReduceSum, 18 for the others),
// where noop_with_empty_axes turns an empty axes list into Identity.
ImportedOutputs importReduce(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  const int64_t axesInputSince = kind == OpKind::ReduceSum ? 13 : 18;
  Ints axes;
  bool noopWhenEmpty = false;
  if (ctx.opset < axesInputSince) {
    if (!node.onlyAttributes({"axes", "keepdims"})) return std::nullopt;
    node.expectInputs(1, 1);
    axes = node.getInts("axes");
  } else {
    if (!node.onlyAttributes({"keepdims", "noop_with_empty_axes"})) return std::nullopt;
    node.expectInputs(1, 2);
    if (node.hasInput(1)) {
      auto given = constantInts(ctx, node, 1);
      if (!given) return std::nullopt;
      axes = *given;
    }
    noopWhenEmpty = node.getInt("noop_with_empty_axes", 0) != 0;
  }
  if (axes.size() > kMaxRank) node.fail("has too many axes");
  ValueRef input = ctx.materialize(node.input(0));
  if (axes.empty() && noopWhenEmpty) return singleOutput(ctx.addNode(node, OpKind::Identity, {input}, {}));
  Attributes attrs;
  if (!axes.empty()) attrs.set("axes", axes);
  if (node.has("keepdims")) attrs.set("keepdims", node.getInt("keepdims", 1));
  return singleOutput(ctx.addNode(node, kind, {input}, attrs));
}

// Ops whose operand is a constant integer input: Expand's shape, Tile's repeats, CumSum's axis
// and Trilu's optional k become the IR attributes of those names.
ImportedOutputs importWithConstantOperand(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  const char* operand = "shape";
  bool scalar = false, optional = false;
  std::vector<std::string_view> flags; // integer attributes kept as they are
  switch (kind) {
  case OpKind::Tile:
    if (!node.onlyAttributes({})) return std::nullopt;
    operand = "repeats";
    break;
  case OpKind::CumSum:
    if (!node.onlyAttributes({"exclusive", "reverse"})) return std::nullopt;
    operand = "axis";
    scalar = true;
    flags = {"exclusive", "reverse"};
    break;
  case OpKind::Trilu:
    if (!node.onlyAttributes({"upper"})) return std::nullopt;
    operand = "k";
    scalar = optional = true;
    flags = {"upper"};
    break;
  default:
    if (!node.onlyAttributes({})) return std::nullopt;
    break;
  }
  Attributes attrs;
  node.expectInputs(optional ? 1 : 2, 2);
  for (std::string_view name : flags)
    if (node.has(name)) attrs.set(std::string(name), node.getInt(name, 0));
  if (node.hasInput(1)) {
    auto values = constantInts(ctx, node, 1);
    if (!values) return std::nullopt;
    checkBoundedInts(*values, node.label() + ": " + operand);
    if (scalar && values->size() != 1) node.fail(std::string(operand) + " must be a single integer");
    if (scalar)
      attrs.set(operand, values->front());
    else
      attrs.set(operand, *values);
  }
  return singleOutput(ctx.addNode(node, kind, {ctx.materialize(node.input(0))}, attrs));
}

// Clip: `min`/`max` attributes before opset 11, optional scalar inputs from 11. Constant float
// bounds become the IR's attributes; bounds computed at run time, and any bounds of an integer
// Clip, become Max(x, min) then Min(., max), which is ONNX's definition of Clip.
ImportedOutputs importClip(ImportContext& ctx, const OnnxNode& node) {
  Attributes attrs;
  ValueRef input = ctx.materialize(node.input(0));
  if (ctx.opset < 11) {
    if (!node.onlyAttributes({"min", "max"})) return std::nullopt;
    node.expectInputs(1, 1);
    for (const char* name : {"min", "max"})
      if (node.has(name)) attrs.set(name, node.getFloat(name, 0.0f));
    return singleOutput(ctx.addNode(node, OpKind::Clip, {input}, attrs));
  }
  if (!node.onlyAttributes({})) return std::nullopt;
  node.expectInputs(1, 3);
  const bool floats = isFloatingPoint(ctx.typeOf(node.input(0)).dtype);
  bool runtimeBound = false;
  const char* names[] = {"min", "max"};
  for (int i = 1; i <= 2; ++i) {
    if (!node.hasInput(i)) continue;
    auto bound = floats ? constantScalar(ctx, node, i) : std::nullopt;
    if (!bound) {
      runtimeBound = true;
      continue;
    }
    attrs.set(names[i - 1], *bound);
  }
  if (floats && !runtimeBound) return singleOutput(ctx.addNode(node, OpKind::Clip, {input}, attrs));
  const bool hasMax = node.hasInput(2);
  if (!node.hasInput(1) && !hasMax) return singleOutput(ctx.addNode(node, OpKind::Identity, {input}, {}));
  if (node.hasInput(1)) input = {ctx.addNode(node, OpKind::Max, {input, ctx.materialize(node.input(1))}, {}, !hasMax), 0};
  if (hasMax) input = {ctx.addNode(node, OpKind::Min, {input, ctx.materialize(node.input(2))}, {}), 0};
  return std::vector<ValueRef>{input};
}

} // namespace tessera::onnx_io
