// Export of a Graph to a valid ONNX model (checked by onnx::checker). Splat weights are written
// as ConstantOfShape nodes (the "light model" convention), other weights as initializers.
#pragma once

#include "ir/Graph.h"

#include <string>

namespace tessera::onnx_io {

// Serialized ModelProto bytes. Throws tessera::Error when the checker rejects the result.
std::string exportOnnxBytes(const Graph& graph);
void exportOnnxFile(const Graph& graph, const std::string& path);

} // namespace tessera::onnx_io
