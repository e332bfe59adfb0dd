// Sizes for the axes a model leaves open. The IR optimises a graph of fixed shape (as TASO and
// TENSAT do), so every symbolic (dim_param) or unknown input axis needs a value at import:
// a whole input's shape (`--input-shape x=1x3x640x640`) or a named symbolic dimension wherever it
// appears (`--dim N=1`, ONNX Runtime's free-dimension override). An axis left open is an error
// naming it, never a silent guess.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::onnx_io {

struct ShapeBindings {
  std::map<std::string, Shape> inputShapes; // graph input name -> its whole shape
  std::map<std::string, int64_t> dims;      // dim_param -> size, on every input that names it

  bool empty() const { return inputShapes.empty() && dims.empty(); }
  friend bool operator==(const ShapeBindings&, const ShapeBindings&) = default;
};

// Parse "NAME=1x3x640x640" and "NAME=VALUE" (sizes positive integers) into `into`. Throw
// tessera::Error quoting the text for a malformed one or a name given twice.
void parseInputShapeBinding(std::string_view text, ShapeBindings& into);
void parseDimBinding(std::string_view text, ShapeBindings& into);
// "--input-shape x=1x3x48x192 --dim N=1": the bindings as command-line options.
std::string describeBindings(const ShapeBindings& bindings);

// A graph input as the model declares it: -1 for an open axis, with the axis's dim_param where
// it is symbolic ("" where static or unknown).
struct DeclaredInput {
  std::string name;
  bool hasShape = false;
  std::vector<int64_t> dims;
  std::vector<std::string> params;

  bool isOpen() const;
};

// Checks `bindings` against the inputs they can bind (graph inputs that are neither initializers
// nor given a value) and returns every such input's shape, in `inputs` order. Throws
// tessera::Error for an --input-shape naming no such input, of the wrong rank or disagreeing with
// a static size; a --dim naming no symbolic dimension of these inputs, or contradicting an
// --input-shape; and, listing each one (input, axis, dim_param) and the options that set it, for
// every axis left without a value.
std::vector<Shape> resolveInputShapes(const std::vector<DeclaredInput>& inputs, const ShapeBindings& bindings);

// The open axes of `inputs` that `bindings` gives no size (size -1), without checking the
// bindings otherwise: what an open dialog still has to ask for.
std::vector<FreeAxis> axesLeftOpen(const std::vector<DeclaredInput>& inputs, const ShapeBindings& bindings);

// The free axes (ModelInfo::freeAxes) of `inputs` once resolved to `shapes`.
std::vector<FreeAxis> inputFreeAxes(const std::vector<DeclaredInput>& inputs, const std::vector<Shape>& shapes);

// The bindings under which the model `graph` was imported from imports to the same shapes again:
// the whole shape of every input with a free axis.
ShapeBindings bindingsReproducing(const Graph& graph);

// "p2o.DynamicDimension.0", or "x[3]" for an unnamed axis: how reports name a free axis's size.
std::string freeAxisLabel(const FreeAxis& axis);

} // namespace tessera::onnx_io
