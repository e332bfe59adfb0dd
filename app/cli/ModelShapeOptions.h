// --input-shape and --dim, the sizes of a model's open input axes, for every command that loads
// a model: the options, their help and the import that applies them live here once.
#pragma once

#include "ir/Graph.h"
#include "onnx/ShapeBindings.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace tessera::cli {

struct ModelShapeOptions {
  std::vector<std::string> inputShapes; // "[MODEL:]NAME=AxBxC..."
  std::vector<std::string> dims;        // "[MODEL:]NAME=VALUE"

  // The bindings of a command's one model: every unscoped one (its import names any that does not
  // fit) and those scoped to it ("MODEL:NAME=...", MODEL its file name or stem), which take
  // precedence. Throws tessera::Error for a malformed or repeated one.
  onnx_io::ShapeBindings bindingsFor(const std::string& path) const;
  // Imports one model with its bindings.
  Graph import(const std::string& path) const;
  // Imports several models. An unscoped name need only fit one of them: each model gets the
  // bindings that name its own inputs and dimensions; a scoped one must fit its model. Checked for
  // all models before any is imported, so a name that fits none is an error before any work.
  std::vector<Graph> importEach(const std::vector<std::string>& paths) const;
  // For commands that import models one at a time: checks the names against all of `paths`
  // (as importEach does) and returns each model's own bindings, by path order.
  std::vector<onnx_io::ShapeBindings> bindingsForEach(const std::vector<std::string>& paths) const;
};

// Adds --input-shape and --dim (both repeatable) to `command`.
void addModelShapeOptions(CLI::App* command, ModelShapeOptions& options);

} // namespace tessera::cli
