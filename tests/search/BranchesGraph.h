// The small model the search tests share: two relu'd convs of one input (Inception-style
// branches), concatenated, on which fusion and the enlarge/concat rules both apply.
#pragma once

#include "ir/Graph.h"

#include <vector>

namespace tessera::test {

inline Graph branches() {
  auto f32 = [](Shape shape) { return TensorType{DType::Float32, std::move(shape)}; };
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w1}})}});
  NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}})}});
  g.addOutput({g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}})}, "y");
  return g;
}

} // namespace tessera::test
