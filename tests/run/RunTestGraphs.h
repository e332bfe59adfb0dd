// The graph the run facade's tests search: conv (SAME) -> relu, which tensat-s063 fuses into one
// conv, so every strategy finds a candidate one op smaller.
#pragma once

#include "ir/Graph.h"

namespace tessera::testing {

inline Graph convRelu() {
  Graph g;
  const TensorType input{DType::Float32, {1, 8, 14, 14}}, weight{DType::Float32, {8, 8, 3, 3}};
  NodeId x = g.addInput("x", input);
  NodeId w = g.addWeight("w", Tensor::splat(weight, 0.1));
  NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  g.addOutput({g.addNode(OpKind::Relu, {{conv}})}, "y");
  return g;
}

} // namespace tessera::testing
