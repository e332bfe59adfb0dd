#include "interp/ControlFlow.h"

#include "interp/Interpreter.h"
#include "onnx/ControlFlowImport.h"
#include "support/Error.h"

#include <algorithm>
#include <map>
#include <string>

namespace tessera {

namespace {

// Integer values up to this size are imported as constants (shape operands, indices, the
// iteration number); anything else as an input. Small float ones too (Resize scales).
constexpr int64_t kMaxBoundIntegers = 4096;
constexpr int64_t kMaxBoundFloats = 16;
// A Loop with no trip count whose condition never turns false would run forever.
constexpr int64_t kMaxIterations = int64_t(1) << 24;

std::string typesKey(const std::vector<onnx_io::SubgraphArgument>& arguments) {
  std::string key;
  for (const onnx_io::SubgraphArgument& argument : arguments) {
    key += argument.type.toString();
    if (argument.bind)
      for (int64_t i = 0; i < argument.bind->numel(); ++i) key += (i ? "," : "=") + std::to_string(argument.bind->valueAt(i));
    key += ";";
  }
  return key;
}

onnx_io::SubgraphArgument argumentFor(const Tensor& value) {
  bool small = value.holdsFloats() ? value.numel() <= kMaxBoundFloats : value.numel() <= kMaxBoundIntegers;
  return {value.type(), small ? &value : nullptr};
}

// One control-flow node being run: its captured values and the subgraphs imported so far
// (a Loop or Scan body is imported again only when its argument types or bound values change).
class ControlFlowRun {
public:
  ControlFlowRun(const Node& node, std::span<const Tensor* const> inputs, const ModelInfo& info) : node_(node), info_(info) {
    const size_t capturedCount = node.opaque->capturedNames.size();
    if (capturedCount > inputs.size()) throw Error("has fewer inputs than captured names");
    own_.assign(inputs.begin(), inputs.end() - static_cast<std::ptrdiff_t>(capturedCount));
    for (size_t i = own_.size(); i < inputs.size(); ++i) {
      if (!inputs[i]) throw Error("captured value '" + node.opaque->capturedNames[i - own_.size()] + "' is missing");
      captured_.push_back(inputs[i]);
      capturedArguments_.push_back(argumentFor(*inputs[i]));
    }
  }

  const Tensor* own(size_t i) const { return i < own_.size() ? own_[i] : nullptr; }
  size_t ownCount() const { return own_.size(); }

  std::vector<Tensor> runSubgraph(const std::string& attribute, const std::vector<const Tensor*>& formal) {
    std::vector<onnx_io::SubgraphArgument> arguments;
    for (const Tensor* value : formal) arguments.push_back(argumentFor(*value));
    const std::string key = typesKey(arguments);
    auto it = imported_.find(attribute);
    if (it == imported_.end() || it->second.first != key) {
      onnx_io::ImportedSubgraph sub = onnx_io::importSubgraph(*node_.opaque, attribute, arguments, capturedArguments_, info_, "subgraph " + attribute);
      it = imported_.insert_or_assign(attribute, std::make_pair(key, std::move(sub))).first;
    }
    const onnx_io::ImportedSubgraph& sub = it->second.second;
    TensorMap values;
    for (size_t i = 0; i < sub.inputNames.size(); ++i) {
      const bool isFormal = i < formal.size();
      const onnx_io::SubgraphArgument& argument = isFormal ? arguments[i] : capturedArguments_[i - formal.size()];
      if (argument.bind) continue; // a constant of the imported graph
      values.emplace(sub.inputNames[i], isFormal ? *formal[i] : *captured_[i - formal.size()]);
    }
    try {
      return runGraph(sub.graph, values);
    } catch (const Error& e) {
      throw Error("subgraph " + attribute + ": " + e.what());
    }
  }

private:
  const Node& node_;
  const ModelInfo& info_;
  std::vector<const Tensor*> own_;
  std::vector<const Tensor*> captured_;
  std::vector<onnx_io::SubgraphArgument> capturedArguments_;
  // Per attribute, the last import and the key (argument types and bound values) it was made for.
  std::map<std::string, std::pair<std::string, onnx_io::ImportedSubgraph>> imported_;
};

bool truth(const Tensor* value, const char* what) {
  if (!value || value->numel() != 1) throw Error(std::string(what) + " must hold one value");
  return value->valueAt(0) != 0;
}

std::vector<Tensor> runIf(ControlFlowRun& run) {
  return run.runSubgraph(truth(run.own(0), "the condition") ? "then_branch" : "else_branch", {});
}

// Element `index` along `axis`, that axis removed.
Tensor sliceAlong(const Tensor& tensor, int64_t axis, int64_t index) {
  const Tensor dense = tensor.materialized();
  const Shape& shape = dense.shape();
  Shape outShape = shape;
  outShape.erase(outShape.begin() + axis);
  Tensor out = Tensor::zeros({dense.dtype(), outShape});
  int64_t outer = numelOf(Shape(shape.begin(), shape.begin() + axis));
  int64_t inner = numelOf(Shape(shape.begin() + axis + 1, shape.end()));
  int64_t length = shape[static_cast<size_t>(axis)];
  auto copy = [&](auto source, auto target) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) target[o * inner + i] = source[(o * length + index) * inner + i];
  };
  if (dense.holdsFloats()) copy(dense.floats(), out.mutableFloats());
  else copy(dense.ints(), out.mutableInts());
  return out;
}

// `parts` (all of one type) stacked along a new axis `axis`.
Tensor stackAlong(const std::vector<Tensor>& parts, int64_t axis, const std::string& what) {
  const TensorType& part = parts.front().type();
  for (const Tensor& p : parts)
    if (p.type() != part) throw Error(what + " changes type between iterations (" + part.toString() + " and " + p.type().toString() + ")");
  Shape outShape = part.shape;
  const int64_t count = static_cast<int64_t>(parts.size());
  outShape.insert(outShape.begin() + axis, count);
  Tensor out = Tensor::zeros({part.dtype, outShape});
  int64_t outer = numelOf(Shape(part.shape.begin(), part.shape.begin() + axis));
  int64_t inner = numelOf(Shape(part.shape.begin() + axis, part.shape.end()));
  for (int64_t t = 0; t < count; ++t) {
    const Tensor dense = parts[static_cast<size_t>(t)].materialized();
    auto copy = [&](auto source, auto target) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) target[(o * count + t) * inner + i] = source[o * inner + i];
    };
    if (dense.holdsFloats()) copy(dense.floats(), out.mutableFloats());
    else copy(dense.ints(), out.mutableInts());
  }
  return out;
}

// Zero iterations: an empty scan output of the node's declared type.
Tensor emptyScanOutput(const Node& node, size_t output, int64_t axis) {
  const TensorType& type = node.outputTypes[output];
  if (axis >= type.rank() || type.shape[static_cast<size_t>(axis)] != 0)
    throw Error("ran no iterations, but output " + std::to_string(output) + " is declared as " + type.toString());
  return Tensor::zeros(type);
}

std::vector<Tensor> runLoop(const Node& node, ControlFlowRun& run) {
  if (run.ownCount() < 2) throw Error("Loop needs its trip count and condition inputs (either may be empty)");
  const Tensor* tripCount = run.own(0);
  if (tripCount && tripCount->numel() != 1) throw Error("the trip count must hold one value");
  const int64_t trips = tripCount ? tripCount->intAt(0) : kMaxIterations;
  bool keepGoing = run.own(1) ? truth(run.own(1), "the condition") : true;
  const size_t carriedCount = run.ownCount() - 2;
  std::vector<Tensor> carried;
  for (size_t i = 0; i < carriedCount; ++i) {
    if (!run.own(2 + i)) throw Error("loop-carried input " + std::to_string(i) + " is empty");
    carried.push_back(*run.own(2 + i));
  }
  const size_t outputs = node.outputTypes.size();
  if (outputs < carriedCount) throw Error("has fewer outputs than loop-carried values");
  std::vector<std::vector<Tensor>> scans(outputs - carriedCount);

  int64_t iteration = 0;
  for (; iteration < trips && keepGoing; ++iteration) {
    if (iteration == kMaxIterations) throw Error("ran " + std::to_string(kMaxIterations) + " iterations without stopping");
    Tensor number = Tensor::fromInts({DType::Int64, {}}, {iteration});
    Tensor condition = Tensor::fromInts({DType::Bool, {}}, {1});
    std::vector<const Tensor*> formal = {&number, &condition};
    for (const Tensor& value : carried) formal.push_back(&value);
    std::vector<Tensor> results = run.runSubgraph("body", formal);
    if (results.size() != 1 + outputs)
      throw Error("its body gives " + std::to_string(results.size()) + " outputs where " + std::to_string(1 + outputs) + " are expected");
    keepGoing = truth(&results[0], "the body's condition output");
    for (size_t i = 0; i < carriedCount; ++i) carried[i] = std::move(results[1 + i]);
    for (size_t k = 0; k < scans.size(); ++k) scans[k].push_back(std::move(results[1 + carriedCount + k]));
  }

  std::vector<Tensor> out = std::move(carried);
  for (size_t k = 0; k < scans.size(); ++k)
    out.push_back(scans[k].empty() ? emptyScanOutput(node, carriedCount + k, 0) : stackAlong(scans[k], 0, "scan output " + std::to_string(k)));
  return out;
}

int64_t normalizedAxis(int64_t axis, int64_t rank, const std::string& what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank) throw Error(what + " has no axis " + std::to_string(axis));
  return normalized;
}

std::vector<Tensor> runScan(const Node& node, ControlFlowRun& run, const ModelInfo& info) {
  if (info.opset < 9) throw Error("Scan before opset 9 (with a batch axis and sequence_lens) is not supported");
  const OpaqueOp& op = *node.opaque;
  const int64_t scanInputs = onnx_io::intAttribute(op, "num_scan_inputs").value_or(0);
  const int64_t stateCount = static_cast<int64_t>(run.ownCount()) - scanInputs;
  if (scanInputs < 1 || stateCount < 0) throw Error("num_scan_inputs is " + std::to_string(scanInputs) + " for " + std::to_string(run.ownCount()) + " inputs");
  const size_t state = static_cast<size_t>(stateCount);
  const size_t scanOutputs = node.outputTypes.size() - state;
  auto list = [&](const char* name, size_t count) {
    std::vector<int64_t> values = onnx_io::intsAttribute(op, name).value_or(std::vector<int64_t>(count, 0));
    if (values.size() != count) throw Error(std::string(name) + " has " + std::to_string(values.size()) + " entries for " + std::to_string(count));
    return values;
  };
  const std::vector<int64_t> inAxes = list("scan_input_axes", static_cast<size_t>(scanInputs));
  const std::vector<int64_t> inDirections = list("scan_input_directions", static_cast<size_t>(scanInputs));
  const std::vector<int64_t> outAxes = list("scan_output_axes", scanOutputs);
  const std::vector<int64_t> outDirections = list("scan_output_directions", scanOutputs);

  std::vector<Tensor> stateValues;
  for (size_t i = 0; i < state; ++i) {
    if (!run.own(i)) throw Error("input " + std::to_string(i) + " is empty");
    stateValues.push_back(*run.own(i));
  }
  std::vector<int64_t> axes;
  int64_t length = -1;
  for (size_t j = 0; j < static_cast<size_t>(scanInputs); ++j) {
    const Tensor* input = run.own(state + j);
    if (!input) throw Error("scan input " + std::to_string(j) + " is empty");
    axes.push_back(normalizedAxis(inAxes[j], input->type().rank(), "scan input " + std::to_string(j)));
    int64_t size = input->shape()[static_cast<size_t>(axes.back())];
    if (length >= 0 && size != length) throw Error("its scan inputs have different lengths");
    length = size;
  }

  std::vector<std::vector<Tensor>> scans(scanOutputs);
  for (int64_t t = 0; t < length; ++t) {
    std::vector<Tensor> slices;
    for (size_t j = 0; j < static_cast<size_t>(scanInputs); ++j)
      slices.push_back(sliceAlong(*run.own(state + j), axes[j], inDirections[j] ? length - 1 - t : t));
    std::vector<const Tensor*> formal;
    for (const Tensor& value : stateValues) formal.push_back(&value);
    for (const Tensor& slice : slices) formal.push_back(&slice);
    std::vector<Tensor> results = run.runSubgraph("body", formal);
    if (results.size() != state + scanOutputs)
      throw Error("its body gives " + std::to_string(results.size()) + " outputs where " + std::to_string(state + scanOutputs) + " are expected");
    for (size_t i = 0; i < state; ++i) stateValues[i] = std::move(results[i]);
    for (size_t k = 0; k < scanOutputs; ++k) scans[k].push_back(std::move(results[state + k]));
  }

  std::vector<Tensor> out = std::move(stateValues);
  for (size_t k = 0; k < scanOutputs; ++k) {
    std::vector<Tensor>& parts = scans[k];
    if (outDirections[k]) std::reverse(parts.begin(), parts.end());
    if (parts.empty()) {
      out.push_back(emptyScanOutput(node, state + k, outAxes[k] < 0 ? outAxes[k] + node.outputTypes[state + k].rank() : outAxes[k]));
      continue;
    }
    const int64_t axis = outAxes[k] < 0 ? outAxes[k] + parts.front().type().rank() + 1 : outAxes[k];
    if (axis < 0 || axis > parts.front().type().rank()) throw Error("scan output " + std::to_string(k) + " has no axis " + std::to_string(outAxes[k]));
    out.push_back(stackAlong(parts, axis, "scan output " + std::to_string(k)));
  }
  return out;
}

} // namespace

bool isControlFlow(const Node& node) {
  if (node.kind != OpKind::Opaque || !node.opaque) return false;
  const OpaqueOp& op = *node.opaque;
  if (!op.domain.empty() && op.domain != "ai.onnx") return false;
  return op.opType == "If" || op.opType == "Loop" || op.opType == "Scan";
}

std::vector<Tensor> runControlFlow(const Node& node, std::span<const Tensor* const> inputs, const ModelInfo& info) {
  if (!isControlFlow(node)) throw Error("is not an If, Loop or Scan");
  ControlFlowRun run(node, inputs, info);
  const std::string& type = node.opaque->opType;
  std::vector<Tensor> outputs = type == "If" ? runIf(run) : type == "Loop" ? runLoop(node, run) : runScan(node, run, info);
  if (outputs.size() != node.outputTypes.size())
    throw Error("gives " + std::to_string(outputs.size()) + " outputs where the node has " + std::to_string(node.outputTypes.size()));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorType& declared = node.outputTypes[i];
    if (declared.dtype == DType::Undefined) {
      outputs[i] = Tensor(); // an absent optional output
      continue;
    }
    if (outputs[i].type() != declared)
      throw Error("output " + std::to_string(i) + " is " + outputs[i].type().toString() + ", but the node declares " + declared.toString());
  }
  return outputs;
}

} // namespace tessera
