// A Graph prepared for repeated execution on the CPU, over its ExecutionPlan (buffers, constants,
// steps). Each step runs as a tuned kernel where the profiler timed one faster than oneDNN
// (TunedKernels' recorded choice), else as a oneDNN primitive where DnnlOp can lower it exactly,
// otherwise through the reference interpreter's kernel (evaluateNode): Gather, Pad, Erf, Pow, LRN
// of even size, broadcasting Sub/Div whose first operand broadcasts, ... Every buffer is one dense
// tensor, allocated once.
#pragma once

#include "DnnlOp.h"
#include "TunedKernels.h"

#include "interp/ExecutionPlan.h"

#include <memory>
#include <vector>

namespace tessera::cpu {

class CompiledGraph {
public:
  // Throws tessera::Error for an opaque op or a graph that cannot be ordered. `tuned` may be null.
  CompiledGraph(const dnnl::engine& engine, const Graph& graph, std::shared_ptr<TunedKernels> tuned = nullptr);

  // Copies every Input by name; throws tessera::Error for a missing or mistyped one.
  void feed(const TensorMap& inputs);
  // Runs every op once. Throws tessera::Error naming the node that failed.
  void execute(dnnl::stream& stream);
  std::vector<Tensor> outputs() const;

  size_t oneDnnOps() const { return oneDnnOps_; }
  size_t interpretedOps() const { return interpretedOps_; }
  size_t tunedOps() const { return tunedOps_; }

private:
  const Tensor& buffer(size_t value) const { return buffers_[plan_.value(value).buffer]; }
  // The reference interpreter's kernel for `node` on the buffers of `inputValues`.
  std::vector<Tensor> evaluate(const Node& node, const std::vector<size_t>& inputValues) const;
  void interpret(const ExecutionPlan::Step& step);

  ExecutionPlan plan_;
  std::vector<Tensor> buffers_;                 // per plan buffer
  std::shared_ptr<TunedKernels> tunedKernels_; // keeps the kernels in tuned_ loaded
  std::vector<const tune::TunedKernel*> tuned_; // per plan step; nullptr: ops_ decides
  std::vector<std::unique_ptr<DnnlOp>> ops_;    // per plan step; nullptr: interpreted
  size_t oneDnnOps_ = 0;
  size_t interpretedOps_ = 0;
  size_t tunedOps_ = 0;
};

} // namespace tessera::cpu
