// An e-node: an op applied to e-classes. Attributes are interned (payload); leaves (inputs,
// weights) and opaque ops carry an index into the e-graph's leaf table instead. A multi-output op
// (Split) is one e-node per output port, so every e-class holds values of exactly one type.
#pragma once

#include "ir/Op.h"
#include "support/Hash.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tessera {

using EClassId = uint32_t;

struct ENode {
  OpKind op = OpKind::Identity;
  uint16_t port = 0;
  uint32_t payload = 0; // attribute id for ops; leaf id for Input, Weight and Opaque
  std::vector<EClassId> children;

  friend bool operator==(const ENode&, const ENode&) = default;

  // True for nodes that stand for a whole tensor of the model (input or weight).
  bool isLeaf() const { return op == OpKind::Input || op == OpKind::Weight; }
};

struct ENodeHash {
  size_t operator()(const ENode& node) const {
    size_t h = (static_cast<size_t>(node.op) << 20) ^ (static_cast<size_t>(node.port) << 40) ^ node.payload;
    for (EClassId child : node.children) hashCombine(h, child);
    return h;
  }
};

} // namespace tessera
