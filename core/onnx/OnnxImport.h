// Import of ONNX models (opset 1-21) into a Graph. Initializers, Constant and ConstantOfShape
// become weights; shape-like constant inputs (Reshape's shape, Slice's starts, ...) become
// attributes in the IR's canonical form; ops Tessera does not know become opaque nodes.
#pragma once

#include "ir/Graph.h"
#include "onnx/ShapeBindings.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::onnx_io {

// Graph inputs given a fixed value at import, by name: they become constants like initializers.
// The IR has static shapes, so a shape operand (Reshape's shape, Slice's starts, ...) that a model
// takes as an input can only be imported with its value bound.
using BoundInputs = std::map<std::string, Tensor>;

// Throws tessera::Error "<path>: <problem>" for a missing, truncated or inconsistent model, a
// bound input whose value does not fit the input's declared type, shape bindings that do not fit
// the model, or an open input axis (symbolic or unknown) that `shapes` leaves without a value
// (onnx/ShapeBindings.h). The graph's info records the free axes and their sizes.
Graph importOnnxFile(const std::string& path, const ShapeBindings& shapes = {}, const BoundInputs& bound = {});
Graph importOnnxFile(const std::string& path, const BoundInputs& bound);
// `sourceName` names the model in error messages.
Graph importOnnxBytes(std::string_view bytes, const std::string& sourceName, const ShapeBindings& shapes = {},
                      const BoundInputs& bound = {});
Graph importOnnxBytes(std::string_view bytes, const std::string& sourceName, const BoundInputs& bound);

// The graph inputs that shape bindings can bind (neither initializers nor given a value), as
// declared, without importing the model: what the explorer asks for before opening a model.
// Throws tessera::Error "<path>: <problem>" for a file that is not an ONNX model.
std::vector<DeclaredInput> bindableInputs(const std::string& path);
std::vector<DeclaredInput> bindableInputsOfBytes(std::string_view bytes, const std::string& sourceName);

} // namespace tessera::onnx_io
