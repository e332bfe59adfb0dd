// Import-time evaluation of the small integer computations exported models use to build shapes
// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape), so that shape-like inputs become
// constants. Shape of any tensor folds: every shape in the IR is static.
#pragma once

namespace tessera::onnx_io {

class ImportContext;
class OnnxNode;

// When `node` is Shape, Size, Identity, Cast, Gather, Concat, Unsqueeze, Squeeze, Slice, Add,
// Sub, Mul or Div and its inputs are small integer constants (Cast and Identity: any small
// constant; Shape and Size: any input), defines its outputs as constants and returns true.
// Otherwise returns false and changes nothing. Throws tessera::Error for values that cannot be
// evaluated (an index out of range, a division by zero).
bool foldConstantNode(ImportContext& ctx, const OnnxNode& node);

} // namespace tessera::onnx_io
