// TENSAT's op vocabulary in terms of Tessera's IR: which e-nodes a pattern op like
// `(conv2d 1 1 0 2 ?x ?w)` matches, and which op and attributes it builds.
// Padding SAME=0 VALID=1; activation NONE=0 SIGMOID=1 RELU=2 TANH=3. `conv2d` matches ungrouped
// convs only (where TASO verified its rules); Tessera's `gconv2d` matches any group count.
#pragma once

#include "egraph/EGraph.h"

#include <optional>
#include <span>
#include <string_view>

namespace tessera {

struct TensatOp {
  std::string_view name;
  std::string_view layout; // one letter per argument: N = integer literal, T = tensor pattern
  OpKind kind;             // the IR op it stands for (Split for split/split_0/split_1)
  int numbers() const;
  int tensors() const;
};

// nullptr when the name is not part of the vocabulary.
const TensatOp* findTensatOp(std::string_view name);

// Does `node` implement `op` with these integer arguments? Its children are the tensor arguments
// in order. split, split_0 and split_1 never match: they only appear on right-hand sides.
bool matchesTensatOp(const EGraph& egraph, const ENode& node, const TensatOp& op, std::span<const int64_t> numbers);

struct BuiltOp {
  OpKind kind;
  Attributes attrs;
};

// The IR op for `op` with these integer arguments applied to `children`; nullopt when the
// arguments make no sense for the children's types (a rule then does not apply).
std::optional<BuiltOp> buildTensatOp(const EGraph& egraph, const TensatOp& op, std::span<const int64_t> numbers,
                                     std::span<const EClassId> children);

// TASO's SAME/VALID padding of a conv as explicit pads [top, left, bottom, right].
std::vector<int64_t> tensatConvPads(int64_t padding, const Shape& input, const Shape& weight, int64_t strideH, int64_t strideW);

} // namespace tessera
