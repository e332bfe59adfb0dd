// What an op's cost depends on: its kind, input and output types and attributes. TASO measures
// each distinct signature once; every cost model and cache is keyed by it.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"
#include "ir/TensorType.h"

#include <string>
#include <vector>

namespace tessera {

struct OpSignature {
  OpKind kind = OpKind::Identity;
  std::vector<TensorType> inputs;
  std::vector<TensorType> outputs;
  Attributes attrs;

  // A stable text key, e.g. "Conv|f32[1,64,56,56];f32[64,64,3,3]|f32[1,64,56,56]|pads=[1,1,1,1]".
  std::string key() const;
  friend bool operator==(const OpSignature&, const OpSignature&) = default;
};

} // namespace tessera
