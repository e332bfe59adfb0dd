// Constant and ConstantOfShape nodes: their outputs become constants of the import (and Weight
// nodes once an op reads them). ConstantOfShape gives a splat, so the "light" benchmark models,
// whose weights are all ConstantOfShape, stay tiny in memory.
#pragma once

namespace tessera::onnx_io {

class ImportContext;
class OnnxNode;

// Every value_* form; strings and sparse tensors are an Error.
void importConstant(ImportContext& ctx, const OnnxNode& node);
// Returns false (changing nothing) when the shape input is computed at run time.
bool importConstantOfShape(ImportContext& ctx, const OnnxNode& node);

} // namespace tessera::onnx_io
