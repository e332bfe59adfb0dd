#include "onnx/ImportOps.h"

#include "onnx/ImportContext.h"
#include "onnx/ImportLimits.h"
#include "onnx/OnnxNode.h"

#include <algorithm>

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

ImportedOutputs importConv(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})) return std::nullopt;
  node.expectInputs(2, 3);
  const TensorType& x = ctx.typeOf(node.input(0));
  const TensorType& w = ctx.typeOf(node.input(1));
  if (x.rank() != 4 || w.rank() != 4) return std::nullopt; // 1-D and 3-D convolutions stay opaque
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
  if (anyOutputRead(ctx, node, 1)) return std::nullopt; // Mean and InvStdDev
  Attributes attrs;
  if (node.has("axis")) attrs.set("axis", node.getInt("axis", -1));
  if (node.has("epsilon")) attrs.set("epsilon", node.getFloat("epsilon", 1e-5f));
  return singleOutput(ctx.addNode(node, OpKind::LayerNorm, dataInputs(ctx, node), attrs));
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

ImportedOutputs importGemm(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"alpha", "beta", "transA", "transB"})) return std::nullopt;
  node.expectInputs(2, 3);
  Attributes attrs;
  for (const char* name : {"alpha", "beta"})
    if (node.has(name)) attrs.set(name, node.getFloat(name, 1.0f));
  for (const char* name : {"transA", "transB"})
    if (node.has(name)) attrs.set(name, node.getInt(name, 0));
  return singleOutput(ctx.addNode(node, OpKind::Gemm, dataInputs(ctx, node), attrs));
}

// Softmax before opset 13 coerces its input to 2-D at `axis` (default 1). That equals the new
// Softmax only when the axis is the last one; otherwise Flatten -> Softmax -> Reshape.
ImportedOutputs importSoftmax(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"axis"})) return std::nullopt;
  node.expectInputs(1, 1);
  const TensorType& x = ctx.typeOf(node.input(0));
  ValueRef input = ctx.materialize(node.input(0));
  if (ctx.opset >= 13) return singleOutput(ctx.addNode(node, OpKind::Softmax, {input}, {{"axis", node.getInt("axis", -1)}}));
  int64_t axis = normalizedAxis(node, node.getInt("axis", 1), x.rank());
  if (axis == x.rank() - 1) return singleOutput(ctx.addNode(node, OpKind::Softmax, {input}, {{"axis", axis}}));
  NodeId flat = ctx.addNode(node, OpKind::Flatten, {input}, {{"axis", axis}}, false);
  NodeId softmax = ctx.addNode(node, OpKind::Softmax, {{flat, 0}}, {{"axis", int64_t(1)}});
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

// Ops with no attributes and a fixed input count: the ONNX and IR forms coincide.
ImportedOutputs importPlain(ImportContext& ctx, const OnnxNode& node, OpKind kind) {
  if (!node.onlyAttributes({})) return std::nullopt;
  const OpInfo& info = opInfo(kind);
  node.expectInputs(info.minInputs, info.maxInputs < 0 ? node.numInputs() : info.maxInputs);
  return singleOutput(ctx.addNode(node, kind, dataInputs(ctx, node), {}));
}

// Ops whose ONNX attributes are the IR's, unchanged across opsets 9-21.
ImportedOutputs importWithAttributes(ImportContext& ctx, const OnnxNode& node, OpKind kind, std::string_view name) {
  if (!node.onlyAttributes({name})) return std::nullopt;
  const OpInfo& info = opInfo(kind);
  node.expectInputs(info.minInputs, info.maxInputs < 0 ? std::max(1, node.numInputs()) : info.maxInputs);
  Attributes attrs;
  if (const onnx::AttributeProto* attr = node.attribute(name)) {
    if (attributeType(*attr) == onnx::AttributeProto::INTS)
      attrs.set(std::string(name), node.getInts(name));
    else
      attrs.set(std::string(name), node.getInt(name, 0));
  }
  return singleOutput(ctx.addNode(node, kind, dataInputs(ctx, node), attrs));
}

ImportedOutputs importGelu(ImportContext& ctx, const OnnxNode& node) {
  if (!node.onlyAttributes({"approximate"})) return std::nullopt;
  node.expectInputs(1, 1);
  std::string approximate = node.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh") return std::nullopt;
  return singleOutput(ctx.addNode(node, OpKind::Gelu, dataInputs(ctx, node), {{"approximate", approximate}}));
}

} // namespace

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
  switch (kind) {
  case OpKind::Conv: return importConv(ctx, node);
  case OpKind::MaxPool:
  case OpKind::AveragePool: return importPool(ctx, node, kind);
  case OpKind::Gemm: return importGemm(ctx, node);
  case OpKind::BatchNorm: return importBatchNorm(ctx, node);
  case OpKind::LayerNorm: return importLayerNorm(ctx, node);
  case OpKind::LRN: return importLrn(ctx, node);
  case OpKind::Softmax: return importSoftmax(ctx, node);
  case OpKind::Dropout: return importDropout(ctx, node);
  case OpKind::Gelu: return importGelu(ctx, node);
  case OpKind::Clip: return importClip(ctx, node);
  case OpKind::ReduceMean: return importReduceMean(ctx, node);
  case OpKind::Split: return importSplit(ctx, node);
  case OpKind::Reshape: return importReshape(ctx, node);
  case OpKind::Slice: return importSlice(ctx, node);
  case OpKind::Pad: return importPad(ctx, node);
  case OpKind::Unsqueeze:
  case OpKind::Squeeze: return importSqueezeOrUnsqueeze(ctx, node, kind);
  case OpKind::Concat:
  case OpKind::Flatten:
  case OpKind::Gather: return importWithAttributes(ctx, node, kind, "axis");
  case OpKind::Transpose: return importWithAttributes(ctx, node, kind, "perm");
  case OpKind::MatMul:
  case OpKind::Relu:
  case OpKind::Sigmoid:
  case OpKind::Tanh:
  case OpKind::Erf:
  case OpKind::Sqrt:
  case OpKind::Exp:
  case OpKind::Neg:
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Pow:
  case OpKind::Sum:
  case OpKind::GlobalAveragePool:
  case OpKind::Identity: return importPlain(ctx, node, kind);
  case OpKind::Input:
  case OpKind::Weight:
  case OpKind::Opaque:
  case OpKind::ScalarMul:
  case OpKind::Enlarge:
  case OpKind::MergeGroups:
  case OpKind::FoldBatchNormWeight:
  case OpKind::FoldBatchNormBias: break; // Tessera-only: no ONNX spelling
  }
  return std::nullopt;
}

} // namespace tessera::onnx_io
