#include "ModelShapeOptions.h"

#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
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

// The models (by index into `paths`) that "MODEL:NAME=..." scopes a binding to: those whose file
// name or stem is MODEL. None when the text has no such prefix, so an input whose own name holds
// a colon ("input:0=1x3") still binds unscoped.
std::vector<size_t> scopedModels(const std::string& text, const std::vector<std::string>& paths) {
  const size_t colon = text.find(':'), equals = text.find('=');
  if (colon == std::string::npos || (equals != std::string::npos && equals < colon)) return {};
  const std::string prefix = text.substr(0, colon);
  std::vector<size_t> models;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::filesystem::path path(paths[i]);
    if (path.filename() == prefix || path.stem() == prefix) models.push_back(i);
  }
  return models;
}

// The options sorted out: those scoped to a model ("MODEL:NAME=...", by index into `paths`) and
// those for every model.
struct SortedBindings {
  onnx_io::ShapeBindings all;
  std::vector<onnx_io::ShapeBindings> scoped;
};

SortedBindings sortBindings(const ModelShapeOptions& options, const std::vector<std::string>& paths) {
  SortedBindings sorted{{}, std::vector<onnx_io::ShapeBindings>(paths.size())};
  const auto sortOut = [&](const std::vector<std::string>& texts, void (*parse)(std::string_view, onnx_io::ShapeBindings&)) {
    for (const std::string& text : texts) {
      const std::vector<size_t> models = scopedModels(text, paths);
      if (models.empty()) {
        parse(text, sorted.all);
        continue;
      }
      const std::string binding = text.substr(text.find(':') + 1);
      for (size_t i : models) parse(binding, sorted.scoped[i]);
    }
  };
  sortOut(options.inputShapes, onnx_io::parseInputShapeBinding);
  sortOut(options.dims, onnx_io::parseDimBinding);
  return sorted;
}

// `scoped` over `own`: a binding scoped to a model wins over one for every model.
void overlay(onnx_io::ShapeBindings& own, const onnx_io::ShapeBindings& scoped) {
  for (const auto& [name, shape] : scoped.inputShapes) own.inputShapes[name] = shape;
  for (const auto& [name, size] : scoped.dims) own.dims[name] = size;
}

} // namespace

std::vector<onnx_io::ShapeBindings> ModelShapeOptions::bindingsForEach(const std::vector<std::string>& paths) const {
  const auto [all, scoped] = sortBindings(*this, paths);
  std::vector<onnx_io::ShapeBindings> each;
  const bool anyScoped = std::any_of(scoped.begin(), scoped.end(), [](const auto& b) { return !b.empty(); });
  if (all.empty() && !anyScoped) return std::vector<onnx_io::ShapeBindings>(paths.size());
  std::set<std::string> usedShapes, usedDims;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::vector<onnx_io::DeclaredInput> inputs = onnx_io::bindableInputs(paths[i]);
    onnx_io::ShapeBindings own = restrictedTo(all, inputs, usedShapes, usedDims);
    if (!scoped[i].empty()) {
      std::set<std::string> scopedShapes, scopedDims;
      onnx_io::ShapeBindings fitting = restrictedTo(scoped[i], inputs, scopedShapes, scopedDims);
      const std::string model = std::filesystem::path(paths[i]).stem().string();
      for (const auto& [name, shape] : scoped[i].inputShapes)
        if (!scopedShapes.count(name))
          throw Error("--input-shape " + model + ":" + name + "=...: " + paths[i] + " has no graph input '" + name +
                      "' (see `tessera-cli info MODEL`)");
      for (const auto& [name, size] : scoped[i].dims)
        if (!scopedDims.count(name))
          throw Error("--dim " + model + ":" + name + "=" + std::to_string(size) + ": " + paths[i] + " has no symbolic dimension '" +
                      name + "' (see `tessera-cli info MODEL`)");
      overlay(own, fitting);
    }
    each.push_back(std::move(own));
  }
  for (const auto& [name, shape] : all.inputShapes)
    if (!usedShapes.count(name))
      throw Error("--input-shape " + name + "=...: none of the models has a graph input '" + name + "' (see `tessera-cli info MODEL`)");
  for (const auto& [name, size] : all.dims)
    if (!usedDims.count(name))
      throw Error("--dim " + name + "=" + std::to_string(size) + ": none of the models has a symbolic dimension '" + name +
                  "' (see `tessera-cli info MODEL`)");
  return each;
}

// One model gets every binding, so that the import names what does not fit it.
onnx_io::ShapeBindings ModelShapeOptions::bindingsFor(const std::string& path) const {
  auto [own, scoped] = sortBindings(*this, {path});
  overlay(own, scoped[0]);
  return own;
}

Graph ModelShapeOptions::import(const std::string& path) const { return onnx_io::importOnnxFile(path, bindingsFor(path)); }

std::vector<Graph> ModelShapeOptions::importEach(const std::vector<std::string>& paths) const {
  std::vector<onnx_io::ShapeBindings> each = bindingsForEach(paths);
  std::vector<Graph> graphs;
  for (size_t i = 0; i < paths.size(); ++i) graphs.push_back(onnx_io::importOnnxFile(paths[i], each[i]));
  return graphs;
}

void addModelShapeOptions(CLI::App* command, ModelShapeOptions& options) {
  command->add_option("--input-shape", options.inputShapes,
                      "NAME=AxBxC...: the whole shape of graph input NAME, for a model whose inputs have symbolic or unknown "
                      "sizes (Tessera optimises a graph of fixed shape; an open size with no value is an error). MODEL:NAME=... "
                      "binds it for the model whose file name or stem is MODEL only. Repeatable")
      ->type_name("[MODEL:]NAME=AxBxC")
      ->allow_extra_args(false);
  command->add_option("--dim", options.dims,
                      "NAME=VALUE: the size of symbolic dimension NAME (an ONNX dim_param) on every input that has it, as "
                      "ONNX Runtime's free-dimension override; `info` lists a model's. MODEL:NAME=VALUE: for that model only. "
                      "Repeatable")
      ->type_name("[MODEL:]NAME=VALUE")
      ->allow_extra_args(false);
}

} // namespace tessera::cli
