// evaluateNode checks a node's inputs and dispatches to its kernel; runGraph evaluates a graph in
// topological order, feeding inputs and (possibly overridden) weights and freeing every
// intermediate tensor after its last use.
#include "interp/Interpreter.h"

#include "interp/ControlFlow.h"
#include "interp/Kernels.h"
#include "ir/ShapeInference.h"
#include "support/Error.h"

#include <cassert>
#include <memory>
#include <new>

namespace tessera {

namespace {

using namespace interp;

std::string typesToString(const std::vector<TensorType>& types) {
  std::string s;
  for (const TensorType& t : types) s += (s.empty() ? "" : ", ") + t.toString();
  return s;
}

[[noreturn]] void throwOpaque(const Node& node) {
  const std::string domain = node.opaque ? node.opaque->domain : "";
  const std::string type = node.opaque ? node.opaque->opType : "?";
  throw Error("cannot execute opaque op " + node.name + " (" + domain + "::" + type + ")");
}

// The element types a kernel reads at input `i`: float32 storage, int64 storage (integers and
// Bool), or either (kernels written for both).
enum class Elements { Floats, Integers, Either };

Elements acceptedElements(OpKind kind, size_t i) {
  switch (kind) {
  case OpKind::Gather: return i == 1 ? Elements::Integers : Elements::Either;
  case OpKind::LSTM: return i == 7 ? Elements::Integers : Elements::Floats;
  case OpKind::Where: return i == 0 ? Elements::Integers : Elements::Either;
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor:
  case OpKind::Not: return Elements::Integers;
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Unsqueeze:
  case OpKind::Squeeze:
  case OpKind::Dropout:
  case OpKind::Identity:
  case OpKind::Concat:
  case OpKind::Split:
  case OpKind::Transpose:
  case OpKind::Slice:
  case OpKind::Pad:
  case OpKind::Expand:
  case OpKind::Tile:
  case OpKind::Trilu:
  case OpKind::DepthToSpace:
  case OpKind::SpaceToDepth:
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Pow:
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Min:
  case OpKind::Max:
  case OpKind::Mod:
  case OpKind::Neg:
  case OpKind::Abs:
  case OpKind::Sign:
  case OpKind::Equal:
  case OpKind::Less:
  case OpKind::LessOrEqual:
  case OpKind::Greater:
  case OpKind::GreaterOrEqual:
  case OpKind::Cast:
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceSumSquare:
  case OpKind::ReduceL1:
  case OpKind::ArgMax:
  case OpKind::ArgMin:
  case OpKind::CumSum: return Elements::Either;
  default: return Elements::Floats;
  }
}

// Inputs must be what the node was built for: the shape rule, re-run on the actual input types,
// must give the node's output types, and each input must hold what its kernel reads.
void checkInputs(const Node& node, std::span<const Tensor* const> inputs) {
  if (inputs.size() != node.inputs.size())
    throw Error("expects " + std::to_string(node.inputs.size()) + " inputs, got " + std::to_string(inputs.size()));
  std::vector<TensorType> types;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) throw Error("input " + std::to_string(i) + " is missing");
    const TensorType& type = inputs[i]->type();
    const Elements accepted = acceptedElements(node.kind, i);
    if (accepted == Elements::Floats && !isFloatingPoint(type.dtype))
      throw Error("input " + std::to_string(i) + " is " + type.toString() + ": " + std::string(opName(node.kind)) + " computes on floats");
    if (accepted == Elements::Integers && !isInteger(type.dtype))
      throw Error("input " + std::to_string(i) + " is " + type.toString() + ": " + std::string(opName(node.kind)) + " takes integers or Bool there");
    if (type.dtype == DType::String || type.dtype == DType::Undefined)
      throw Error("input " + std::to_string(i) + " is " + type.toString() + ", which the interpreter cannot hold");
    types.push_back(type);
  }
  std::vector<TensorType> expected;
  try {
    expected = inferOutputTypes(node.kind, node.attrs, types);
  } catch (const Error& e) {
    throw Error("inputs " + typesToString(types) + " do not fit: " + e.what());
  }
  if (expected != node.outputTypes)
    throw Error("inputs " + typesToString(types) + " give outputs " + typesToString(expected) + ", but the node declares " +
                typesToString(node.outputTypes));
}

std::vector<Tensor> dispatch(const Node& node, KernelInputs in) {
  switch (node.kind) {
  case OpKind::Input:
  case OpKind::Weight:
  case OpKind::Opaque: break; // handled by evaluateNode
  case OpKind::Conv: return {conv(node, in)};
  case OpKind::ConvTranspose: return {convTranspose(node, in)};
  case OpKind::Gemm: return {gemm(node, in)};
  case OpKind::MatMul: return {matMul(node, in)};
  case OpKind::BatchNorm: return {batchNorm(node, in)};
  case OpKind::LayerNorm: return {layerNorm(node, in)};
  case OpKind::InstanceNorm: return {instanceNorm(node, in)};
  case OpKind::LRN: return {lrn(node, in)};
  case OpKind::LrnDenominator: return {lrnDenominator(node, in)};
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Hardmax: return {softmaxFamily(node, in)};
  case OpKind::Relu:
  case OpKind::Sigmoid:
  case OpKind::Tanh:
  case OpKind::Erf:
  case OpKind::Gelu:
  case OpKind::Sqrt:
  case OpKind::Exp:
  case OpKind::Neg:
  case OpKind::Clip:
  case OpKind::Abs:
  case OpKind::Sign:
  case OpKind::Log:
  case OpKind::Reciprocal:
  case OpKind::Floor:
  case OpKind::Ceil:
  case OpKind::Round:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Tan:
  case OpKind::Asin:
  case OpKind::Acos:
  case OpKind::Atan:
  case OpKind::Sinh:
  case OpKind::Cosh:
  case OpKind::Asinh:
  case OpKind::Acosh:
  case OpKind::Atanh:
  case OpKind::Softplus:
  case OpKind::Softsign:
  case OpKind::Elu:
  case OpKind::Selu:
  case OpKind::Celu:
  case OpKind::LeakyRelu:
  case OpKind::ThresholdedRelu:
  case OpKind::HardSigmoid:
  case OpKind::HardSwish:
  case OpKind::Shrink:
  case OpKind::Mish: return {unary(node, in)};
  case OpKind::Add:
  case OpKind::Sub:
  case OpKind::Mul:
  case OpKind::Div:
  case OpKind::Pow:
  case OpKind::Sum:
  case OpKind::Mean:
  case OpKind::Min:
  case OpKind::Max:
  case OpKind::Mod:
  case OpKind::PRelu: return {broadcastBinary(node, in)};
  case OpKind::Equal:
  case OpKind::Less:
  case OpKind::LessOrEqual:
  case OpKind::Greater:
  case OpKind::GreaterOrEqual:
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor: return {compare(node, in)};
  case OpKind::Not:
  case OpKind::IsNaN:
  case OpKind::IsInf: return {predicate(node, in)};
  case OpKind::Where: return {where(node, in)};
  case OpKind::Cast: return {cast(node, in)};
  case OpKind::ScalarMul: return {scalarMul(node, in)};
  case OpKind::MaxPool: return {maxPool(node, in)};
  case OpKind::AveragePool: return {averagePool(node, in)};
  case OpKind::GlobalAveragePool: return {globalAveragePool(node, in)};
  case OpKind::GlobalMaxPool: return {globalMaxPool(node, in)};
  case OpKind::ReduceMean:
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceL1:
  case OpKind::ReduceL2:
  case OpKind::ReduceLogSum:
  case OpKind::ReduceLogSumExp:
  case OpKind::ReduceSumSquare: return {reduce(node, in)};
  case OpKind::ArgMax:
  case OpKind::ArgMin: return {argReduce(node, in)};
  case OpKind::CumSum: return {cumSum(node, in)};
  case OpKind::Concat: return {concat(node, in)};
  case OpKind::Split: return split(node, in);
  case OpKind::LSTM: return lstm(node, in);
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Unsqueeze:
  case OpKind::Squeeze:
  case OpKind::Dropout:
  case OpKind::Identity: return {copyAsOutput(node, in)};
  case OpKind::Transpose: return {transpose(node, in)};
  case OpKind::Slice: return {slice(node, in)};
  case OpKind::Gather: return {gather(node, in)};
  case OpKind::Pad: return {pad(node, in)};
  case OpKind::Resize: return {resize(node, in)};
  case OpKind::Expand: return {expand(node, in)};
  case OpKind::Tile: return {tile(node, in)};
  case OpKind::Trilu: return {trilu(node, in)};
  case OpKind::DepthToSpace:
  case OpKind::SpaceToDepth: return {depthSpace(node, in)};
  case OpKind::Enlarge: return {enlarge(node, in)};
  case OpKind::MergeGroups: return {mergeGroups(node, in)};
  case OpKind::FoldBatchNormWeight: return {foldBatchNormWeight(node, in)};
  case OpKind::FoldBatchNormBias: return {foldBatchNormBias(node, in)};
  }
  throw Error("no kernel for op " + std::string(opName(node.kind)));
}

} // namespace

std::vector<Tensor> evaluateNode(const Node& node, std::span<const Tensor* const> inputs) {
  if (node.kind == OpKind::Opaque) throwOpaque(node);
  if (node.kind == OpKind::Input) throw Error("input '" + node.name + "' has no value of its own: runGraph feeds it");
  if (node.kind == OpKind::Weight) {
    if (!node.weight) throw Error("weight '" + node.name + "' has no value");
    return {*node.weight};
  }
  checkInputs(node, inputs);

  // Kernels read dense storage; a splat (one stored value) is expanded for the call.
  std::vector<Tensor> expanded;
  expanded.reserve(inputs.size());
  std::vector<const Tensor*> dense(inputs.begin(), inputs.end());
  for (const Tensor*& input : dense) {
    if (!input->isSplat()) continue;
    expanded.push_back(input->materialized());
    input = &expanded.back();
  }
  std::vector<Tensor> outputs = dispatch(node, dense);
  assert(outputs.size() == node.outputTypes.size() && "a kernel must produce every output of its node");
  return outputs;
}

std::vector<Tensor> runGraph(const Graph& graph, const TensorMap& inputs, const TensorMap& weightOverrides) {
  const std::vector<NodeId> order = graph.topologicalOrder();

  // Only what the outputs depend on runs; `uses` counts the remaining readers of each node.
  std::vector<bool> needed(graph.size(), false);
  for (const GraphOutput& output : graph.outputs()) needed[output.value.node] = true;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (needed[*it])
      for (const ValueRef& input : graph.node(*it).inputs)
        if (!input.isNone()) needed[input.node] = true;
  std::vector<int64_t> uses(graph.size(), 0);
  for (NodeId id : order)
    if (needed[id])
      for (const ValueRef& input : graph.node(id).inputs)
        if (!input.isNone()) ++uses[input.node];
  for (const GraphOutput& output : graph.outputs()) ++uses[output.value.node]; // outputs are never released

  // Inputs and weights are borrowed (a shared_ptr that owns nothing); computed values are owned.
  auto borrow = [](const Tensor& t) { return std::shared_ptr<const Tensor>(std::shared_ptr<const Tensor>(), &t); };
  std::vector<std::vector<std::shared_ptr<const Tensor>>> values(graph.size());
  for (NodeId id : order) {
    if (!needed[id]) continue;
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input) {
      auto it = inputs.find(node.name);
      if (it == inputs.end()) throw Error("no value for input '" + node.name + "'");
      if (it->second.type() != node.outputTypes[0])
        throw Error("input '" + node.name + "' expects " + node.outputTypes[0].toString() + ", got " + it->second.type().toString());
      values[id] = {borrow(it->second)};
      continue;
    }
    if (node.kind == OpKind::Weight) {
      auto it = weightOverrides.find(node.name);
      if (it == weightOverrides.end()) {
        if (!node.weight) throw Error("weight '" + node.name + "' has no value");
        values[id] = {node.weight};
        continue;
      }
      const Tensor& override = it->second;
      if (override.shape() != node.outputTypes[0].shape || override.holdsFloats() != isFloatingPoint(node.outputTypes[0].dtype))
        throw Error("weight '" + node.name + "' is " + node.outputTypes[0].toString() + ", but its override is " + override.type().toString());
      values[id] = {borrow(override)};
      continue;
    }
    const bool controlFlow = isControlFlow(node);
    if (node.kind == OpKind::Opaque && !controlFlow) throwOpaque(node);

    std::vector<const Tensor*> arguments;
    for (const ValueRef& input : node.inputs) {
      if (input.isNone()) {
        assert(controlFlow && "only opaque nodes have absent inputs");
        arguments.push_back(nullptr);
        continue;
      }
      assert(values[input.node].size() > input.port && "inputs are evaluated before their readers");
      arguments.push_back(values[input.node][input.port].get());
    }
    std::vector<Tensor> results;
    try {
      results = controlFlow ? runControlFlow(node, arguments, graph.info) : evaluateNode(node, arguments);
    } catch (const Error& e) {
      if (controlFlow) throw Error("node '" + node.name + "' (" + node.opaque->opType + "): " + e.what());
      throw Error("node '" + node.name + "' (" + std::string(opName(node.kind)) + "): " + e.what());
    } catch (const std::bad_alloc&) {
      throw Error("node '" + node.name + "' (" + std::string(opName(node.kind)) + "): out of memory for outputs " +
                  typesToString(node.outputTypes));
    }
    for (Tensor& result : results) values[id].push_back(std::make_shared<const Tensor>(std::move(result)));
    for (const ValueRef& input : node.inputs)
      if (!input.isNone() && --uses[input.node] == 0) values[input.node].clear();
  }

  std::vector<Tensor> outputs;
  outputs.reserve(graph.outputs().size());
  for (const GraphOutput& output : graph.outputs()) outputs.push_back(*values[output.value.node][output.value.port]);
  return outputs;
}

} // namespace tessera
