// Mapping of the ONNX ops the IR knows onto the IR's canonical forms, for every opset from 9 to
// 21 (the forms are documented in ir/ShapeInference.cpp). A node in a form the IR does not
// model (a 1-D convolution, a used Indices output, an unknown attribute, a shape operand that
// is not constant) is reported back so that it stays opaque.
#pragma once

#include "ir/Graph.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::onnx_io {

class ImportContext;
class OnnxNode;

// Graph values for the node's outputs in ONNX order (outputs nobody reads may be missing at the
// end), or nullopt when the node must stay opaque. Throws tessera::Error for a malformed node.
using ImportedOutputs = std::optional<std::vector<ValueRef>>;

ImportedOutputs importKnownOp(ImportContext& ctx, const OnnxNode& node, OpKind kind);
// CastLike: a Cast to the element type of its second input.
ImportedOutputs importCastLike(ImportContext& ctx, const OnnxNode& node);

// Ops whose shape-like operands became inputs in newer opsets (ImportLayoutOps.cpp).
ImportedOutputs importReshape(ImportContext& ctx, const OnnxNode& node);
ImportedOutputs importSplit(ImportContext& ctx, const OnnxNode& node);
ImportedOutputs importSlice(ImportContext& ctx, const OnnxNode& node);
ImportedOutputs importPad(ImportContext& ctx, const OnnxNode& node);
ImportedOutputs importSqueezeOrUnsqueeze(ImportContext& ctx, const OnnxNode& node, OpKind kind);
ImportedOutputs importReduce(ImportContext& ctx, const OnnxNode& node, OpKind kind);
ImportedOutputs importWithConstantOperand(ImportContext& ctx, const OnnxNode& node, OpKind kind);
ImportedOutputs importClip(ImportContext& ctx, const OnnxNode& node);

// Shared by both files.
// The integer values of constant input `i` (present), or nullopt when it is computed at run time.
std::optional<std::vector<int64_t>> constantInts(const ImportContext& ctx, const OnnxNode& node, int i);
// The one value of constant scalar input `i` (present), or nullopt when it is not constant.
std::optional<float> constantScalar(const ImportContext& ctx, const OnnxNode& node, int i);
int64_t normalizedAxis(const OnnxNode& node, int64_t axis, int64_t rank);
inline ImportedOutputs singleOutput(NodeId id) { return std::vector<ValueRef>{ValueRef{id, 0}}; }

} // namespace tessera::onnx_io
