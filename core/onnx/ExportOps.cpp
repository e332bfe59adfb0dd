// Each IR op in its opset-17 ONNX form: canonical attributes become the attributes or constant
// inputs opset 17 expects, and Tessera-only forms are spelled with standard ops (a fused
// activation as a following op, ScalarMul as Mul, Gelu as its erf/tanh formula, Enlarge as Pad,
// MergeGroups and the batchnorm folds as ops over the original weights).
#include "ir/FusedActivation.h"
#include "onnx/ExportWriter.h"
#include "onnx/Subgraphs.h"
#include "onnx/TensorConversion.h"
#include "support/Error.h"

#include <onnx/defs/schema.h>

#include <cmath>
#include <string_view>
#include <vector>

namespace tessera::onnx_io {

namespace {

using Ints = std::vector<int64_t>;

[[noreturn]] void fail(const Node& node, const std::string& problem) {
  std::string op = node.opaque ? node.opaque->opType : std::string(opName(node.kind));
  throw Error("node '" + node.name + "' (" + op + "): " + problem);
}

void setAttribute(onnx::NodeProto& proto, const std::string& name, const AttrValue& value) {
  onnx::AttributeProto& attr = *proto.add_attribute();
  attr.set_name(name);
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, int64_t>) {
          attr.set_type(onnx::AttributeProto::INT);
          attr.set_i(v);
        } else if constexpr (std::is_same_v<V, float>) {
          attr.set_type(onnx::AttributeProto::FLOAT);
          attr.set_f(v);
        } else if constexpr (std::is_same_v<V, std::string>) {
          attr.set_type(onnx::AttributeProto::STRING);
          attr.set_s(v);
        } else if constexpr (std::is_same_v<V, Ints>) {
          attr.set_type(onnx::AttributeProto::INTS);
          for (int64_t x : v) attr.add_ints(x);
        } else {
          attr.set_type(onnx::AttributeProto::FLOATS);
          for (float x : v) attr.add_floats(x);
        }
      },
      value);
}

// Copies the listed IR attributes that are present; their ONNX names and meanings coincide.
void copyAttributes(const Node& node, onnx::NodeProto& proto, const std::vector<std::string_view>& names) {
  for (std::string_view name : names)
    if (const AttrValue* value = node.attrs.find(name)) setAttribute(proto, std::string(name), *value);
}

std::vector<std::string> inputNames(const ExportWriter& w, const Node& node) {
  std::vector<std::string> names;
  for (const ValueRef& input : node.inputs) names.push_back(input.isNone() ? std::string() : w.nameOf(input));
  return names;
}

const TensorType& inputType(const ExportWriter& w, const Node& node, size_t i) { return w.graph().typeOf(node.inputs[i]); }

// Writes `opType` producing the node's output, followed by its fused activation if it has one.
onnx::NodeProto& writeWithActivation(ExportWriter& w, const Node& node, NodeId id, const std::string& opType) {
  const std::string& output = w.nameOf({id, 0});
  auto activation = static_cast<Activation>(node.attrs.getInt("activation", 0));
  if (activation == Activation::None) return w.addNode(opType, inputNames(w, node), {output}, node.name);
  const std::optional<OpKind> activationKind = activationOp(activation);
  if (!activationKind) fail(node, "unknown activation " + std::to_string(node.attrs.getInt("activation", 0)));
  const std::string activationType(opInfo(*activationKind).onnxName);
  std::string preActivation = w.fresh(node.name + "_preact");
  onnx::NodeProto& op = w.addNode(opType, inputNames(w, node), {preActivation}, node.name);
  w.addNode(activationType, {preActivation}, {output}, node.name + "_" + activationType);
  return op;
}

// A one-output op whose result gets a fresh name derived from the node's; returns that name.
std::string addStep(ExportWriter& w, const Node& node, const char* opType, std::vector<std::string> inputs, const char* what) {
  std::string out = w.fresh(node.name + "_" + what);
  w.addNode(opType, std::move(inputs), {out}, node.name + "_" + what);
  return out;
}

std::string reshapeStep(ExportWriter& w, const Node& node, const std::string& input, const Ints& shape, const char* what) {
  return addStep(w, node, "Reshape", {input, w.addInt64Initializer(shape, node.name + "_" + what + "_shape")}, what);
}

std::string transposeStep(ExportWriter& w, const Node& node, const std::string& input, const Ints& perm, const char* what) {
  std::string out = w.fresh(node.name + "_" + what);
  setAttribute(w.addNode("Transpose", {input}, {out}, node.name + "_" + what), "perm", perm);
  return out;
}

void writeWeight(ExportWriter& w, const Node& node, NodeId id) {
  const Tensor& value = *node.weight;
  const std::string& name = w.nameOf({id, 0});
  // ConstantOfShape cannot produce bfloat16 at opset 17, so such splats are written out.
  if (!value.isSplat() || value.numel() <= 1 || value.dtype() == DType::BFloat16) {
    w.addInitializer(value, name);
    return;
  }
  std::string shape = w.addInt64Initializer(value.shape(), name + "_shape");
  onnx::NodeProto& fill = w.addNode("ConstantOfShape", {shape}, {name}, name);
  onnx::AttributeProto& attr = *fill.add_attribute();
  attr.set_name("value");
  attr.set_type(onnx::AttributeProto::TENSOR);
  tensorToProto(Tensor::splat({value.dtype(), {1}}, value.valueAt(0)), "", attr.mutable_t());
}

// Default-domain ops whose meaning changed between opset 9 and 17 while their old spelling
// stays valid at 17 (the checker cannot catch them): before opset 13 LogSoftmax and Hardmax
// coerce to 2-D like the old Softmax; before opset 11 Resize's second input is the scales.
// Other changed ops are caught by the checker (removed attributes, other input counts).
bool meaningChangedBy17(const std::string& opType, int64_t sourceOpset) {
  if (opType == "LogSoftmax" || opType == "Hardmax") return sourceOpset < 13;
  if (opType == "Resize") return sourceOpset < 11;
  return false;
}

void writeOpaque(ExportWriter& w, const Node& node, NodeId id) {
  const int64_t opset = w.graph().info.opset;
  if (node.opaque->domain.empty() && meaningChangedBy17(node.opaque->opType, opset))
    fail(node, "comes from opset " + std::to_string(opset) + " and means something else at opset 17, so it cannot be written back");
  std::vector<std::string> outputs;
  for (uint32_t port = 0; port < node.outputTypes.size(); ++port) outputs.push_back(w.nameOf({id, port}));
  // Captured outer values are no ONNX inputs: the subgraphs read them by name.
  const std::vector<std::string>& captured = node.opaque->capturedNames;
  std::vector<std::string> inputs = inputNames(w, node);
  if (captured.size() > inputs.size()) fail(node, "has fewer inputs than captured names");
  const size_t own = inputs.size() - captured.size();
  inputs.resize(own);
  for (size_t i = 0; i < captured.size(); ++i) w.provideCaptured(node.inputs[own + i], captured[i]);
  onnx::NodeProto& proto = w.addNode(node.opaque->opType, std::move(inputs), outputs, node.name);
  if (!node.opaque->domain.empty()) proto.set_domain(node.opaque->domain);
  for (const std::string& serialized : node.opaque->attributeProtos) {
    onnx::AttributeProto& attr = *proto.add_attribute();
    if (!attr.ParseFromString(serialized)) fail(node, "holds a corrupt attribute");
    // Subgraphs are written back as they came, so what they hold must mean the same at opset 17.
    for (const onnx::NodeProto* inner : nodesInside(attr)) {
      if (!inner->domain().empty() && inner->domain() != "ai.onnx") continue;
      if (meaningChangedBy17(inner->op_type(), opset))
        fail(node, "its subgraph " + attr.name() + " holds " + inner->op_type() + " of opset " + std::to_string(opset) +
                       ", which means something else at opset 17, so it cannot be written back unchanged");
      // An older form that opset 17 no longer accepts (Unsqueeze's axes attribute): say so here
      // rather than leave it to the checker's message about an anonymous node.
      const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(inner->op_type(), 17, "");
      if (!schema || opset >= 17) continue;
      try {
        schema->Verify(*inner);
      } catch (const std::exception& e) {
        fail(node, "its subgraph " + attr.name() + " was written for opset " + std::to_string(opset) + " and its " + inner->op_type() +
                       " node is not valid at opset 17, which export writes; subgraphs are written back unchanged, so this model cannot be exported (" +
                       e.what() + ")");
      }
    }
  }
}

void writeConv(ExportWriter& w, const Node& node, NodeId id) {
  const Shape& x = inputType(w, node, 0).shape;
  const Shape& weight = inputType(w, node, 1).shape;
  onnx::NodeProto& conv = writeWithActivation(w, node, id, "Conv");
  setAttribute(conv, "kernel_shape", Ints{weight[2], weight[3]});
  copyAttributes(node, conv, {"dilations", "pads", "strides"});
  int64_t groups = x[1] / weight[1];
  if (groups != 1) setAttribute(conv, "group", groups);
}

void writePool(ExportWriter& w, const Node& node, NodeId id) {
  if (node.kind == OpKind::AveragePool && node.attrs.has("dilations"))
    fail(node, "AveragePool with dilations needs opset 19; it cannot be written at opset 17");
  onnx::NodeProto& pool = w.addNode(node.kind == OpKind::MaxPool ? "MaxPool" : "AveragePool", inputNames(w, node), {w.nameOf({id, 0})}, node.name);
  copyAttributes(node, pool, {"kernel_shape", "strides", "pads", "dilations", "ceil_mode", "count_include_pad", "storage_order"});
}

// y = 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
void writeGelu(ExportWriter& w, const Node& node, NodeId id) {
  const std::string x = w.nameOf(node.inputs[0]);
  DType type = inputType(w, node, 0).dtype;
  const std::string& base = node.name;
  auto constant = [&](double value, const char* what) { return w.addScalarInitializer(type, value, base + "_" + what); };
  auto op = [&](const char* opType, std::vector<std::string> inputs, const char* what) { return addStep(w, node, opType, std::move(inputs), what); };
  std::string inner;
  if (node.attrs.getString("approximate", "none") == "tanh") {
    std::string cube = op("Mul", {op("Mul", {x, x}, "square"), x}, "cube");
    std::string sum = op("Add", {x, op("Mul", {cube, constant(0.044715, "coefficient")}, "scaled_cube")}, "sum");
    inner = op("Tanh", {op("Mul", {sum, constant(std::sqrt(2.0 / 3.14159265358979323846), "sqrt_2_over_pi")}, "scaled")}, "tanh");
  } else {
    inner = op("Erf", {op("Div", {x, constant(std::sqrt(2.0), "sqrt_2")}, "scaled")}, "erf");
  }
  std::string gate = op("Add", {inner, constant(1.0, "one")}, "gate");
  std::string product = op("Mul", {x, gate}, "product");
  w.addNode("Mul", {product, constant(0.5, "half")}, {w.nameOf({id, 0})}, node.name);
}

void writeClip(ExportWriter& w, const Node& node, NodeId id) {
  std::vector<std::string> inputs = {w.nameOf(node.inputs[0])};
  DType type = inputType(w, node, 0).dtype;
  bool hasMax = node.attrs.has("max");
  inputs.push_back(node.attrs.has("min") ? w.addScalarInitializer(type, node.attrs.getFloat("min", 0), node.name + "_min") : "");
  if (hasMax) inputs.push_back(w.addScalarInitializer(type, node.attrs.getFloat("max", 0), node.name + "_max"));
  if (!hasMax && inputs.back().empty()) inputs.pop_back();
  w.addNode("Clip", inputs, {w.nameOf({id, 0})}, node.name);
}

void writeSplit(ExportWriter& w, const Node& node, NodeId id) {
  std::vector<std::string> outputs;
  for (uint32_t port = 0; port < node.outputTypes.size(); ++port) outputs.push_back(w.nameOf({id, port}));
  std::string sizes = w.addInt64Initializer(node.attrs.getInts("split"), node.name + "_split");
  onnx::NodeProto& split = w.addNode("Split", {w.nameOf(node.inputs[0]), sizes}, outputs, node.name);
  copyAttributes(node, split, {"axis"});
}

void writeReshape(ExportWriter& w, const Node& node, NodeId id) {
  Ints shape = node.attrs.getInts("shape");
  std::string target = w.addInt64Initializer(shape, node.name + "_shape");
  onnx::NodeProto& reshape = w.addNode("Reshape", {w.nameOf(node.inputs[0]), target}, {w.nameOf({id, 0})}, node.name);
  // The canonical target is explicit; a 0 in it means an empty dimension, not "copy".
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) setAttribute(reshape, "allowzero", int64_t(1));
}

void writeAxesInput(ExportWriter& w, const Node& node, NodeId id, const char* opType) {
  std::vector<std::string> inputs = {w.nameOf(node.inputs[0])};
  if (node.attrs.has("axes")) inputs.push_back(w.addInt64Initializer(node.attrs.getInts("axes"), node.name + "_axes"));
  w.addNode(opType, inputs, {w.nameOf({id, 0})}, node.name);
}

void writeSlice(ExportWriter& w, const Node& node, NodeId id) {
  std::vector<std::string> inputs = {w.nameOf(node.inputs[0])};
  inputs.push_back(w.addInt64Initializer(node.attrs.getInts("starts"), node.name + "_starts"));
  inputs.push_back(w.addInt64Initializer(node.attrs.getInts("ends"), node.name + "_ends"));
  bool hasSteps = node.attrs.has("steps");
  if (node.attrs.has("axes") || hasSteps) {
    Ints axes = node.attrs.getInts("axes");
    if (axes.empty())
      for (size_t i = 0; i < node.attrs.getInts("starts").size(); ++i) axes.push_back(static_cast<int64_t>(i));
    inputs.push_back(w.addInt64Initializer(axes, node.name + "_axes"));
  }
  if (hasSteps) inputs.push_back(w.addInt64Initializer(node.attrs.getInts("steps"), node.name + "_steps"));
  w.addNode("Slice", inputs, {w.nameOf({id, 0})}, node.name);
}

void writePad(ExportWriter& w, const Node& node, const std::string& input, const Ints& pads, NodeId id) {
  std::vector<std::string> inputs = {input, w.addInt64Initializer(pads, node.name + "_pads")};
  std::string mode = node.attrs.getString("mode", "constant");
  float value = node.attrs.getFloat("value", 0.0f);
  if (mode == "constant" && value != 0.0f)
    inputs.push_back(w.addScalarInitializer(w.graph().typeOf(node.inputs[0]).dtype, value, node.name + "_value"));
  onnx::NodeProto& pad = w.addNode("Pad", inputs, {w.nameOf({id, 0})}, node.name);
  if (mode != "constant") setAttribute(pad, "mode", mode);
}

// TENSAT's enlarge: zero-pads the kernel to the reference kernel's spatial size, centred.
void writeEnlarge(ExportWriter& w, const Node& node, NodeId id) {
  const Shape& weight = inputType(w, node, 0).shape;
  const Shape& reference = inputType(w, node, 1).shape;
  int64_t padH = (reference[2] - weight[2]) / 2, padW = (reference[3] - weight[3]) / 2;
  writePad(w, node, w.nameOf(node.inputs[0]), Ints{0, 0, padH, padW, 0, 0, padH, padW}, id);
}

// MergeGroups (see interp/WeightTransforms.cpp) over the named weight with standard ops, which
// runtimes fold at load: the weight W[M,Cg,kh,kw] is viewed as [Q, count, R, K] (R = M/groups
// output channels per group, Q = groups/count merged groups, K = Cg*kh*kw) and block b of its
// row goes to column block b of the [Q, count, R, count, K] result, zeros elsewhere. That
// block diagonal is built without a mask: [.., count, 1, K] padded to [.., count, count+1, K]
// and read back as [.., count*(count+1), K] puts every entry one block further along per row,
// so its first count*count blocks, reshaped to [.., count, count, K], are the diagonal.
void writeMergeGroups(ExportWriter& w, const Node& node, NodeId id) {
  const Shape& weight = inputType(w, node, 0).shape;
  const int64_t count = node.attrs.getInt("count", 0);
  const int64_t groups = node.attrs.getInt("groups", count);
  if (weight.size() != 4 || count < 1 || groups % count != 0 || weight[0] % groups != 0)
    fail(node, "has a weight or group counts that MergeGroups does not accept");
  const int64_t m = weight[0], r = m / groups, q = groups / count, k = weight[1] * weight[2] * weight[3];
  std::string rows = reshapeStep(w, node, w.nameOf(node.inputs[0]), Ints{q, count, r, 1, k}, "rows");
  std::string byRow = transposeStep(w, node, rows, Ints{0, 2, 1, 3, 4}, "by_row");
  std::string padded = addStep(w, node, "Pad", {byRow, w.addInt64Initializer(Ints{0, 0, 0, 0, 0, 0, 0, 0, count, 0}, node.name + "_pads")},
                               "padded");
  std::string shifted = reshapeStep(w, node, padded, Ints{q, r, count * (count + 1), k}, "shifted");
  std::string diagonal = addStep(w, node, "Slice",
                                 {shifted, w.addInt64Initializer(Ints{0}, node.name + "_starts"),
                                  w.addInt64Initializer(Ints{count * count}, node.name + "_ends"),
                                  w.addInt64Initializer(Ints{2}, node.name + "_axes")},
                                 "diagonal");
  std::string blocks = reshapeStep(w, node, diagonal, Ints{q, r, count, count, k}, "blocks");
  std::string byGroup = transposeStep(w, node, blocks, Ints{0, 2, 1, 3, 4}, "by_group");
  w.addNode("Reshape", {byGroup, w.addInt64Initializer(Ints{m, count * weight[1], weight[2], weight[3]}, node.name + "_shape")},
            {w.nameOf({id, 0})}, node.name);
}

// scale / sqrt(var + epsilon), the per-channel factor of a folded batchnorm.
std::string batchNormFactor(ExportWriter& w, const Node& node, ValueRef scale, ValueRef var) {
  DType type = w.graph().typeOf(var).dtype;
  std::string epsilon = w.addScalarInitializer(type, node.attrs.getFloat("epsilon", 1e-5f), node.name + "_epsilon");
  std::string root = addStep(w, node, "Sqrt", {addStep(w, node, "Add", {w.nameOf(var), epsilon}, "var_eps")}, "std");
  return addStep(w, node, "Div", {w.nameOf(scale), root}, "factor");
}

// Spelled with standard ops over the original weights, never precomputed: a precomputed
// initializer would need a new name, and the same weights by name (`verify`, a user's own
// weights) could not reach it. Runtimes fold these ops at load.
// weight: w * reshape(factor, [C,1,..]); bias: (convBias - mean) * factor + bias.
void writeFoldBatchNorm(ExportWriter& w, const Node& node, NodeId id) {
  const std::string& output = w.nameOf({id, 0});
  if (node.kind == OpKind::FoldBatchNormWeight) {
    std::string factor = batchNormFactor(w, node, node.inputs[1], node.inputs[2]);
    Ints perChannel(static_cast<size_t>(inputType(w, node, 0).rank()), 1);
    perChannel[0] = -1;
    std::string shaped = reshapeStep(w, node, factor, perChannel, "factor_per_channel");
    w.addNode("Mul", {w.nameOf(node.inputs[0]), shaped}, {output}, node.name);
    return;
  }
  std::string factor = batchNormFactor(w, node, node.inputs[0], node.inputs[3]);
  std::string centred = node.inputs.size() == 5 ? addStep(w, node, "Sub", {w.nameOf(node.inputs[4]), w.nameOf(node.inputs[2])}, "centred")
                                                : addStep(w, node, "Neg", {w.nameOf(node.inputs[2])}, "centred");
  std::string scaled = addStep(w, node, "Mul", {centred, factor}, "scaled");
  w.addNode("Add", {scaled, w.nameOf(node.inputs[1])}, {output}, node.name);
}

// LrnDenominator as ONNX Runtime runs it fast (its LRN kernel takes ~20 ns an element): the window
// sum over channels is a 1x1 Conv whose [C, C] weight holds alpha/size where input channel c' lies
// in output channel c's window (an Expand of that scalar cut by two Trilu), with bias as the conv's
// bias; then ^beta, as square roots for beta 1/2 and 3/4 (Pow is a scalar loop in runtimes). The
// constants are built from scalars, which runtimes fold at load and `verify` does not redraw.
void writeLrnDenominator(ExportWriter& w, const Node& node, NodeId id) {
  const TensorType& input = inputType(w, node, 0);
  const int64_t channels = input.shape[1], size = node.attrs.getInt("size", 0);
  if (input.rank() != 4 || size < 1) fail(node, "has an input or a size that LrnDenominator does not accept");
  const double alpha = node.attrs.getFloat("alpha", 1e-4f), beta = node.attrs.getFloat("beta", 0.75f), bias = node.attrs.getFloat("bias", 1.0f);
  const int64_t below = (size - 1) / 2, above = size - 1 - below;
  std::string full = addStep(w, node, "Expand",
                             {w.addScalarInitializer(input.dtype, alpha / static_cast<double>(size), node.name + "_scale"),
                              w.addInt64Initializer(Ints{channels, channels}, node.name + "_band_shape")},
                             "full");
  // Row c reads the channels c' with c - below <= c' <= c + above.
  std::string fromBelow = addStep(w, node, "Trilu", {full, w.addScalarInitializer(DType::Int64, static_cast<double>(-below), node.name + "_below")}, "from_below");
  std::string band = w.fresh(node.name + "_band");
  setAttribute(w.addNode("Trilu", {fromBelow, w.addScalarInitializer(DType::Int64, static_cast<double>(above), node.name + "_above")}, {band},
                         node.name + "_band"),
               "upper", int64_t{0});
  std::string weight = reshapeStep(w, node, band, Ints{channels, channels, 1, 1}, "weight");
  std::string biases = addStep(w, node, "Expand",
                               {w.addScalarInitializer(input.dtype, bias, node.name + "_bias"), w.addInt64Initializer(Ints{channels}, node.name + "_bias_shape")},
                               "biases");
  const std::string& output = w.nameOf({id, 0});
  const std::vector<std::string> convInputs = {w.nameOf(node.inputs[0]), weight, biases};
  if (beta == 1.0) {
    w.addNode("Conv", convInputs, {output}, node.name);
    return;
  }
  std::string sum = addStep(w, node, "Conv", convInputs, "window_sum");
  if (beta == 0.5) {
    w.addNode("Sqrt", {sum}, {output}, node.name);
  } else if (beta == 0.75) {
    std::string root = addStep(w, node, "Sqrt", {sum}, "root");
    w.addNode("Mul", {root, addStep(w, node, "Sqrt", {root}, "fourth_root")}, {output}, node.name);
  } else {
    w.addNode("Pow", {sum, w.addScalarInitializer(input.dtype, beta, node.name + "_beta")}, {output}, node.name);
  }
}

void writeScalarMul(ExportWriter& w, const Node& node, NodeId id) {
  std::string scalar = w.nameOf(node.inputs[1]);
  // Mul broadcasts: a [1,1,1] scalar would raise the rank of a lower-rank operand.
  if (inputType(w, node, 1).rank() > inputType(w, node, 0).rank()) {
    std::string reshaped = w.fresh(node.name + "_scalar");
    w.addNode("Reshape", {scalar, w.addInt64Initializer({}, node.name + "_scalar_shape")}, {reshaped}, node.name + "_scalar");
    scalar = reshaped;
  }
  w.addNode("Mul", {w.nameOf(node.inputs[0]), scalar}, {w.nameOf({id, 0})}, node.name);
}

// Reductions whose axes became an input at opset 13 (ReduceSum) keep keepdims as an attribute.
void writeReduceSum(ExportWriter& w, const Node& node, NodeId id) {
  std::vector<std::string> inputs = {w.nameOf(node.inputs[0])};
  if (node.attrs.has("axes")) inputs.push_back(w.addInt64Initializer(node.attrs.getInts("axes"), node.name + "_axes"));
  onnx::NodeProto& proto = w.addNode("ReduceSum", inputs, {w.nameOf({id, 0})}, node.name);
  copyAttributes(node, proto, {"keepdims"});
}

// Ops whose operand is an int64 input at opset 17: Expand's shape, Tile's repeats (1-D),
// CumSum's axis and Trilu's k (scalars).
void writeWithIntInput(ExportWriter& w, const Node& node, NodeId id, const char* attribute, bool scalar,
                       const std::vector<std::string_view>& attributes) {
  std::string operand;
  if (scalar)
    operand = w.addScalarInitializer(DType::Int64, static_cast<double>(node.attrs.getInt(attribute, 0)), node.name + "_" + attribute);
  else
    operand = w.addInt64Initializer(node.attrs.getInts(attribute), node.name + "_" + attribute);
  onnx::NodeProto& proto = w.addNode(std::string(opInfo(node.kind).onnxName), {w.nameOf(node.inputs[0]), operand}, {w.nameOf({id, 0})}, node.name);
  copyAttributes(node, proto, attributes);
}

void writeCast(ExportWriter& w, const Node& node, NodeId id) {
  onnx::NodeProto& proto = w.addNode("Cast", {w.nameOf(node.inputs[0])}, {w.nameOf({id, 0})}, node.name);
  setAttribute(proto, "to", int64_t{dtypeToOnnx(dtypeFromName(node.attrs.getString("to", "")))});
}

// Resize takes sizes when the scales are exactly sizes / input (ONNX then derives those
// scales), otherwise the scales themselves.
void writeResize(ExportWriter& w, const Node& node, NodeId id) {
  const Shape& input = inputType(w, node, 0).shape;
  const Ints sizes = node.attrs.getInts("sizes");
  const std::vector<float> scales = node.attrs.getFloats("scales");
  bool fromSizes = true;
  for (size_t d = 0; d < sizes.size(); ++d)
    fromSizes = fromSizes && scales[d] == static_cast<float>(sizes[d]) / static_cast<float>(input[d]);
  std::vector<std::string> inputs = {w.nameOf(node.inputs[0]), ""};
  if (fromSizes) {
    inputs.push_back("");
    inputs.push_back(w.addInt64Initializer(sizes, node.name + "_sizes"));
  } else {
    std::string name = w.fresh(node.name + "_scales");
    w.addInitializer(Tensor::fromFloats({static_cast<int64_t>(scales.size())}, scales), name);
    inputs.push_back(name);
  }
  onnx::NodeProto& proto = w.addNode("Resize", inputs, {w.nameOf({id, 0})}, node.name);
  copyAttributes(node, proto, {"mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside"});
}

// Mish arrived in opset 18: x * tanh(softplus(x)).
void writeMish(ExportWriter& w, const Node& node, NodeId id) {
  const std::string x = w.nameOf(node.inputs[0]);
  std::string softplus = w.fresh(node.name + "_softplus"), tanh = w.fresh(node.name + "_tanh");
  w.addNode("Softplus", {x}, {softplus}, node.name + "_softplus");
  w.addNode("Tanh", {softplus}, {tanh}, node.name + "_tanh");
  w.addNode("Mul", {x, tanh}, {w.nameOf({id, 0})}, node.name);
}

// LSTM with sequence_lens back at input 4 (empty when absent) and every output, read or not.
void writeLstm(ExportWriter& w, const Node& node, NodeId id) {
  std::vector<std::string> inputs = inputNames(w, node);
  const std::string lengths = inputs.size() == 8 ? inputs[7] : std::string();
  inputs.resize(7);
  inputs.insert(inputs.begin() + 4, lengths);
  std::vector<std::string> outputs;
  for (uint32_t port = 0; port < node.outputTypes.size(); ++port) outputs.push_back(w.nameOf({id, port}));
  onnx::NodeProto& proto = w.addNode("LSTM", inputs, outputs, node.name);
  copyAttributes(node, proto, onnxAttributeNames(node.kind));
}

} // namespace

void writeNode(ExportWriter& w, NodeId id) {
  const Node& node = w.graph().node(id);
  // The ops ONNX spells differently from the IR; every other op is its ONNX op with the
  // attributes Ops.def lists.
  switch (node.kind) {
  case OpKind::Input: return;
  case OpKind::Weight: return writeWeight(w, node, id);
  case OpKind::Opaque: return writeOpaque(w, node, id);
  case OpKind::Conv: return writeConv(w, node, id);
  case OpKind::MatMul: writeWithActivation(w, node, id, "MatMul"); return;
  case OpKind::MaxPool:
  case OpKind::AveragePool: return writePool(w, node, id);
  case OpKind::Gelu: return writeGelu(w, node, id);
  case OpKind::Clip: return writeClip(w, node, id);
  case OpKind::Split: return writeSplit(w, node, id);
  case OpKind::Reshape: return writeReshape(w, node, id);
  case OpKind::Unsqueeze: return writeAxesInput(w, node, id, "Unsqueeze");
  case OpKind::Squeeze: return writeAxesInput(w, node, id, "Squeeze");
  case OpKind::Slice: return writeSlice(w, node, id);
  case OpKind::Pad: return writePad(w, node, w.nameOf(node.inputs[0]), node.attrs.getInts("pads"), id);
  case OpKind::Enlarge: return writeEnlarge(w, node, id);
  case OpKind::MergeGroups: return writeMergeGroups(w, node, id);
  case OpKind::FoldBatchNormWeight:
  case OpKind::FoldBatchNormBias: return writeFoldBatchNorm(w, node, id);
  case OpKind::LrnDenominator: return writeLrnDenominator(w, node, id);
  case OpKind::ScalarMul: return writeScalarMul(w, node, id);
  case OpKind::ReduceSum: return writeReduceSum(w, node, id);
  case OpKind::CumSum: return writeWithIntInput(w, node, id, "axis", true, {"exclusive", "reverse"});
  case OpKind::Trilu: return writeWithIntInput(w, node, id, "k", true, {"upper"});
  case OpKind::Expand: return writeWithIntInput(w, node, id, "shape", false, {});
  case OpKind::Tile: return writeWithIntInput(w, node, id, "repeats", false, {});
  case OpKind::Cast: return writeCast(w, node, id);
  case OpKind::Resize: return writeResize(w, node, id);
  case OpKind::Mish: return writeMish(w, node, id);
  case OpKind::LSTM: return writeLstm(w, node, id);
  default: break;
  }
  const std::string_view opType = opInfo(node.kind).onnxName;
  if (opType.empty()) fail(node, "has no ONNX form");
  onnx::NodeProto& proto = w.addNode(std::string(opType), inputNames(w, node), {w.nameOf({id, 0})}, node.name);
  copyAttributes(node, proto, onnxAttributeNames(node.kind));
}

} // namespace tessera::onnx_io
