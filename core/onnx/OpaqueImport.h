// Nodes the IR does not model become opaque nodes: their inputs (absent optional ones as
// ValueRef::none()), outputs, serialized attributes and output types are kept so that export
// writes them back unchanged.
#pragma once

#include <string>

namespace tessera::onnx_io {

class ImportContext;
class OnnxNode;

// Output types come from libonnx's shape inference, else from the model's declared
// value_info / graph outputs; a read output whose type is still unknown is an Error naming
// the node. `domain` is the node's domain with "ai.onnx" spelled "".
void importOpaque(ImportContext& ctx, const OnnxNode& node, const std::string& domain);

} // namespace tessera::onnx_io
