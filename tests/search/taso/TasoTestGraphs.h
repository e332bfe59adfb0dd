// Small models on which the whole-graph rewriting searches (taso, greedy, the RL environment)
// have something to do, shared by their tests.
#pragma once

#include "ir/Graph.h"

#include <vector>

namespace tessera::test {

inline TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Inception-style branches with fusable relus, a shared-input pair and a tail: a small model on
// which several kinds of rules apply.
inline Graph smallModel() {
  using Ints = std::vector<int64_t>;
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.05));
  NodeId w3 = g.addWeight("w3", Tensor::splat(f32({8, 8, 1, 1}), -0.1));
  NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}});
  NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}})}});
  NodeId c = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w3}})}});
  NodeId joined = g.addNode(OpKind::Concat, {{a}, {b}, {c}}, {{"axis", int64_t{1}}});
  g.addOutput({g.addNode(OpKind::Tanh, {{joined}})}, "y");
  return g;
}

// Greedy's trap with the rules {tensat-m08, tensat-s115}: pairing the relus (m08) adds a concat,
// so it is a little costlier, but then the concat of two convs of x folds into one conv (s115).
// A chain of Exp ops, which no rule touches, makes the detour cost under 5% of the whole.
inline Graph pairedBranchesWithTail(int tail) {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 8, 8}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 1, 1}), 0.2));
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}})}, "a");
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}})}})}, "b");
  NodeId value = g.addInput("t", f32({8, 8}));
  for (int i = 0; i < tail; ++i) value = g.addNode(OpKind::Exp, {{value}});
  g.addOutput({value}, "tail");
  return g;
}

} // namespace tessera::test
