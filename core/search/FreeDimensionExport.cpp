#include "search/FreeDimensionExport.h"

#include "interp/Verify.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <map>
#include <set>

namespace tessera {

namespace {

using onnx_io::freeAxisLabel;

// Free dimensions of the original's inputs by label, in order of first appearance.
std::vector<std::string> inputLabels(const Graph& original) {
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (const FreeAxis& axis : original.info.freeAxes)
    if (!axis.output && seen.insert(freeAxisLabel(axis)).second) labels.push_back(freeAxisLabel(axis));
  return labels;
}

int64_t totalElements(const Graph& graph) {
  int64_t total = 0;
  for (const Node& node : graph.nodes())
    for (const TensorType& type : node.outputTypes)
      if (type.dtype != DType::Undefined) total += type.numel();
  return total;
}

// Why the two graphs' outputs differ in number or shape, or "" when they agree.
std::string outputShapeMismatch(const Graph& original, const Graph& exported) {
  if (original.outputs().size() != exported.outputs().size()) return "it has another number of outputs";
  for (size_t i = 0; i < original.outputs().size(); ++i) {
    const Shape& a = original.typeOf(original.outputs()[i].value).shape;
    const Shape& b = exported.typeOf(exported.outputs()[i].value).shape;
    if (a != b) return "output '" + original.outputs()[i].name + "' is " + shapeToString(b) + " where the original's is " + shapeToString(a);
  }
  return {};
}

// Every axis of every output of `optimized`, as a free axis named as the original declared it
// (a model need not declare its outputs' sizes, and the optimised graph decides them).
std::vector<FreeAxis> outputAxes(const Graph& optimized, const Graph& original) {
  std::vector<FreeAxis> axes;
  for (const GraphOutput& output : optimized.outputs()) {
    const Shape& shape = optimized.typeOf(output.value).shape;
    for (size_t axis = 0; axis < shape.size(); ++axis) {
      FreeAxis open{output.name, true, static_cast<int>(axis), {}, shape[axis]};
      for (const FreeAxis& declared : original.info.freeAxes)
        if (declared.output && declared.tensor == output.name && declared.axis == open.axis) open.param = declared.param;
      axes.push_back(std::move(open));
    }
  }
  return axes;
}

// Output axes whose size in `resized` differs from the one `optimized` has.
void collectMovedOutputAxes(const Graph& optimized, const Graph& resized, std::set<std::pair<std::string, int>>& moved) {
  for (const GraphOutput& output : optimized.outputs())
    for (const GraphOutput& other : resized.outputs()) {
      if (other.name != output.name) continue;
      const Shape& before = optimized.typeOf(output.value).shape;
      const Shape& after = resized.typeOf(other.value).shape;
      for (size_t axis = 0; axis < before.size() && axis < after.size(); ++axis)
        if (before[axis] != after[axis]) moved.emplace(output.name, static_cast<int>(axis));
    }
}

struct DimensionCheck {
  FreeDimensionOutcome outcome;
  std::set<std::pair<std::string, int>> movedOutputAxes; // filled when the dimension stays open
};

// Whether the original's own imported graph, written with the dimension open, already fails to
// import at the other size: then import fixed it (a Reshape target or Slice end computed from it
// is a constant in the IR's static shapes), not the rewrite.
bool importFixes(const Graph& original, const std::string& label, int64_t size) {
  onnx_io::ExportOptions open;
  for (const FreeAxis& axis : original.info.freeAxes)
    if (!axis.output) open.openAxes.push_back(axis);
  const std::vector<FreeAxis> outputs = outputAxes(original, original);
  open.openAxes.insert(open.openAxes.end(), outputs.begin(), outputs.end());
  try {
    importAtOriginalSizes(onnx_io::exportOnnxBytes(original, open), "the imported model", original, label, size);
  } catch (const Error&) {
    return true;
  }
  return false;
}

std::string dependsOn(const Graph& original, const std::string& label, int64_t size) {
  return importFixes(original, label, size)
             ? "Tessera's import already fixes it (a shape computed from it is a constant in the IR, before any rewrite): with "
             : "the optimised graph depends on its size: with ";
}

DimensionCheck checkDimension(const std::string& label, const Graph& optimized, const Graph& original, std::string_view originalBytes,
                              const std::string& originalName, const std::string& openBytes, const FreeDimensionCheck& check) {
  DimensionCheck result;
  FreeDimensionOutcome& outcome = result.outcome;
  outcome.label = label;
  std::set<int64_t> sizes;
  for (const FreeAxis& axis : original.info.freeAxes)
    if (!axis.output && freeAxisLabel(axis) == label) sizes.insert(axis.size);
  outcome.size = *sizes.begin();
  outcome.triedSize = 2 * outcome.size;
  if (sizes.size() > 1) {
    outcome.detail = "it was bound to different sizes on different inputs";
    return result;
  }
  const std::string at = label + "=" + std::to_string(outcome.triedSize);

  Graph originalResized;
  try {
    originalResized = importAtOriginalSizes(originalBytes, originalName, original, label, outcome.triedSize);
  } catch (const Error& e) {
    outcome.detail = "the original model does not import with " + at + " either, so it could not be checked: " + e.what();
    return result;
  }
  Graph exportedResized;
  try {
    exportedResized = importAtOriginalSizes(openBytes, "the optimised model", original, label, outcome.triedSize);
  } catch (const Error& e) {
    outcome.detail = dependsOn(original, label, outcome.triedSize) + at + " " + e.what();
    return result;
  }
  if (std::string mismatch = outputShapeMismatch(originalResized, exportedResized); !mismatch.empty()) {
    outcome.detail = dependsOn(original, label, outcome.triedSize) + at + " " + mismatch;
    return result;
  }
  collectMovedOutputAxes(optimized, exportedResized, result.movedOutputAxes);
  if (int64_t elements = totalElements(originalResized); elements > check.maxElementsToRun) {
    outcome.open = true;
    outcome.detail = "imported with " + at + " and its output shapes match the original's; not run (" + std::to_string(elements) +
                     " elements in the graph's tensors, the check runs graphs of up to " + std::to_string(check.maxElementsToRun) + ")";
    return result;
  }
  VerifyOptions options;
  options.trials = check.trials;
  options.seed = check.seed;
  VerifyResult verified;
  try {
    verified = verifyEquivalent(originalResized, exportedResized, options);
  } catch (const Error& e) {
    outcome.open = true;
    outcome.detail = "imported with " + at + " and its output shapes match the original's; not run: " + e.what();
    return result;
  }
  if (!verified.equivalent) {
    outcome.detail = "the optimised graph depends on its size: with " + at + " it computes differently from the original (" + verified.worst + ")";
    return result;
  }
  outcome.open = true;
  outcome.ran = true;
  outcome.detail = "verified against the original with " + at;
  return result;
}

} // namespace

Graph importAtOriginalSizes(std::string_view bytes, const std::string& name, const Graph& original, const std::string& label, int64_t size) {
  onnx_io::ShapeBindings wanted = onnx_io::bindingsReproducing(original);
  if (!label.empty())
    for (const FreeAxis& axis : original.info.freeAxes)
      if (!axis.output && freeAxisLabel(axis) == label) wanted.inputShapes.at(axis.tensor).at(static_cast<size_t>(axis.axis)) = size;
  onnx_io::ShapeBindings bindings;
  for (const onnx_io::DeclaredInput& input : onnx_io::bindableInputsOfBytes(bytes, name))
    if (auto shape = wanted.inputShapes.find(input.name); shape != wanted.inputShapes.end()) bindings.inputShapes.insert(*shape);
  return onnx_io::importOnnxBytes(bytes, name, bindings);
}

FreeDimensionExport exportKeepingFreeDimensions(const Graph& optimized, const Graph& original, std::string_view originalBytes,
                                                const std::string& originalName, const FreeDimensionCheck& check) {
  FreeDimensionExport result;
  std::vector<std::string> labels = inputLabels(original);
  if (labels.empty()) {
    result.bytes = onnx_io::exportOnnxBytes(optimized);
    return result;
  }
  // Every free input axis and every output axis open: each dimension is then tried alone, the
  // others at their bound sizes.
  const std::vector<FreeAxis> outputs = outputAxes(optimized, original);
  onnx_io::ExportOptions allOpen;
  for (const FreeAxis& axis : original.info.freeAxes)
    if (!axis.output) allOpen.openAxes.push_back(axis);
  allOpen.openAxes.insert(allOpen.openAxes.end(), outputs.begin(), outputs.end());
  const std::string openBytes = onnx_io::exportOnnxBytes(optimized, allOpen);

  std::set<std::string> keptLabels;
  std::set<std::pair<std::string, int>> movedOutputAxes;
  for (const std::string& label : labels) {
    DimensionCheck checked = checkDimension(label, optimized, original, originalBytes, originalName, openBytes, check);
    if (checked.outcome.open) {
      keptLabels.insert(label);
      movedOutputAxes.insert(checked.movedOutputAxes.begin(), checked.movedOutputAxes.end());
    }
    result.dims.push_back(std::move(checked.outcome));
  }

  // Open: the kept dimensions' input axes, and the output axes that moved with one of them.
  onnx_io::ExportOptions options;
  for (const FreeAxis& axis : original.info.freeAxes)
    if (!axis.output && keptLabels.count(freeAxisLabel(axis))) options.openAxes.push_back(axis);
  for (const FreeAxis& axis : outputs)
    if (movedOutputAxes.count({axis.tensor, axis.axis})) options.openAxes.push_back(axis);
  result.bytes = keptLabels.empty() ? onnx_io::exportOnnxBytes(optimized) : onnx_io::exportOnnxBytes(optimized, options);
  return result;
}

} // namespace tessera
