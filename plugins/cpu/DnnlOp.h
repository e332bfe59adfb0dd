// One Tessera op lowered onto oneDNN primitives that read and write plain row-major float32
// buffers (tessera::Tensor's layout). The profiler times it; the executor runs graphs with it.
// Inputs a primitive wants in another layout (a conv's weights) are reordered first; for an input
// marked constant that reorder runs once, as for weights prepared ahead of inference.
#pragma once

#include "cost/OpSignature.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::cpu {

class DnnlOp {
public:
  // Execute: compute exactly the op's ONNX semantics, or refuse. Measure: a primitive of the same
  // cost is enough (Erf timed as GELU-erf, Gemm's alpha and beta ignored, a Sub whose first
  // operand broadcasts timed with the operands swapped).
  enum class Purpose { Execute, Measure };

  // nullptr when oneDNN has no primitive for the op with these types and attributes; `why` (if
  // given) then says which part is unsupported.
  static std::unique_ptr<DnnlOp> lower(const dnnl::engine& engine, const OpSignature& signature, Purpose purpose,
                                       std::string* why = nullptr);

  // Input `index` holds the same values on every execute (a weight): prepare it only once.
  void setConstant(size_t index);

  // inputs/outputs: one dense buffer per signature input/output, in order.
  void execute(dnnl::stream& stream, std::span<const float* const> inputs, std::span<float* const> outputs);

  // Implementation names oneDNN chose, e.g. "jit:avx512_core" (for reports and tests).
  const std::vector<std::string>& implementations() const { return implementations_; }

private:
  friend class DnnlOpBuilder;

  enum class Binding { Input, Output, Owned };
  struct Bound {
    dnnl::memory memory;
    Binding binding;
    size_t index; // input or output number
  };
  struct Call {
    dnnl::primitive primitive;
    std::unordered_map<int, dnnl::memory> args;
    int preparesInput = -1; // a reorder of this input into the primitive's layout
    dnnl::memory scratchpad; // empty when the primitive needs none; bound to the thread's at execute
  };

  std::vector<Bound> memories_;
  std::vector<Call> calls_;
  std::vector<bool> constant_;
  std::vector<bool> prepared_;
  std::vector<std::string> implementations_;
};

// True for inputs that are weights in the models Tessera sees (a conv's filter and bias, a
// normalisation's parameters), which the profiler therefore prepares once like the executor.
bool isParameterInput(OpKind kind, size_t index);

} // namespace tessera::cpu
