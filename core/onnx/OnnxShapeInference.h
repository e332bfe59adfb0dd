// Output types of a node Tessera cannot type itself (an opaque op), from libonnx's shape
// inference run on a one-node model. The node's inputs carry Tessera's static types and small
// constant inputs travel as initializers, so shape-computing inputs (Resize scales, Expand
// shape) are seen; running one node at a time keeps the cost linear and libonnx away from the
// rest of an untrusted file.
#pragma once

#include "ir/Tensor.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::onnx_io {

struct InferenceInput {
  std::string name;
  TensorType type;
  const Tensor* constant = nullptr; // known value, or nullptr
};

// One entry per output of `node`: the inferred type when it is a fully static tensor of a type
// Tessera carries, else nullopt. libonnx knows opsets up to 17; later opsets are inferred with
// the newest definitions it has. Nodes libonnx cannot be trusted with (OnnxInferenceGuard.h)
// get no inferred types.
std::vector<std::optional<TensorType>> inferWithOnnx(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs,
                                                     int64_t opset, const std::vector<std::pair<std::string, int64_t>>& otherOpsets);

} // namespace tessera::onnx_io
