#include "synth/SynthVocabulary.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "ir/CanonicalAttributes.h"
#include "ir/ShapeInference.h"
#include "rewrite/Pattern.h"
#include "rewrite/TensatVocabulary.h"
#include "synth/ModelPatterns.h"
#include "support/Error.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace tessera::synth {

namespace {

// IR ops synthesis enumerates under their own names: no attributes, or integer ones the DSL can
// write and match exactly. Ops with float attributes (HardSigmoid's alpha), shape inputs (Reshape,
// Slice) or index inputs (Gather) are left out: a pattern could not pin them down.
constexpr OpKind kUnaryOps[] = {OpKind::Relu, OpKind::Sigmoid, OpKind::Tanh,       OpKind::Erf,      OpKind::Gelu,
                                OpKind::Sqrt, OpKind::Exp,     OpKind::Neg,        OpKind::Abs,      OpKind::Reciprocal,
                                OpKind::Softplus, OpKind::Softsign, OpKind::HardSwish, OpKind::Sign, OpKind::Log};
constexpr OpKind kBinaryOps[] = {OpKind::Add, OpKind::Mul, OpKind::Sub, OpKind::Div, OpKind::Max, OpKind::Min, OpKind::Pow};

bool isOneOf(OpKind kind, std::span<const OpKind> kinds) { return std::find(kinds.begin(), kinds.end(), kind) != kinds.end(); }
bool isCommutative(OpKind kind) { return kind == OpKind::Add || kind == OpKind::Mul || kind == OpKind::Max || kind == OpKind::Min; }

std::string supportedNames() {
  std::string s = "ewadd, ewmul, matmul, conv2d, relu, tanh, sigmoid, concat, split, enlarge, transpose";
  for (OpKind kind : kUnaryOps) s += ", " + std::string(opName(kind));
  for (OpKind kind : kBinaryOps) s += ", " + std::string(opName(kind));
  return s + ", MatMul, Transpose, Softmax, LogSoftmax, ReduceMean, ReduceSum, Concat";
}

SynthOp tensatOp(std::string label, std::string name, OpKind kind, int arity, bool commutative = false) {
  SynthOp op;
  op.label = std::move(label);
  op.dslName = std::move(name);
  op.kind = kind;
  op.tensat = true;
  op.arity = arity;
  op.commutative = commutative;
  return op;
}

SynthOp nativeOp(OpKind kind, Attributes attrs = {}) {
  SynthOp op;
  op.dslName = std::string(opName(kind));
  op.kind = kind;
  op.attrs = std::move(attrs);
  op.arity = isOneOf(kind, kBinaryOps) || kind == OpKind::MatMul ? 2 : 1;
  op.commutative = isCommutative(kind);
  op.label = op.dslName + (op.attrs.empty() ? "" : "{" + op.attrs.toString() + "}");
  return op;
}

// Attribute values as the rule DSL reads them back exactly (a float's shortest round-trip text
// with a '.', so HardSigmoid's alpha 0.16666667 is not written 0.166667 and still matches).
std::string attributeText(const AttrValue& value) {
  auto floatText = [](float f) {
    std::string text = formatScalar(f);
    if (text.find_first_of(".eEni") == std::string::npos) text += ".0";
    return text;
  };
  if (const auto* f = std::get_if<float>(&value)) return floatText(*f);
  if (const auto* floats = std::get_if<std::vector<float>>(&value)) {
    std::string text = "[";
    for (size_t i = 0; i < floats->size(); ++i) text += (i ? "," : "") + floatText((*floats)[i]);
    return text + "]";
  }
  return attrValueToString(value);
}

SynthOp concatOp(int64_t axis, int64_t rank) {
  SynthOp op = tensatOp("concat[axis " + std::to_string(axis) + ", rank " + std::to_string(rank) + "]", "concat", OpKind::Concat, 2);
  op.axis = axis;
  op.rank = rank;
  return op;
}

SynthOp splitOp(int64_t axis) {
  SynthOp op = tensatOp("split[axis " + std::to_string(axis) + "]", "split", OpKind::Split, 1);
  op.axis = axis;
  op.outputs = 2;
  return op;
}

SynthOp convOp(int64_t stride, int64_t padding, int64_t activation) {
  SynthOp op = tensatOp("conv2d[s" + std::to_string(stride) + (padding == 0 ? ",same" : ",valid") + (activation == 2 ? ",relu" : "") + "]",
                        "conv2d", OpKind::Conv, 2);
  op.strideH = op.strideW = stride;
  op.padding = padding;
  op.attrs = activation ? Attributes{{"activation", activation}} : Attributes{};
  return op;
}

// The variants one name stands for when no model gives attribute values (TASO's defaults).
std::vector<SynthOp> defaultVariants(const std::string& name) {
  if (name == "ewadd") return {tensatOp("ewadd", "ewadd", OpKind::Add, 2, true)};
  if (name == "ewmul") return {tensatOp("ewmul", "ewmul", OpKind::Mul, 2, true)};
  if (name == "matmul") return {tensatOp("matmul", "matmul", OpKind::MatMul, 2)};
  if (name == "relu" || name == "tanh" || name == "sigmoid")
    return {tensatOp(name, name, *opFromTensat(name), 1)};
  if (name == "conv2d") return {convOp(1, 0, 0), convOp(1, 0, 2)};
  if (name == "concat") return {concatOp(0, 2), concatOp(1, 2), concatOp(0, 4), concatOp(1, 4)};
  if (name == "split") return {splitOp(0), splitOp(1)};
  if (name == "enlarge") return {tensatOp("enlarge", "enlarge", OpKind::Enlarge, 2)};
  std::optional<OpKind> kind = opFromName(name);
  if (!kind) kind = opFromTensat(name);
  if (!kind) kind = opFromOnnx(name);
  if (!kind) throw Error("unknown op '" + name + "' (synthesis knows: " + supportedNames() + ")");
  if (isOneOf(*kind, kUnaryOps) || isOneOf(*kind, kBinaryOps)) return {nativeOp(*kind)};
  switch (*kind) {
  case OpKind::MatMul: return {nativeOp(OpKind::MatMul, {{"activation", int64_t{0}}})};
  case OpKind::Transpose: return {nativeOp(OpKind::Transpose, {{"perm", std::vector<int64_t>{1, 0}}})};
  case OpKind::Softmax:
  case OpKind::LogSoftmax: return {nativeOp(*kind, {{"axis", int64_t{-1}}})};
  case OpKind::ReduceMean:
  case OpKind::ReduceSum: return {nativeOp(*kind, {{"axes", std::vector<int64_t>{-1}}, {"keepdims", int64_t{1}}})};
  case OpKind::Concat: return {concatOp(0, 2), concatOp(1, 2)};
  default: break;
  }
  throw Error("op '" + name + "' (" + std::string(opName(*kind)) +
              ") cannot be synthesised: its attributes or inputs cannot be written exactly in a rule pattern (synthesis knows: " +
              supportedNames() + ")");
}

Tensor sampleTensor(const TensorType& type, uint64_t salt) { return randomTensor(type, 7 + salt, "probe"); }

// Evaluates `op` once on the first variables it applies to, so an op the interpreter lacks is
// reported before enumeration starts. False when it applies to none of them.
bool probe(const SynthOp& op, const std::vector<SynthVariable>& variables) {
  if (op.kind == OpKind::Split) return true; // applies only below a concat
  const size_t n = variables.size();
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < (op.arity == 2 ? n : 1); ++b) {
      std::vector<TensorType> types{variables[a].type};
      if (op.arity == 2) types.push_back(variables[b].type);
      std::optional<Attributes> attrs = applicationAttributes(op, types);
      if (!attrs) continue;
      Node node;
      node.kind = op.kind;
      node.attrs = *attrs;
      node.inputs.resize(types.size());
      node.outputTypes = inferOutputTypes(op.kind, *attrs, types);
      std::vector<Tensor> values;
      for (size_t i = 0; i < types.size(); ++i) values.push_back(sampleTensor(types[i], i));
      std::vector<const Tensor*> pointers;
      for (const Tensor& v : values) pointers.push_back(&v);
      try {
        evaluateNode(node, pointers);
      } catch (const Error& e) {
        throw Error("the reference interpreter cannot evaluate '" + op.label + "': " + e.what());
      }
      return true;
    }
  return false;
}

TensorType floatType(Shape shape) { return TensorType{DType::Float32, std::move(shape)}; }

void addVariables(std::vector<SynthVariable>& out, const std::string& prefix, const Shape& shape, int count) {
  for (int i = 0; i < count; ++i) out.push_back({prefix, floatType(shape)});
}

bool needs4d(const std::vector<SynthOp>& ops) {
  return std::any_of(ops.begin(), ops.end(), [](const SynthOp& op) { return op.kind == OpKind::Conv || op.kind == OpKind::Enlarge; });
}

bool hasOp(const SynthVocabulary& vocabulary, OpKind kind) {
  return std::any_of(vocabulary.ops.begin(), vocabulary.ops.end(), [&](const SynthOp& op) { return op.kind == kind; });
}

// What a runtime fuses the models' spellings into, offered as right-hand sides: HardSwish and
// ONNX's HardSigmoid (alpha 1/6) where a Clip to [0, 6] spells them, Gelu where Erf or Tanh and Pow
// do, and the composition of every two of the models' transposes of one rank.
template <typename Add>
void addFusedForms(const SynthVocabulary& vocabulary, Add&& add) {
  bool clip6 = false;
  std::vector<std::vector<int64_t>> perms;
  for (const SynthOp& op : vocabulary.ops) {
    if (op.kind == OpKind::Clip && op.attrs.getFloat("min", -1) == 0.0f && op.attrs.getFloat("max", -1) == 6.0f) clip6 = true;
    if (op.kind == OpKind::Transpose) perms.push_back(op.attrs.getInts("perm"));
  }
  auto fused = [&](SynthOp op) {
    op.fusedForm = true;
    add(std::move(op));
  };
  if (clip6) {
    fused(nativeOp(OpKind::HardSwish));
    fused(nativeOp(OpKind::HardSigmoid, {{"alpha", 1.0f / 6.0f}, {"beta", 0.5f}}));
  }
  if (hasOp(vocabulary, OpKind::Erf)) fused(nativeOp(OpKind::Gelu));
  if (hasOp(vocabulary, OpKind::Tanh) && hasOp(vocabulary, OpKind::Pow)) fused(nativeOp(OpKind::Gelu, {{"approximate", std::string("tanh")}}));
  for (const auto& first : perms)
    for (const auto& second : perms) {
      if (first.size() != second.size()) continue;
      std::vector<int64_t> composed(first.size());
      bool identity = true;
      for (size_t i = 0; i < first.size(); ++i) {
        composed[i] = first[static_cast<size_t>(second[i])];
        identity = identity && composed[i] == static_cast<int64_t>(i);
      }
      if (!identity) fused(nativeOp(OpKind::Transpose, {{"perm", composed}}));
    }
}

} // namespace

SynthOp nativeSynthOp(OpKind kind, Attributes attrs, int arity) {
  SynthOp op = nativeOp(kind, std::move(attrs));
  op.arity = arity;
  op.label = op.dslName + (op.attrs.empty() ? "" : "{" + op.attrs.toString() + "}") + (arity > 2 ? "/" + std::to_string(arity) : "");
  return op;
}

int findOrAddOp(SynthVocabulary& vocabulary, SynthOp op) {
  for (size_t i = 0; i < vocabulary.ops.size(); ++i)
    if (vocabulary.ops[i].label == op.label) return static_cast<int>(i);
  vocabulary.ops.push_back(std::move(op));
  return static_cast<int>(vocabulary.ops.size()) - 1;
}

Tensor variableValue(const SynthVariable& variable, const Shape& shape, uint64_t seed, const std::string& name, float low, float high) {
  const TensorType type{DType::Float32, shape};
  if (variable.literal) return Tensor::splat(type, *variable.literal).materialized();
  if (variable.scalar) return randomTensor(type, seed, name, 0.5f, 2.0f);
  return randomTensor(type, seed, name, low, high);
}

std::optional<Attributes> applicationAttributes(const SynthOp& op, std::span<const TensorType> in,
                                                std::span<const int64_t> splitSizes) {
  if (static_cast<int>(in.size()) != op.arity) return std::nullopt;
  Attributes attrs;
  if (op.tensat) {
    switch (op.kind) {
    case OpKind::Add:
    case OpKind::Mul:
      if (in[0] != in[1]) return std::nullopt; // TENSAT's element-wise ops do not broadcast
      break;
    case OpKind::MatMul:
      // TASO's generator multiplies matrices: a batched product of [4,4,1,1] kernels is an
      // element-wise one, and its coincidences only cost refused verifications.
      if (in[0].rank() != 2 || in[1].rank() != 2) return std::nullopt;
      break;
    case OpKind::Conv: {
      if (in[0].rank() != 4 || in[1].rank() != 4 || in[0].shape[1] != in[1].shape[1]) return std::nullopt;
      attrs.set("strides", std::vector<int64_t>{op.strideH, op.strideW});
      attrs.set("pads", tensatConvPads(op.padding, in[0].shape, in[1].shape, op.strideH, op.strideW));
      if (op.attrs.has("activation")) attrs.set("activation", op.attrs.getInt("activation", 0));
      break;
    }
    case OpKind::Concat:
      if (in[0].rank() != op.rank || in[1].rank() != op.rank) return std::nullopt;
      attrs.set("axis", op.axis);
      break;
    case OpKind::Split:
      if (splitSizes.size() != 2 || op.axis >= in[0].rank() || splitSizes[0] + splitSizes[1] != in[0].shape[op.axis])
        return std::nullopt;
      attrs.set("axis", op.axis);
      attrs.set("split", std::vector<int64_t>(splitSizes.begin(), splitSizes.end()));
      break;
    case OpKind::Enlarge:
      if (in[0].rank() != 4 || in[1].rank() != 4 || in[0].shape[2] > in[1].shape[2] || in[0].shape[3] > in[1].shape[3]) return std::nullopt;
      if (in[0].shape[2] == in[1].shape[2] && in[0].shape[3] == in[1].shape[3]) return std::nullopt; // TASO: a real enlargement
      break;
    default: break;
    }
  } else {
    attrs = op.attrs;
    if (op.kind == OpKind::Transpose && static_cast<int64_t>(attrs.getInts("perm").size()) != in[0].rank()) return std::nullopt;
    // Broadcasting as models use it: equal shapes, or a bias vector against a tensor. Other
    // broadcasts multiply the graphs to enumerate and rarely occur.
    if (isOneOf(op.kind, kBinaryOps) && in[0] != in[1] && in[0].rank() > 1 && in[1].rank() > 1) return std::nullopt;
  }
  try {
    inferOutputTypes(op.kind, attrs, in);
    return canonicalAttributes(op.kind, attrs, in);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string renderApplication(const SynthOp& op, std::span<const std::string> operands, int port) {
  std::string s;
  if (op.kind == OpKind::Split)
    return "(split_" + std::to_string(port) + " (split " + std::to_string(op.axis) + " " + operands[0] + "))";
  if (op.tensat) {
    s = "(" + op.dslName;
    if (op.kind == OpKind::MatMul) s += " 0";
    if (op.kind == OpKind::Conv)
      s += " " + std::to_string(op.strideH) + " " + std::to_string(op.strideW) + " " + std::to_string(op.padding) + " " +
           std::to_string(op.attrs.getInt("activation", 0));
    if (op.kind == OpKind::Concat) s += " " + std::to_string(op.axis) + " " + std::to_string(op.rank);
  } else {
    s = "(" + op.dslName;
    if (!op.attrs.empty()) {
      s += "{";
      bool first = true;
      for (const auto& [key, value] : op.attrs.entries()) {
        s += (first ? "" : ", ") + key + "=" + attributeText(value);
        first = false;
      }
      s += "}";
    }
  }
  for (const std::string& operand : operands) s += " " + operand;
  return s + ")";
}

SynthVocabulary vocabularyFromOps(const std::vector<std::string>& names, const VocabularyOptions& options) {
  if (names.empty()) throw Error("--ops lists no op");
  SynthVocabulary vocabulary;
  std::vector<std::vector<SynthOp>> variants;
  for (const std::string& name : names) variants.push_back(defaultVariants(name));
  for (const auto& list : variants)
    for (const SynthOp& op : list) vocabulary.ops.push_back(op);
  // TASO's generator: 2-D activations [2,4] and weights [4,4]; 4-D images and kernels for convs.
  addVariables(vocabulary.variables, "x", {2, 4}, options.variablesPerShape);
  addVariables(vocabulary.variables, "w", {4, 4}, options.variablesPerShape);
  if (needs4d(vocabulary.ops)) {
    addVariables(vocabulary.variables, "i", {1, 4, 5, 5}, options.variablesPerShape);
    addVariables(vocabulary.variables, "k", {4, 4, 3, 3}, std::max(1, options.variablesPerShape - 1));
    addVariables(vocabulary.variables, "k", {4, 4, 1, 1}, 1);
  }
  // A name must apply somewhere; its variants that fit no variable (a rank-4 concat without convs)
  // are left out.
  vocabulary.ops.clear();
  for (size_t i = 0; i < names.size(); ++i) {
    size_t before = vocabulary.ops.size();
    for (SynthOp& op : variants[i])
      if (probe(op, vocabulary.variables)) vocabulary.ops.push_back(std::move(op));
    if (vocabulary.ops.size() == before) throw Error("op '" + names[i] + "' applies to none of the synthesis variables' shapes");
  }
  return vocabulary;
}

SynthVocabulary vocabularyFromModels(std::span<const Graph* const> models, std::span<const std::string> modelNames,
                                     const VocabularyOptions& options) {
  SynthVocabulary vocabulary;
  std::set<std::string> seen;
  std::set<int64_t> ranks;
  std::set<std::pair<int64_t, int64_t>> kernels;
  std::map<std::string, int> skipped;
  std::map<double, int> scalarUses; // one-element float weights read by element-wise binary ops
  std::set<std::array<int64_t, 3>> mineKernels; // mined convolutions' kernels: {1 (depthwise) or 4, kh, kw}
  bool wantsSplit = false;
  auto add = [&](SynthOp op) {
    std::string key = op.label;
    if (seen.insert(key).second) vocabulary.ops.push_back(std::move(op));
  };
  for (size_t m = 0; m < models.size(); ++m) {
    const Graph& graph = *models[m];
    for (const Node& node : graph.nodes()) {
      if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
      std::vector<TensorType> inputs;
      for (ValueRef input : node.inputs)
        if (!input.isNone()) inputs.push_back(graph.typeOf(input));
      auto noteRanks = [&] {
        for (const TensorType& t : inputs)
          if (t.rank() >= 1 && t.rank() <= 4) ranks.insert(t.rank());
      };
      const std::string name(opName(node.kind));
      const bool mined = options.mineMaxOps > 0 && minedOpFor(graph, node).has_value();
      if (mined) {
        noteRanks();
        if (node.kind == OpKind::Conv) {
          const Shape& kernel = inputs[1].shape;
          mineKernels.insert({kernel[1] == 1 ? 1 : 4, kernel[2], kernel[3]});
        }
      }
      if (mined && node.kind == OpKind::Conv) {
        // Mining adds the convolution with its own attributes (bias, groups, any padding).
        wantsSplit = true;
        continue;
      }
      if ((isOneOf(node.kind, kUnaryOps) || isOneOf(node.kind, kBinaryOps)) && node.attrs.empty()) {
        add(nativeOp(node.kind));
        if (isOneOf(node.kind, kBinaryOps))
          for (ValueRef input : node.inputs) {
            if (input.isNone()) continue;
            const Node& producer = graph.node(input.node);
            if (producer.kind != OpKind::Weight || !producer.weight || producer.weight->numel() != 1 || !producer.weight->holdsFloats()) continue;
            const double value = producer.weight->floatAt(0);
            // 0 and 1 only give identities (x * 1 = x); a mask's -3.4e38 absorbs whatever it is added to.
            if (std::isfinite(value) && value != 0 && value != 1 && std::abs(value) < 1e4) ++scalarUses[value];
          }
        for (const TensorType& t : inputs)
          if (t.numel() > 1 && t.rank() >= 1 && t.rank() <= 4) ranks.insert(t.rank());
        continue;
      }
      switch (node.kind) {
      case OpKind::Clip:
      case OpKind::HardSigmoid:
        // Float attributes a pattern writes exactly (Clip{max=6.0, min=0.0}); a Clip whose bounds
        // are still inputs is left out.
        if (inputs.size() != 1) break;
        add(nativeOp(node.kind, node.attrs));
        noteRanks();
        continue;
      case OpKind::MatMul:
        add(nativeOp(OpKind::MatMul, {{"activation", int64_t{0}}}));
        noteRanks();
        wantsSplit = true;
        continue;
      case OpKind::Transpose:
      case OpKind::Softmax:
      case OpKind::LogSoftmax:
      case OpKind::ReduceMean:
      case OpKind::ReduceSum: {
        Attributes attrs = node.attrs;
        if (node.kind == OpKind::ReduceMean || node.kind == OpKind::ReduceSum) {
          if (!attrs.has("axes")) break; // every axis: not a pattern worth pinning
          if (!attrs.has("keepdims")) attrs.set("keepdims", int64_t{1});
        }
        if ((node.kind == OpKind::Softmax || node.kind == OpKind::LogSoftmax) && !attrs.has("axis")) attrs.set("axis", int64_t{-1});
        add(nativeOp(node.kind, attrs));
        noteRanks();
        continue;
      }
      case OpKind::Concat:
        if (inputs.size() == 2 && node.attrs.has("axis")) {
          add(concatOp(node.attrs.getInt("axis", 0), inputs[0].rank()));
          noteRanks();
          continue;
        }
        break;
      case OpKind::Conv: {
        if (inputs.size() < 2 || inputs[0].rank() != 4 || inputs[1].rank() != 4 || inputs[0].shape[1] != inputs[1].shape[1] ||
            node.attrs.has("dilations"))
          break;
        std::vector<int64_t> strides = node.attrs.getInts("strides", {1, 1});
        if (strides[0] != strides[1]) break;
        std::vector<int64_t> pads = node.attrs.getInts("pads", {0, 0, 0, 0});
        int64_t padding = -1;
        for (int64_t code : {int64_t{0}, int64_t{1}})
          if (pads == tensatConvPads(code, inputs[0].shape, inputs[1].shape, strides[0], strides[1])) padding = code;
        if (padding < 0) break;
        add(convOp(strides[0], padding, 0));
        kernels.insert({inputs[1].shape[2], inputs[1].shape[3]});
        ranks.insert(4);
        wantsSplit = true;
        continue;
      }
      default: break;
      }
      if (!mined) ++skipped[name]; // mined ops join the vocabulary through the patterns
    }
  }
  if (vocabulary.ops.empty())
    throw Error("the model(s) have no op that synthesis supports (synthesis knows: " + supportedNames() + ")");
  for (const auto& [name, count] : skipped)
    vocabulary.notes.push_back(name + " (" + std::to_string(count) + " nodes): not enumerated (attributes or inputs a pattern cannot pin down)");
  // One input feeding several products (Q, K, V): concatenate the weights, split the result.
  if (wantsSplit) {
    int64_t last = ranks.empty() ? 1 : *ranks.rbegin() - 1;
    if (ranks.count(2)) add(concatOp(1, 2));
    if (!kernels.empty()) add(concatOp(0, 4));
    for (int64_t axis = 1; axis <= last; ++axis) add(splitOp(axis));
  }
  const std::map<int64_t, std::pair<std::string, Shape>> shapes = {
      {1, {"b", {4}}}, {2, {"w", {4, 4}}}, {3, {"x", {2, 4, 4}}}, {4, {"i", {1, 4, 4, 4}}}};
  for (int64_t rank : ranks) addVariables(vocabulary.variables, shapes.at(rank).first, shapes.at(rank).second, options.variablesPerShape);
  for (auto [kh, kw] : kernels) addVariables(vocabulary.variables, "k", {4, 4, kh, kw}, std::max(1, options.variablesPerShape - 1));
  for (auto [in, kh, kw] : mineKernels)
    if (in != 4 || !kernels.count({kh, kw})) addVariables(vocabulary.variables, "k", {4, in, kh, kw}, std::max(1, options.variablesPerShape - 1));
  // The model's scalar constants: its most used values as literals (#8, #0.5), and one `#?s` for
  // any other scalar weight.
  if (!scalarUses.empty()) {
    std::vector<std::pair<int, double>> byUse;
    for (const auto& [value, uses] : scalarUses) byUse.push_back({-uses, value});
    std::sort(byUse.begin(), byUse.end());
    for (size_t i = 0; i < byUse.size() && i < static_cast<size_t>(options.literalsPerModel); ++i) {
      SynthVariable literal{"c" + std::to_string(i), floatType({1})};
      literal.literal = byUse[i].second;
      vocabulary.variables.push_back(literal);
    }
    // Mined patterns hold several distinct constants (a scale and a shift).
    for (int i = 0; i < (options.mineMaxOps > 0 ? options.variablesPerShape : 1); ++i) {
      SynthVariable scalar{"s", floatType({1})};
      scalar.scalar = true;
      vocabulary.variables.push_back(scalar);
    }
  }
  if (options.mineMaxOps > 0) addFusedForms(vocabulary, add);
  // Ops none of the variables fit (a Transpose of rank 5) are dropped with a note, not an error.
  std::vector<SynthOp> kept;
  for (SynthOp& op : vocabulary.ops) {
    if (probe(op, vocabulary.variables)) {
      kept.push_back(std::move(op));
      continue;
    }
    vocabulary.notes.push_back(op.label + ": applies to none of the synthesis variables' shapes; dropped");
  }
  vocabulary.ops = std::move(kept);
  mineModelPatterns(models, modelNames, vocabulary, options.mineMaxOps, options.maxPatterns);
  if (vocabulary.ops.empty()) throw Error("no op of the model(s) applies to the synthesis variables");
  return vocabulary;
}

} // namespace tessera::synth
