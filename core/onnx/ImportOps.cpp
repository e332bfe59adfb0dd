#include "onnx/ImportOps.h"

#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/OnnxNode.h"

#include <algorithm>
#include <cmath>

namespace tessera::onnx_io {

namespace {

using Ints = std::vector<int64_t>;

bool anyOutputRead(const ImportContext& ctx, const OnnxNode& node, int from) {
  for (int i = from; i < node.proto().output_size(); ++i)
    if (ctx.isRead(node.proto().output(i))) return true;
  return false;
}

Ints boundedInts(const OnnxNode& node, std::string_view name, Ints fallback) {
  Ints values = node.getInts(name, std::move(fallback));
  checkBoundedInts(values, node.label() + ": " + std::string(name));
  return values;
}

std::vector<ValueRef> dataInputs(ImportContext& ctx, const OnnxNode& node) {
  std::vector<ValueRef> inputs;
  for (int i = 0; i < node.numInputs(); ++i) {
    if (!node.hasInput(i)) node.fail("input " + std::to_string(i) + " is empty, which this op does not allow");
    inputs.push_back(ctx.materialize(node.input(i)));
  }
  return inputs;
}

// Explicit [top, left, bottom, right] pads for a 2-D window, resolving auto_pad the way ONNX
// defines it (SAME_UPPER puts the odd cell at the end, SAME_LOWER at the beginning).
Ints windowPads(const OnnxNode& node, const Shape& input, const Ints& kernel, const Ints& strides, const Ints& dilations) {
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET" || autoPad.empty()) return boundedInts(node, "pads", {0, 0, 0, 0});
  if (autoPad == "VALID") return {0, 0, 0, 0};
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") node.fail("unknown auto_pad '" + autoPad + "'");
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2) node.fail("needs 2-D kernel_shape, strides and dilations");
  Ints pads(4);
  for (size_t i = 0; i < 2; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1) node.fail("kernel, strides and dilations must be positive");
    int64_t in = input[i + 2];
    int64_t out = (in + strides[i] - 1) / strides[i];
    int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in);
    int64_t smaller = total / 2, larger = total - smaller;
    pads[i] = autoPad == "SAME_UPPER" ? smaller : larger;
    pads[i + 2] = autoPad == "SAME_UPPER" ? larger : smaller;
  }
  return pads;
}

// A 1-D Conv on [N, C, L] is the IR's 2-D Conv on a unit height: Unsqueeze -> Conv 1xK ->
// Squeeze. The export writes the same three ops, which any runtime runs, and the conv rules
// apply to the middle one. A constant weight is reshaped to [M, C/g, 1, K] at import.
ImportedOutputs importConv1d(ImportContext& ctx, const OnnxNode& node) {
  const TensorType& x = ctx.typeOf(node.input(0));
  const int64_t length = x.shape[2];
  const int64_t k = ctx.typeOf(node.input(1)).shape[2];
  const Ints strides = boundedInts(node, "strides", {1}), dilations = boundedInts(node, "dilations", {1});
  if (strides.size() != 1 || dilations.size() != 1) node.fail("a 1-D convolution needs one stride and one dilation");
  const int64_t stride = strides[0], dilation = dilations[0];
  Ints pads = {0, 0};
  const std::string autoPad = node.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET" || autoPad.empty()) {
    pads = boundedInts(node, "pads", {0, 0});
    if (pads.size() != 2) node.fail("a 1-D convolution needs 2 pads, got " + std::to_string(pads.size()));
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    if (stride < 1 || dilation < 1 || k < 1) node.fail("kernel, strides and dilations must be positive");
    const int64_t out = (length + stride - 1) / stride;
    const int64_t total = std::max<int64_t>(0, (out - 1) * stride + (k - 1) * dilation + 1 - length);
    const int64_t smaller = total / 2, larger = total - smaller;
    pads = autoPad == "SAME_UPPER" ? Ints{smaller, larger} : Ints{larger, smaller};
  } else if (autoPad != "VALID") {
    node.fail("unknown auto_pad '" + autoPad + "'");
  }
  Attributes attrs;
  if (node.has("kernel_shape")) {
    Ints kernel = boundedInts(node, "kernel_shape", {});
    if (kernel.size() != 1) node.fail("a 1-D convolution needs a 1-D kernel_shape");
    attrs.set("kernel_shape", Ints{1, kernel[0]});
  }
  attrs.set("pads", Ints{0, pads[0], 0, pads[1]});
  attrs.set("strides", Ints{1, stride});
  attrs.set("dilations", Ints{1, dilation});
  if (node.has("group")) attrs.set("group", node.getInt("group", 1));

  auto unitHeight = [&](ValueRef value) {
    return ValueRef{ctx.addNode(node, OpKind::Unsqueeze, {value}, {{"axes", Ints{2}}}, false), 0};
  };
  std::vector<ValueRef> inputs = {unitHeight(ctx.materialize(node.input(0)))};
  const Tensor* weight = ctx.constant(node.input(1));
  if (weight && (weight->isSplat() || weight->dtype() == DType::Float32)) {
    const std::string name = node.input(1) + "_unit_height";
    if (!ctx.defined(name)) {
      Shape shape = weight->shape();
      shape.insert(shape.begin() + 2, 1);
      ctx.defineConstant(name, weight->isSplat() ? Tensor::splat({weight->dtype(), shape}, weight->valueAt(0))
                                                 : Tensor::fromFloats(shape, {weight->floats().begin(), weight->floats().end()}));
    }
    inputs.push_back(ctx.materialize(name));
  } else {
    inputs.push_back(unitHeight(ctx.materialize(node.input(1))));
  }
  if (node.numInputs() == 3) {
    if (!node.hasInput(2)) node.fail("input 2 is empty, which this op does not allow");
    inputs.push_back(ctx.materialize(node.input(2)));
  }
  const NodeId conv = ctx.addNode(node, OpKind::Conv, std::move(inputs), attrs, false);
  return singleOutput(ctx.addNode(node, OpKind::Squeeze, {{conv, 0}}, {{"axes", Ints{2}}}));
}

ImportedOutputs importConv(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})) return std::nullopt;
  node.expectInputs(2, 3);
  const TensorType& x = ctx.typeOf(node.input(0));
  const TensorType& w = ctx.typeOf(node.input(1));
  if (x.rank() == 3 && w.rank() == 3) return importConv1d(ctx, node);
  if (x.rank() != 4 || w.rank() != 4) return std::nullopt; // 3-D convolutions stay opaque
  Ints strides = boundedInts(node, "strides", {1, 1});
  Ints dilations = boundedInts(node, "dilations", {1, 1});
  Ints kernel = {w.shape[2], w.shape[3]};
  Attributes attrs;
  if (node.has("kernel_shape")) attrs.set("kernel_shape", boundedInts(node, "kernel_shape", {}));
  attrs.set("pads", windowPads(node, x.shape, kernel, strides, dilations));
  attrs.set("strides", strides);
  attrs.set("dilations", dilations);
  // The IR derives the group count from C / W[1]; a stated group must agree (checked there).
  if (node.has("group")) attrs.set("group", node.getInt("group", 1));
  return singleOutput(ctx.addNode(node, OpKind::Conv, dataInputs(ctx, node), attrs));
}

// LSTM: the IR's form has B, initial_h, initial_c and P always present (zeros when absent, as ONNX
// defines them) and sequence_lens last, left out when absent or constant and equal to the
// sequence length.
// Other activations, clip and input_forget = 1 stay opaque.
ImportedOutputs importLstm(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"activations", "direction", "hidden_size", "input_forget", "layout"})) return std::nullopt;
  if (node.getInt("input_forget", 0) != 0) return std::nullopt;
  node.expectInputs(3, 8);
  const TensorType& x = ctx.typeOf(node.input(0));
  if (x.rank() != 3) node.fail("input X must have rank 3, got " + x.toString());
  const std::string direction = node.getString("direction", "forward");
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  const int64_t hidden = node.getInt("hidden_size", 0);
  const int64_t layout = node.getInt("layout", 0);
  if (hidden < 1) node.fail("needs a positive hidden_size");
  if (layout != 0 && layout != 1) node.fail("layout must be 0 or 1");
  if (node.has("activations")) {
    const onnx::AttributeProto& given = *node.attribute("activations");
    if (given.type() != onnx::AttributeProto::STRINGS) node.fail("activations must be a list of strings");
    for (int i = 0; i < given.strings_size(); ++i)
      if (given.strings(i) != (i % 3 == 0 ? "Sigmoid" : "Tanh")) return std::nullopt;
    if (given.strings_size() != 3 * dirs) node.fail("needs 3 activations per direction");
  }
  const int64_t seq = x.shape[layout == 0 ? 0 : 1], batch = x.shape[layout == 0 ? 1 : 0];
  bool fullLengths = !node.hasInput(4);
  if (const Tensor* lengths = node.hasInput(4) ? ctx.constant(node.input(4)) : nullptr) {
    fullLengths = true;
    for (int64_t i = 0; i < lengths->numel(); ++i) fullLengths = fullLengths && static_cast<int64_t>(lengths->valueAt(i)) == seq;
  }
  Attributes attrs{{"hidden_size", hidden}};
  if (direction != "forward") attrs.set("direction", direction);
  if (layout != 0) attrs.set("layout", layout);

  auto operand = [&](int i, const char* what, Shape zerosShape) {
    if (node.hasInput(i)) return ctx.materialize(node.input(i));
    const std::string name = node.proto().name().empty() ? "lstm" : node.proto().name();
    return ValueRef{ctx.graph.addWeight(name + "_" + what, Tensor::zeros({x.dtype, std::move(zerosShape)})), 0};
  };
  const Shape state = layout == 0 ? Shape{dirs, batch, hidden} : Shape{batch, dirs, hidden};
  if (!node.hasInput(1) || !node.hasInput(2)) node.fail("needs W and R");
  std::vector<ValueRef> inputs = {ctx.materialize(node.input(0)), ctx.materialize(node.input(1)), ctx.materialize(node.input(2)),
                                  operand(3, "B", {dirs, 8 * hidden}), operand(5, "initial_h", state), operand(6, "initial_c", state)};
  inputs.push_back(operand(7, "P", {dirs, 3 * hidden}));
  if (!fullLengths) inputs.push_back(ctx.materialize(node.input(4)));
  const NodeId lstm = ctx.addNode(node, OpKind::LSTM, std::move(inputs), attrs);
  return std::vector<ValueRef>{{lstm, 0}, {lstm, 1}, {lstm, 2}};
}

ImportedOutputs importPool(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  bool isMax = kind == OpKind::MaxPool;
  if (isMax && !node.onlyAttributes({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"}))
    return std::nullopt;
  if (!isMax && !node.onlyAttributes({"auto_pad", "ceil_mode", "count_include_pad", "dilations", "kernel_shape", "pads", "strides"}))
    return std::nullopt;
  node.expectInputs(1, 1);
  if (anyOutputRead(ctx, node, 1)) return std::nullopt; // MaxPool's Indices
  const TensorType& x = ctx.typeOf(node.input(0));
  if (x.rank() != 4) return std::nullopt;
  Ints kernel = boundedInts(node, "kernel_shape", {});
  Ints strides = boundedInts(node, "strides", {1, 1});
  Ints dilations = boundedInts(node, "dilations", {1, 1});
  Attributes attrs;
  attrs.set("kernel_shape", kernel);
  attrs.set("strides", strides);
  attrs.set("dilations", dilations);
  attrs.set("pads", windowPads(node, x.shape, kernel, strides, dilations));
  // With SAME padding the output size is ceil(in / stride) whatever ceil_mode says.
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (!same && node.has("ceil_mode")) attrs.set("ceil_mode", node.getInt("ceil_mode", 0));
  if (!isMax && node.has("count_include_pad")) attrs.set("count_include_pad", node.getInt("count_include_pad", 0));
  return singleOutput(ctx.addNode(node, kind, dataInputs(ctx, node), attrs));
}

ImportedOutputs importBatchNorm(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"epsilon", "momentum", "spatial", "training_mode"})) return std::nullopt;
  node.expectInputs(5, 5);
  // Training-mode outputs (running mean and variance, saved statistics) are not inference.
  if (anyOutputRead(ctx, node, 1) || node.getInt("training_mode", 0) != 0) return std::nullopt;
  // Opset 9's spatial=0 normalises per activation with [C, D1, ...] statistics.
  if (node.getInt("spatial", 1) == 0 && ctx.typeOf(node.input(0)).rank() > 2) return std::nullopt;
  Attributes attrs;
  if (node.has("epsilon")) attrs.set("epsilon", node.getFloat("epsilon", 1e-5f));
  return singleOutput(ctx.addNode(node, OpKind::BatchNorm, dataInputs(ctx, node), attrs));
}

ImportedOutputs importLayerNorm(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"axis", "epsilon", "stash_type"})) return std::nullopt;
  node.expectInputs(2, 3);
  Attributes attrs;
  if (node.has("axis")) attrs.set("axis", node.getInt("axis", -1));
  if (node.has("epsilon")) attrs.set("epsilon", node.getFloat("epsilon", 1e-5f));
  std::vector<ValueRef> inputs = dataInputs(ctx, node);
  NodeId normalized = ctx.addNode(node, OpKind::LayerNorm, inputs, attrs);
  if (!anyOutputRead(ctx, node, 1)) return singleOutput(normalized);
  // The IR's LayerNorm yields Y only; Mean and InvStdDev (kept axes of size 1) are spelled out:
  // mean(x), 1 / sqrt(mean((x - mean)^2) + epsilon) over the normalised axes.
  const TensorType& x = ctx.typeOf(node.input(0));
  const int64_t axis = normalizedAxis(node, node.getInt("axis", -1), x.rank());
  Ints axes;
  for (int64_t d = axis; d < x.rank(); ++d) axes.push_back(d);
  auto op = [&](OpKind kind, std::vector<ValueRef> operands, Attributes extra = {}) {
    return ValueRef{ctx.addNode(node, kind, std::move(operands), std::move(extra), false), 0};
  };
  const ValueRef mean = op(OpKind::ReduceMean, {inputs[0]}, {{"axes", axes}});
  const ValueRef centred = op(OpKind::Sub, {inputs[0], mean});
  const ValueRef variance = op(OpKind::ReduceMean, {op(OpKind::Mul, {centred, centred})}, {{"axes", axes}});
  const NodeId epsilon = ctx.graph.addWeight(node.output(0) + "_epsilon", Tensor::splat({x.dtype, {}}, node.getFloat("epsilon", 1e-5f)));
  const ValueRef invStdDev = op(OpKind::Reciprocal, {op(OpKind::Sqrt, {op(OpKind::Add, {variance, {epsilon, 0}})})});
  return std::vector<ValueRef>{{normalized, 0}, mean, invStdDev};
}

ImportedOutputs importLrn(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"alpha", "beta", "bias", "size"})) return std::nullopt;
  node.expectInputs(1, 1);
  if (ctx.typeOf(node.input(0)).rank() != 4) return std::nullopt;
  Attributes attrs;
  attrs.set("size", node.getInt("size", 0));
  for (const char* name : {"alpha", "beta", "bias"})
    if (node.has(name)) attrs.set(name, node.getFloat(name, 0.0f));
  return singleOutput(ctx.addNode(node, OpKind::LRN, dataInputs(ctx, node), attrs));
}

// Softmax, LogSoftmax and Hardmax before opset 13 coerce their input to 2-D at `axis` (default
// 1). That equals the new form only when the axis is the last one; otherwise Flatten -> op ->
// Reshape.
ImportedOutputs importSoftmax(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  if (!node.onlyAttributes({"axis"})) return std::nullopt;
  node.expectInputs(1, 1);
  const TensorType& x = ctx.typeOf(node.input(0));
  ValueRef input = ctx.materialize(node.input(0));
  if (ctx.opset >= 13) return singleOutput(ctx.addNode(node, kind, {input}, {{"axis", node.getInt("axis", -1)}}));
  if (x.rank() == 0) node.fail("needs an input of rank >= 1");
  int64_t axis = normalizedAxis(node, node.getInt("axis", 1), x.rank());
  if (axis == x.rank() - 1) return singleOutput(ctx.addNode(node, kind, {input}, {{"axis", axis}}));
  NodeId flat = ctx.addNode(node, OpKind::Flatten, {input}, {{"axis", axis}}, false);
  NodeId softmax = ctx.addNode(node, kind, {{flat, 0}}, {{"axis", int64_t(1)}});
  return singleOutput(ctx.addNode(node, OpKind::Reshape, {{softmax, 0}}, {{"shape", x.shape}}, false));
}

ImportedOutputs importDropout(ImportContext& ctx, const OnnxNode& node) {
  if (ctx.opset < 12) {
    if (!node.onlyAttributes({"ratio", "seed"})) return std::nullopt;
    node.expectInputs(1, 1);
  } else {
    if (!node.onlyAttributes({"seed"})) return std::nullopt;
    node.expectInputs(1, 3);
    // In training mode Dropout is random; a run-time training_mode cannot be assumed off.
    if (node.hasInput(2)) {
      auto training = constantInts(ctx, node, 2);
      if (!training || std::any_of(training->begin(), training->end(), [](int64_t v) { return v != 0; })) return std::nullopt;
    }
  }
  if (anyOutputRead(ctx, node, 1)) return std::nullopt; // the mask
  return singleOutput(ctx.addNode(node, OpKind::Dropout, {ctx.materialize(node.input(0))}, {}));
}

ImportedOutputs importGelu(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"approximate"})) return std::nullopt;
  node.expectInputs(1, 1);
  std::string approximate = node.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh") return std::nullopt;
  return singleOutput(ctx.addNode(node, OpKind::Gelu, dataInputs(ctx, node), {{"approximate", approximate}}));
}

// Ops whose ONNX attributes are the IR's under the same names and types (Ops.def's last column),
// the same in every opset Tessera imports.
ImportedOutputs importAsInTable(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  const std::vector<std::string_view> names = onnxAttributeNames(kind);
  if (!node.onlyAttributes(names)) return std::nullopt;
  const OpInfo& info = opInfo(kind);
  node.expectInputs(info.minInputs, info.maxInputs < 0 ? std::max(1, node.numInputs()) : info.maxInputs);
  Attributes attrs;
  for (std::string_view name : names) {
    const onnx::AttributeProto* attr = node.attribute(name);
    if (!attr) continue;
    switch (attributeType(*attr)) {
    case onnx::AttributeProto::INT: attrs.set(std::string(name), node.getInt(name, 0)); break;
    case onnx::AttributeProto::FLOAT: attrs.set(std::string(name), node.getFloat(name, 0.0f)); break;
    case onnx::AttributeProto::STRING: attrs.set(std::string(name), node.getString(name, "")); break;
    case onnx::AttributeProto::INTS: attrs.set(std::string(name), node.getInts(name)); break;
    case onnx::AttributeProto::FLOATS: attrs.set(std::string(name), node.getFloats(name)); break;
    default: node.fail("attribute '" + std::string(name) + "' has an unexpected type");
    }
  }
  return singleOutput(ctx.addNode(node, kind, dataInputs(ctx, node), attrs));
}

ImportedOutputs castTo(ImportContext& ctx, const OnnxNode& node, int32_t onnxType) {
  std::optional<DType> to = dtypeFromOnnx(onnxType);
  if (!to || *to == DType::String) return std::nullopt; // float8, uint16, strings: opaque
  const DType from = ctx.typeOf(node.input(0)).dtype;
  if (from == DType::String) return std::nullopt;
  return singleOutput(ctx.addNode(node, OpKind::Cast, {ctx.materialize(node.input(0))}, {{"to", std::string(dtypeName(*to))}}));
}

ImportedOutputs importCast(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"to", "saturate"})) return std::nullopt; // saturate only concerns float8
  node.expectInputs(1, 1);
  if (!node.has("to")) node.fail("needs the attribute 'to'");
  return castTo(ctx, node, static_cast<int32_t>(node.getInt("to", 0)));
}

// ConvTranspose: 2-D only; auto_pad and output_shape become explicit pads (ONNX's rule: the
// total padding stride*(in-1) + output_padding + dilated kernel - out, the odd cell at the end
// except with SAME_LOWER).
ImportedOutputs importConvTranspose(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads", "strides"}))
    return std::nullopt;
  node.expectInputs(2, 3);
  const TensorType& x = ctx.typeOf(node.input(0));
  const TensorType& w = ctx.typeOf(node.input(1));
  if (x.rank() != 4 || w.rank() != 4) return std::nullopt; // 1-D and 3-D stay opaque
  Ints strides = boundedInts(node, "strides", {1, 1});
  Ints dilations = boundedInts(node, "dilations", {1, 1});
  Ints outputPadding = boundedInts(node, "output_padding", {0, 0});
  if (strides.size() != 2 || dilations.size() != 2 || outputPadding.size() != 2) node.fail("needs 2-D strides, dilations and output_padding");
  if (node.has("kernel_shape") && boundedInts(node, "kernel_shape", {}) != Ints{w.shape[2], w.shape[3]})
    node.fail("kernel_shape does not match the weight " + w.toString());
  std::string autoPad = node.getString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER" && !autoPad.empty())
    node.fail("unknown auto_pad '" + autoPad + "'");
  Ints pads = autoPad == "VALID" ? Ints{0, 0, 0, 0} : boundedInts(node, "pads", {0, 0, 0, 0});
  if (node.has("output_shape") || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    Ints outputShape = boundedInts(node, "output_shape", {x.shape[2] * strides[0], x.shape[3] * strides[1]});
    if (outputShape.size() == 4) outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    if (outputShape.size() != 2) node.fail("output_shape needs 2 values");
    for (size_t i = 0; i < 2; ++i) {
      int64_t total = strides[i] * (x.shape[i + 2] - 1) + outputPadding[i] + (w.shape[i + 2] - 1) * dilations[i] + 1 - outputShape[i];
      int64_t half = total / 2;
      pads[i] = autoPad == "SAME_LOWER" ? total - half : half;
      pads[i + 2] = autoPad == "SAME_LOWER" ? half : total - half;
    }
  }
  Attributes attrs{{"strides", strides}, {"dilations", dilations}, {"pads", pads}, {"output_padding", outputPadding}};
  attrs.set("group", node.getInt("group", 1));
  return singleOutput(ctx.addNode(node, OpKind::ConvTranspose, dataInputs(ctx, node), attrs));
}

// Resize from opset 11: X, roi, scales, sizes (roi and scales optional from 13). The IR keeps
// the output sizes and the scales the coordinate transform divides by (sizes / input when the
// model gives sizes). tf_crop_and_resize, antialias and axes stay opaque.
ImportedOutputs importResize(ImportContext& ctx, const OnnxNode& node) {
  if (ctx.opset < 11) return std::nullopt; // opset 10's Resize has other coordinate rules
  if (!node.onlyAttributes({"antialias", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                            "keep_aspect_ratio_policy", "mode", "nearest_mode"}))
    return std::nullopt;
  node.expectInputs(1, 4);
  if (node.getInt("antialias", 0) != 0 || node.getString("keep_aspect_ratio_policy", "stretch") != "stretch") return std::nullopt;
  std::string transform = node.getString("coordinate_transformation_mode", "half_pixel");
  if (transform == "tf_crop_and_resize" || transform == "tf_half_pixel_for_nn") return std::nullopt;
  const Shape& input = ctx.typeOf(node.input(0)).shape;
  Ints sizes;
  std::vector<float> scales;
  if (node.hasInput(3)) {
    auto given = constantInts(ctx, node, 3);
    if (!given) return std::nullopt;
    sizes = *given;
    if (sizes.size() != input.size()) node.fail("has " + std::to_string(sizes.size()) + " sizes for rank " + std::to_string(input.size()));
    checkBoundedInts(sizes, node.label() + ": sizes");
    for (size_t d = 0; d < sizes.size(); ++d)
      scales.push_back(input[d] == 0 ? 1.0f : static_cast<float>(sizes[d]) / static_cast<float>(input[d]));
  } else if (node.hasInput(2)) {
    const Tensor* given = ctx.constant(node.input(2));
    if (!given) return std::nullopt;
    if (!given->holdsFloats() || given->numel() != static_cast<int64_t>(input.size())) node.fail("scales must be one float per axis");
    for (int64_t d = 0; d < given->numel(); ++d) {
      float scale = given->floatAt(d);
      if (!(scale > 0.0f) || scale > 1e6f) node.fail("scale " + std::to_string(scale) + " is not a positive size factor");
      scales.push_back(scale);
      sizes.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input[static_cast<size_t>(d)]) * scale)));
    }
    checkedNumel(sizes, node.label() + ": output");
  } else {
    node.fail("needs scales or sizes");
  }
  Attributes attrs{{"sizes", sizes}, {"scales", scales}};
  attrs.set("mode", node.getString("mode", "nearest"));
  attrs.set("coordinate_transformation_mode", transform);
  if (node.has("nearest_mode")) attrs.set("nearest_mode", node.getString("nearest_mode", ""));
  if (node.has("cubic_coeff_a")) attrs.set("cubic_coeff_a", node.getFloat("cubic_coeff_a", -0.75f));
  if (node.has("exclude_outside")) attrs.set("exclude_outside", node.getInt("exclude_outside", 0));
  return singleOutput(ctx.addNode(node, OpKind::Resize, {ctx.materialize(node.input(0))}, attrs));
}

} // namespace

ImportedOutputs importCastLike(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"saturate"})) return std::nullopt;
  node.expectInputs(2, 2);
  return castTo(ctx, node, dtypeToOnnx(ctx.typeOf(node.input(1)).dtype));
}

std::optional<std::vector<int64_t>> constantInts(const ImportContext& ctx, const OnnxNode& node, int i) {
  const Tensor* tensor = ctx.constant(node.input(i));
  if (!tensor) return std::nullopt;
  if (tensor->holdsFloats()) node.fail("input '" + node.input(i) + "' must hold integers, got " + tensor->type().toString());
  if (tensor->numel() > kMaxFoldElements) node.fail("input '" + node.input(i) + "' has too many values for a shape operand");
  std::vector<int64_t> values(static_cast<size_t>(tensor->numel()));
  for (int64_t k = 0; k < tensor->numel(); ++k) values[static_cast<size_t>(k)] = tensor->intAt(k);
  return values;
}

std::optional<float> constantScalar(const ImportContext& ctx, const OnnxNode& node, int i) {
  const Tensor* tensor = ctx.constant(node.input(i));
  if (!tensor) return std::nullopt;
  if (tensor->numel() != 1) node.fail("input '" + node.input(i) + "' must be a scalar, got " + tensor->type().toString());
  return static_cast<float>(tensor->valueAt(0));
}

int64_t normalizedAxis(const OnnxNode& node, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) node.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

ImportedOutputs importKnownOp(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  // Before opset 7, Dropout and BatchNormalization default to training mode (is_test = 0), and
  // before opset 4 Concat's axis defaults to 1: those forms stay opaque. Other old forms differ
  // by attributes the importers do not accept (consumed_inputs, broadcast), or are equal.
  if (ctx.opset < 7 && (kind == OpKind::Dropout || kind == OpKind::BatchNorm)) return std::nullopt;
  if (ctx.opset < 4 && kind == OpKind::Concat && !node.has("axis")) return std::nullopt;
  if (opInfo(kind).onnxName.empty()) return std::nullopt; // Tessera-only: no ONNX spelling
  // The ops ONNX spells differently from the IR, or that need more than their attribute names.
  switch (kind) {
  case OpKind::Conv: return importConv(ctx, node);
  case OpKind::MaxPool:
  case OpKind::AveragePool: return importPool(ctx, node, kind);
  case OpKind::BatchNorm: return importBatchNorm(ctx, node);
  case OpKind::LayerNorm: return importLayerNorm(ctx, node);
  case OpKind::LRN: return importLrn(ctx, node);
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Hardmax: return importSoftmax(ctx, node, kind);
  case OpKind::Dropout: return importDropout(ctx, node);
  case OpKind::Gelu: return importGelu(ctx, node);
  case OpKind::Clip: return importClip(ctx, node);
  case OpKind::ReduceMean:
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceL1:
  case OpKind::ReduceL2:
  case OpKind::ReduceLogSum:
  case OpKind::ReduceLogSumExp:
  case OpKind::ReduceSumSquare: return importReduce(ctx, node, kind);
  case OpKind::Expand:
  case OpKind::Tile:
  case OpKind::CumSum:
  case OpKind::Trilu: return importWithConstantOperand(ctx, node, kind);
  case OpKind::Cast: return importCast(ctx, node);
  case OpKind::ConvTranspose: return importConvTranspose(ctx, node);
  case OpKind::LSTM: return importLstm(ctx, node);
  case OpKind::Resize: return importResize(ctx, node);
  case OpKind::Split: return importSplit(ctx, node);
  case OpKind::Reshape: return importReshape(ctx, node);
  case OpKind::Slice: return importSlice(ctx, node);
  case OpKind::Pad: return importPad(ctx, node);
  case OpKind::Unsqueeze:
  case OpKind::Squeeze: return importSqueezeOrUnsqueeze(ctx, node, kind);
  default: return importAsInTable(ctx, node, kind);
  }
}

} // namespace tessera::onnx_io
