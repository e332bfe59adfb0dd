#include "rewrite/TensatVocabulary.h"

#include <algorithm>
#include <array>

namespace tessera {

namespace {

constexpr std::array kVocabulary = {
    TensatOp{"ewadd", "TT", OpKind::Add},       TensatOp{"ewmul", "TT", OpKind::Mul},
    TensatOp{"smul", "TT", OpKind::ScalarMul},  TensatOp{"relu", "T", OpKind::Relu},
    TensatOp{"tanh", "T", OpKind::Tanh},        TensatOp{"sigmoid", "T", OpKind::Sigmoid},
    TensatOp{"matmul", "NTT", OpKind::MatMul},  TensatOp{"conv2d", "NNNNTT", OpKind::Conv},
    TensatOp{"gconv2d", "NNNNTT", OpKind::Conv},
    TensatOp{"concat", "NNTT", OpKind::Concat}, TensatOp{"split", "NT", OpKind::Split},
    TensatOp{"split_0", "T", OpKind::Split},    TensatOp{"split_1", "T", OpKind::Split},
    TensatOp{"enlarge", "TT", OpKind::Enlarge}, TensatOp{"merge", "TN", OpKind::MergeGroups},
};

const TensorType& typeOf(const EGraph& egraph, EClassId id) { return egraph.data(id).type; }

bool isSplit(const TensatOp& op) { return op.kind == OpKind::Split; }

// Activation codes are shared by TENSAT and the IR's `activation` attribute.
bool validActivation(int64_t act) { return act >= 0 && act <= 3; }

// TENSAT's matmul is a (batched) matrix product of operands of one rank >= 2: its rules, such as
// associativity, do not hold for numpy's vector promotion.
bool tensatMatmulOperands(const EGraph& egraph, EClassId a, EClassId b) {
  int64_t rank = typeOf(egraph, a).rank();
  return rank >= 2 && rank == typeOf(egraph, b).rank();
}

} // namespace

int TensatOp::numbers() const { return static_cast<int>(std::count(layout.begin(), layout.end(), 'N')); }
int TensatOp::tensors() const { return static_cast<int>(std::count(layout.begin(), layout.end(), 'T')); }

const TensatOp* findTensatOp(std::string_view name) {
  for (const TensatOp& op : kVocabulary)
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<int64_t> tensatConvPads(int64_t padding, const Shape& input, const Shape& weight, int64_t strideH, int64_t strideW) {
  if (padding != 0) return {0, 0, 0, 0};
  auto same = [](int64_t in, int64_t kernel, int64_t stride) {
    int64_t out = (in + stride - 1) / stride;
    return std::max<int64_t>((out - 1) * stride + kernel - in, 0);
  };
  int64_t padH = same(input[2], weight[2], strideH);
  int64_t padW = same(input[3], weight[3], strideW);
  return {padH / 2, padW / 2, padH - padH / 2, padW - padW / 2};
}

bool matchesTensatOp(const EGraph& egraph, const ENode& node, const TensatOp& op, std::span<const int64_t> numbers) {
  if (node.op != op.kind || isSplit(op)) return false;
  if (static_cast<int>(node.children.size()) != op.tensors()) return false;
  const Attributes& attrs = egraph.attributes().get(node.payload);
  switch (op.kind) {
  case OpKind::Add:
  case OpKind::Mul:
    // TENSAT's element-wise ops do not broadcast; neither do the rules written for them.
    return typeOf(egraph, node.children[0]) == typeOf(egraph, node.children[1]);
  case OpKind::MatMul:
    return attrs.getInt("activation", 0) == numbers[0] && tensatMatmulOperands(egraph, node.children[0], node.children[1]);
  case OpKind::Conv: {
    if (attrs.getInt("activation", 0) != numbers[3] || attrs.has("dilations")) return false;
    // TASO synthesised and verified its conv rules on ordinary convs: `conv2d` matches only those
    // (input channels == weight channels). `gconv2d` (Tessera) matches grouped convs too.
    if (op.name == "conv2d" && typeOf(egraph, node.children[0]).shape[1] != typeOf(egraph, node.children[1]).shape[1]) return false;
    if (attrs.getInts("strides", {1, 1}) != std::vector<int64_t>{numbers[0], numbers[1]}) return false;
    const Shape& x = typeOf(egraph, node.children[0]).shape;
    const Shape& w = typeOf(egraph, node.children[1]).shape;
    return attrs.getInts("pads", {0, 0, 0, 0}) == tensatConvPads(numbers[2], x, w, numbers[0], numbers[1]);
  }
  case OpKind::Concat:
    return attrs.getInt("axis", 0) == numbers[0] && typeOf(egraph, node.children[0]).rank() == numbers[1];
  case OpKind::MergeGroups: return false; // right-hand sides only
  default: return attrs.empty();
  }
}

std::optional<BuiltOp> buildTensatOp(const EGraph& egraph, const TensatOp& op, std::span<const int64_t> numbers,
                                     std::span<const EClassId> children) {
  switch (op.kind) {
  case OpKind::Add:
  case OpKind::Mul:
    if (typeOf(egraph, children[0]) != typeOf(egraph, children[1])) return std::nullopt;
    return BuiltOp{op.kind, {}};
  case OpKind::MatMul:
    if (!validActivation(numbers[0]) || !tensatMatmulOperands(egraph, children[0], children[1])) return std::nullopt;
    return BuiltOp{op.kind, {{"activation", numbers[0]}}};
  case OpKind::Conv: {
    const TensorType& x = typeOf(egraph, children[0]);
    const TensorType& w = typeOf(egraph, children[1]);
    if (x.rank() != 4 || w.rank() != 4 || numbers[0] < 1 || numbers[1] < 1 || !validActivation(numbers[3])) return std::nullopt;
    if (numbers[2] != 0 && numbers[2] != 1) return std::nullopt;
    return BuiltOp{op.kind,
                   {{"strides", std::vector<int64_t>{numbers[0], numbers[1]}},
                    {"pads", tensatConvPads(numbers[2], x.shape, w.shape, numbers[0], numbers[1])},
                    {"activation", numbers[3]}}};
  }
  case OpKind::Concat:
    if (typeOf(egraph, children[0]).rank() != numbers[1]) return std::nullopt;
    return BuiltOp{op.kind, {{"axis", numbers[0]}}};
  case OpKind::MergeGroups: return std::nullopt; // only as a conv weight: PatternRule knows the groups
  case OpKind::Split: return std::nullopt; // built by the pattern applier, which knows the sizes
  default: return BuiltOp{op.kind, {}};
  }
}

} // namespace tessera
