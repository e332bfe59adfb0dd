// Reference outputs from core/interp.
#include "tune/Reference.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "ir/Graph.h"

namespace tessera::tune {

Problem makeProblem(const Workload& workload, uint64_t seed) {
  Graph graph;
  const auto shapes = workload.inputShapes();
  const char* names[] = {"lhs", "rhs", "bias"};
  std::vector<NodeId> inputs;
  TensorMap values;
  Problem problem;
  for (size_t i = 0; i < shapes.size(); ++i) {
    TensorType type{DType::Float32, Shape(shapes[i].begin(), shapes[i].end())};
    inputs.push_back(graph.addInput(names[i], type));
    Tensor value = randomTensor(type, seed, names[i]).materialized();
    problem.inputs.emplace_back(value.floats().begin(), value.floats().end());
    values[names[i]] = std::move(value);
  }
  NodeId result = 0;
  if (workload.kind == WorkloadKind::Conv2d) {
    const int64_t s = workload.stride, p = workload.pad;
    std::vector<ValueRef> args{{inputs[0], 0}, {inputs[1], 0}};
    if (workload.bias) args.push_back({inputs[2], 0});
    result = graph.addNode(OpKind::Conv, args, {{"strides", std::vector<int64_t>{s, s}}, {"pads", std::vector<int64_t>{p, p, p, p}}});
  } else {
    result = graph.addNode(OpKind::MatMul, {{inputs[0], 0}, {inputs[1], 0}});
    if (workload.bias) result = graph.addNode(OpKind::Add, {{result, 0}, {inputs[2], 0}});
  }
  if (workload.relu) result = graph.addNode(OpKind::Relu, {{result, 0}});
  graph.addOutput({result, 0}, "out");
  std::vector<Tensor> outputs = runGraph(graph, values);
  const Tensor output = outputs.at(0).materialized();
  problem.expected.assign(output.floats().begin(), output.floats().end());
  // Sums of products of values in [-1, 1] in another order: float32 noise grows with the length.
  int64_t reduction = workload.kind == WorkloadKind::Conv2d ? workload.convC * workload.kernelH * workload.kernelW : workload.k;
  problem.atol = 1e-4 + 4e-6 * static_cast<double>(reduction);
  return problem;
}

} // namespace tessera::tune
