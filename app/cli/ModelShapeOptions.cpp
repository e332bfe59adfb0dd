#include "ModelShapeOptions.h"

#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>

#include <set>

namespace tessera::cli {

namespace {

// The part of `all` that names inputs and symbolic dimensions of `inputs`.
onnx_io::ShapeBindings restrictedTo(const onnx_io::ShapeBindings& all, const std::vector<onnx_io::DeclaredInput>& inputs,
                                    std::set<std::string>& usedShapes, std::set<std::string>& usedDims) {
  onnx_io::ShapeBindings own;
  for (const onnx_io::DeclaredInput& input : inputs) {
    if (auto shape = all.inputShapes.find(input.name); shape != all.inputShapes.end()) {
      own.inputShapes.insert(*shape);
      usedShapes.insert(input.name);
    }
    for (const std::string& param : input.params)
      if (auto dim = all.dims.find(param); !param.empty() && dim != all.dims.end()) {
        own.dims.insert(*dim);
        usedDims.insert(param);
      }
  }
  return own;
}

} // namespace

onnx_io::ShapeBindings ModelShapeOptions::bindings() const {
  onnx_io::ShapeBindings bindings;
  for (const std::string& text : inputShapes) onnx_io::parseInputShapeBinding(text, bindings);
  for (const std::string& text : dims) onnx_io::parseDimBinding(text, bindings);
  return bindings;
}

Graph ModelShapeOptions::import(const std::string& path) const { return onnx_io::importOnnxFile(path, bindings()); }

std::vector<onnx_io::ShapeBindings> ModelShapeOptions::bindingsForEach(const std::vector<std::string>& paths) const {
  const onnx_io::ShapeBindings all = bindings();
  std::vector<onnx_io::ShapeBindings> each;
  if (all.empty()) return std::vector<onnx_io::ShapeBindings>(paths.size());
  std::set<std::string> usedShapes, usedDims;
  for (const std::string& path : paths) each.push_back(restrictedTo(all, onnx_io::bindableInputs(path), usedShapes, usedDims));
  for (const auto& [name, shape] : all.inputShapes)
    if (!usedShapes.count(name))
      throw Error("--input-shape " + name + "=...: none of the models has a graph input '" + name + "' (see `tessera-cli info MODEL`)");
  for (const auto& [name, size] : all.dims)
    if (!usedDims.count(name))
      throw Error("--dim " + name + "=" + std::to_string(size) + ": none of the models has a symbolic dimension '" + name +
                  "' (see `tessera-cli info MODEL`)");
  return each;
}

std::vector<Graph> ModelShapeOptions::importEach(const std::vector<std::string>& paths) const {
  std::vector<onnx_io::ShapeBindings> each = bindingsForEach(paths);
  std::vector<Graph> graphs;
  for (size_t i = 0; i < paths.size(); ++i) graphs.push_back(onnx_io::importOnnxFile(paths[i], each[i]));
  return graphs;
}

void addModelShapeOptions(CLI::App* command, ModelShapeOptions& options) {
  command->add_option("--input-shape", options.inputShapes,
                      "NAME=AxBxC...: the whole shape of graph input NAME, for a model whose inputs have symbolic or unknown "
                      "sizes (Tessera optimises a graph of fixed shape; an open size with no value is an error). Repeatable")
      ->type_name("NAME=AxBxC")
      ->allow_extra_args(false);
  command->add_option("--dim", options.dims,
                      "NAME=VALUE: the size of symbolic dimension NAME (an ONNX dim_param) on every input that has it, as "
                      "ONNX Runtime's free-dimension override; `info` lists a model's. Repeatable")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
}

} // namespace tessera::cli
