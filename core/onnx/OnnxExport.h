// Export of a Graph to a valid ONNX model (checked by onnx::checker). Splat weights are written
// as ConstantOfShape nodes (the "light model" convention), other weights as initializers.
#pragma once

#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tessera::onnx_io {

struct ExportOptions {
  // Axes of graph inputs and outputs (as ModelInfo::freeAxes names them) written open, with their
  // dim_param or of unknown size, instead of at the size the graph has. When any is, intermediate
  // tensors declare their rank but no sizes, since theirs may follow the open ones. Whether the
  // graph really computes the same at other sizes is the caller's to check (search/FreeDimensionExport.h).
  std::vector<FreeAxis> openAxes;
};

// Serialized ModelProto bytes. Throws tessera::Error when the checker rejects the result.
std::string exportOnnxBytes(const Graph& graph, const ExportOptions& options = {});
void exportOnnxFile(const Graph& graph, const std::string& path, const ExportOptions& options = {});
// Writes exported bytes to `path`; throws tessera::Error naming the file when it cannot.
void writeModelFile(const std::string& bytes, const std::string& path);

} // namespace tessera::onnx_io
