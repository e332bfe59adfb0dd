// Import of ONNX models (opset 9-21) into a Graph. Initializers, Constant and ConstantOfShape
// become weights; shape-like constant inputs (Reshape's shape, Slice's starts, ...) become
// attributes in the IR's canonical form; ops Tessera does not know become opaque nodes.
#pragma once

#include "ir/Graph.h"

#include <string>
#include <string_view>

namespace tessera::onnx_io {

// Throws tessera::Error "<path>: <problem>" for a missing, truncated or inconsistent model.
Graph importOnnxFile(const std::string& path);
// `sourceName` names the model in error messages.
Graph importOnnxBytes(std::string_view bytes, const std::string& sourceName);

} // namespace tessera::onnx_io
