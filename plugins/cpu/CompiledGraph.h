// A Graph prepared for repeated execution on the CPU. Each op runs as a oneDNN primitive where
// DnnlOp can lower it exactly, otherwise through the reference interpreter's kernel
// (evaluateNode): Gather, Pad, Erf, Pow, LRN of even size, broadcasting Sub/Div whose first
// operand broadcasts, ... Every value has one dense float32 buffer, allocated once; views
// (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout) share their input's buffer. Weights,
// and ops that depend on weights only, are computed once here (as TASO precomputes them).
#pragma once

#include "DnnlOp.h"

#include "interp/Interpreter.h"
#include "ir/Graph.h"

#include <memory>
#include <vector>

namespace tessera::cpu {

class CompiledGraph {
public:
  // Throws tessera::Error for an opaque op or a graph that cannot be ordered.
  CompiledGraph(const dnnl::engine& engine, const Graph& graph);

  // Copies every Input by name; throws tessera::Error for a missing or mistyped one.
  void feed(const TensorMap& inputs);
  // Runs every op once. Throws tessera::Error naming the node that failed.
  void execute(dnnl::stream& stream);
  std::vector<Tensor> outputs() const;

  size_t oneDnnOps() const { return oneDnnOps_; }
  size_t interpretedOps() const { return interpretedOps_; }

private:
  struct Value {
    size_t buffer = 0;
    TensorType type;
  };
  struct Step {
    NodeId node = 0;
    std::unique_ptr<DnnlOp> op; // nullptr: interpreted
    std::vector<size_t> inputs;  // value indices
    std::vector<size_t> outputs; // value indices
  };

  size_t valueOf(ValueRef ref) const { return valueIndex_[ref.node] + ref.port; }
  size_t newBuffer(Tensor tensor);
  // The reference interpreter's kernel for `node` on the buffers of `inputValues`.
  std::vector<Tensor> evaluate(const Node& node, const std::vector<size_t>& inputValues) const;
  void interpret(const Step& step);

  const Graph& graph_;
  std::vector<size_t> valueIndex_; // first value of each node
  std::vector<Value> values_;
  std::vector<Tensor> buffers_;
  std::vector<Step> steps_;
  std::vector<std::pair<std::string, size_t>> inputs_; // Input name -> value
  size_t oneDnnOps_ = 0;
  size_t interpretedOps_ = 0;
};

} // namespace tessera::cpu
