#include "onnx/ShapeBindings.h"

#include "support/Error.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace tessera::onnx_io {

namespace {

// A size in an option: a positive decimal integer, nothing else.
int64_t parseSize(std::string_view digits, std::string_view option, std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value <= 0)
    throw Error(std::string(option) + " " + std::string(text) + ": '" + std::string(digits) + "' is not a positive integer size");
  return value;
}

// Splits "NAME=VALUE" at its last '=' (input names may hold '=', sizes never do).
std::pair<std::string, std::string_view> splitBinding(std::string_view text, std::string_view option, std::string_view form) {
  size_t eq = text.rfind('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
    throw Error(std::string(option) + " " + std::string(text) + ": expected " + std::string(form));
  return {std::string(text.substr(0, eq)), text.substr(eq + 1)};
}

std::string shapeText(const Shape& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::string declaredText(const DeclaredInput& input) {
  if (!input.hasShape) return "[unknown rank]";
  std::string s = "[";
  for (size_t i = 0; i < input.dims.size(); ++i) {
    if (i) s += ",";
    s += input.dims[i] >= 0 ? std::to_string(input.dims[i]) : input.params[i].empty() ? "?" : input.params[i];
  }
  return s + "]";
}

std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const std::string& name : names) s += (s.empty() ? "" : ", ") + name;
  return s;
}

void checkNamesKnown(const std::vector<DeclaredInput>& inputs, const ShapeBindings& bindings) {
  std::set<std::string> inputNames, params;
  for (const DeclaredInput& input : inputs) {
    inputNames.insert(input.name);
    for (const std::string& param : input.params)
      if (!param.empty()) params.insert(param);
  }
  for (const auto& [name, shape] : bindings.inputShapes)
    if (!inputNames.count(name))
      throw Error("--input-shape " + name + "=" + shapeText(shape) + ": the model has no graph input '" + name + "' (its inputs: " +
                  (inputNames.empty() ? std::string("none") : joined(inputNames)) + ")");
  for (const auto& [name, size] : bindings.dims)
    if (!params.count(name))
      throw Error("--dim " + name + "=" + std::to_string(size) + ": no input of the model has a symbolic dimension '" + name +
                  "' (" + (params.empty() ? std::string("it has none") : "its symbolic dimensions: " + joined(params)) + ")");
}

// The whole shape an --input-shape gives, checked against the declaration and the --dim values.
Shape checkedWholeShape(const DeclaredInput& input, const Shape& given, const ShapeBindings& bindings) {
  const std::string option = "--input-shape " + input.name + "=" + shapeText(given);
  if (input.hasShape && given.size() != input.dims.size())
    throw Error(option + ": gives rank " + std::to_string(given.size()) + " but input '" + input.name + "' " + declaredText(input) +
                " has rank " + std::to_string(input.dims.size()));
  if (!input.hasShape) return given;
  for (size_t axis = 0; axis < given.size(); ++axis) {
    if (input.dims[axis] >= 0 && input.dims[axis] != given[axis])
      throw Error(option + ": gives axis " + std::to_string(axis) + " size " + std::to_string(given[axis]) + " but input '" +
                  input.name + "' " + declaredText(input) + " fixes it at " + std::to_string(input.dims[axis]));
    const std::string& param = input.params[axis];
    if (auto dim = bindings.dims.find(param); !param.empty() && dim != bindings.dims.end() && dim->second != given[axis])
      throw Error(option + ": gives axis " + std::to_string(axis) + " ('" + param + "') size " + std::to_string(given[axis]) +
                  " but --dim " + param + "=" + std::to_string(dim->second));
  }
  return given;
}

} // namespace

void parseInputShapeBinding(std::string_view text, ShapeBindings& into) {
  auto [name, sizes] = splitBinding(text, "--input-shape", "NAME=AxBxC... (for example x=1x3x640x640)");
  Shape shape;
  size_t start = 0;
  while (true) {
    size_t x = sizes.find('x', start);
    shape.push_back(parseSize(sizes.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start), "--input-shape", text));
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (!into.inputShapes.emplace(name, shape).second)
    throw Error("--input-shape " + std::string(text) + ": input '" + name + "' is given a shape twice");
}

void parseDimBinding(std::string_view text, ShapeBindings& into) {
  auto [name, size] = splitBinding(text, "--dim", "NAME=VALUE (for example N=1)");
  if (!into.dims.emplace(name, parseSize(size, "--dim", text)).second)
    throw Error("--dim " + std::string(text) + ": dimension '" + name + "' is given twice");
}

std::string describeBindings(const ShapeBindings& bindings) {
  std::string s;
  for (const auto& [name, shape] : bindings.inputShapes) s += (s.empty() ? "" : " ") + ("--input-shape " + name + "=" + shapeText(shape));
  for (const auto& [name, size] : bindings.dims) s += (s.empty() ? "" : " ") + ("--dim " + name + "=" + std::to_string(size));
  return s;
}

bool DeclaredInput::isOpen() const {
  return !hasShape || std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; });
}

std::vector<Shape> resolveInputShapes(const std::vector<DeclaredInput>& inputs, const ShapeBindings& bindings) {
  checkNamesKnown(inputs, bindings);
  std::vector<Shape> shapes;
  std::vector<std::string> unresolved; // one entry per input with open axes
  for (const DeclaredInput& input : inputs) {
    if (auto given = bindings.inputShapes.find(input.name); given != bindings.inputShapes.end()) {
      shapes.push_back(checkedWholeShape(input, given->second, bindings));
      continue;
    }
    if (!input.hasShape)
      throw Error("graph input '" + input.name + "' has no shape; give it with --input-shape " + input.name + "=AxBxC...");
    Shape shape;
    std::string open;
    for (size_t axis = 0; axis < input.dims.size(); ++axis) {
      if (input.dims[axis] >= 0) {
        shape.push_back(input.dims[axis]);
        continue;
      }
      const std::string& param = input.params[axis];
      if (auto dim = bindings.dims.find(param); !param.empty() && dim != bindings.dims.end()) {
        shape.push_back(dim->second);
        continue;
      }
      shape.push_back(-1);
      open += (open.empty() ? "" : ", ") + ("axis " + std::to_string(axis) + (param.empty() ? " (unknown size)" : " '" + param + "'"));
    }
    if (!open.empty()) unresolved.push_back("input '" + input.name + "' " + declaredText(input) + ": " + open);
    shapes.push_back(std::move(shape));
  }
  if (unresolved.empty()) return shapes;
  std::string message = "the model leaves input sizes open, and the IR needs every size: ";
  for (size_t i = 0; i < unresolved.size(); ++i) message += (i ? "; " : "") + unresolved[i];
  throw Error(message + ". Give a symbolic dimension's size with --dim NAME=VALUE, or an input's whole shape with "
                        "--input-shape NAME=AxBxC...");
}

std::vector<FreeAxis> axesLeftOpen(const std::vector<DeclaredInput>& inputs, const ShapeBindings& bindings) {
  std::vector<FreeAxis> open;
  for (const DeclaredInput& input : inputs) {
    if (bindings.inputShapes.count(input.name)) continue;
    if (!input.hasShape) {
      open.push_back({input.name, false, -1, {}, -1}); // the rank itself is unknown
      continue;
    }
    for (size_t axis = 0; axis < input.dims.size(); ++axis)
      if (input.dims[axis] < 0 && (input.params[axis].empty() || !bindings.dims.count(input.params[axis])))
        open.push_back({input.name, false, static_cast<int>(axis), input.params[axis], -1});
  }
  return open;
}

std::vector<FreeAxis> inputFreeAxes(const std::vector<DeclaredInput>& inputs, const std::vector<Shape>& shapes) {
  std::vector<FreeAxis> axes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const DeclaredInput& input = inputs[i];
    for (size_t axis = 0; axis < shapes[i].size(); ++axis) {
      bool open = !input.hasShape || input.dims[axis] < 0;
      if (!open) continue;
      axes.push_back({input.name, false, static_cast<int>(axis), input.hasShape ? input.params[axis] : std::string(), shapes[i][axis]});
    }
  }
  return axes;
}

ShapeBindings bindingsReproducing(const Graph& graph) {
  ShapeBindings bindings;
  std::set<std::string> open;
  for (const FreeAxis& axis : graph.info.freeAxes)
    if (!axis.output) open.insert(axis.tensor);
  for (NodeId id : graph.inputNodes())
    if (open.count(graph.node(id).name)) bindings.inputShapes[graph.node(id).name] = graph.node(id).outputTypes[0].shape;
  return bindings;
}

std::string freeAxisLabel(const FreeAxis& axis) {
  return axis.param.empty() ? axis.tensor + "[" + std::to_string(axis.axis) + "]" : axis.param;
}

} // namespace tessera::onnx_io
