// The backend-neutral half of running a Graph again and again: which ops run in which order,
// which buffer each value lives in (and where in it), and which values are constants. Every value
// owns one buffer except data views (Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout),
// which share their input's, and, for a backend that asks, the outputs of a split into contiguous
// pieces (isContiguousSplit), which are slices of their input's buffer. Weights, and ops that depend
// on weights only, are evaluated here once by the reference interpreter (as TASO precomputes them);
// the steps are the ops left, in topological order.
// The CPU's CompiledGraph and the GPU's DeviceGraph allocate the buffers and lower the steps to
// their own kernels.
#pragma once

#include "interp/Interpreter.h"
#include "ir/Graph.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera {

class ExecutionPlan {
public:
  struct Value {
    NodeId node = 0; // the node whose output it is
    TensorType type;
    size_t buffer = 0;      // the buffer this value lives in, shared by a view and its input
    int64_t offset = 0;     // the element it starts at in that buffer (a slice of a split's input)
    bool constant = false;  // a weight or what follows from weights alone, computed once
    std::optional<Tensor> tensor; // a constant's values (dense) until a backend releases them
  };
  struct Step {
    NodeId node = 0;
    std::vector<size_t> inputs;  // value indices
    std::vector<size_t> outputs; // value indices, each owning its buffer
  };

  // Whether a split into contiguous pieces runs as slices of its input (no step, no copy).
  enum class Splits { Copied, Sliced };

  // Throws tessera::Error for an opaque op (naming `device`, e.g. "the CPU"), an absent input, a
  // graph that cannot be ordered, or a constant the interpreter cannot compute (naming the node).
  ExecutionPlan(const Graph& graph, std::string_view device, Splits splits = Splits::Copied);

  const Graph& graph() const { return graph_; }
  size_t valueOf(ValueRef ref) const { return valueIndex_[ref.node] + ref.port; }
  const Value& value(size_t index) const { return values_[index]; }
  // Moves a constant's values out, for a backend that keeps them in its own buffer.
  Tensor releaseConstant(size_t index);
  size_t valueCount() const { return values_.size(); }
  size_t bufferCount() const { return bufferOwners_.size(); }
  // The value that owns `buffer` (its type is the buffer's).
  size_t ownerOf(size_t buffer) const { return bufferOwners_[buffer]; }
  const std::vector<Step>& steps() const { return steps_; }
  // Graph inputs, by name, and the value each feeds.
  const std::vector<std::pair<std::string, size_t>>& inputs() const { return inputs_; }
  // The tensor `fed` gives the input `name` of value `index`, checked: throws tessera::Error when
  // it is missing or of another type.
  const Tensor& fedInput(const TensorMap& fed, const std::string& name, size_t index) const;

private:
  const Graph& graph_;
  std::vector<size_t> valueIndex_; // first value of each node
  std::vector<Value> values_;
  std::vector<size_t> bufferOwners_; // per buffer, the value that owns it
  std::vector<Step> steps_;
  std::vector<std::pair<std::string, size_t>> inputs_;
};

// The values of `value` as a tensor of its own, read from `buffer`, the tensor that holds its buffer:
// `buffer` itself where the value owns it, else a copy of the view's elements (another shape, or a
// slice from the value's offset on), for a consumer in the interpreter or the caller.
Tensor viewOfBuffer(const Tensor& buffer, const ExecutionPlan::Value& value);

} // namespace tessera
