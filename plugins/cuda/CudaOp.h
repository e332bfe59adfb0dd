// One Tessera op lowered onto cuDNN, cuBLAS or Tessera's own kernels (Kernels.h), reading and
// writing plain row-major float32 device buffers (tessera::Tensor's layout). The profiler times
// it; the executor runs graphs with it. A lowering computes exactly the op's ONNX semantics (the
// reference interpreter's) or is refused, so timing and execution always run the same kernels.
#pragma once

#include "CudaContext.h"

#include "cost/OpSignature.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera::cuda {

class CudaOp {
public:
  using Inputs = std::span<const float* const>;
  using Outputs = std::span<float* const>;

  // nullptr when no GPU path computes the op with these types and attributes; `why` (if given)
  // then says what is missing. The op keeps a reference to `context`, which must outlive it.
  static std::unique_ptr<CudaOp> lower(CudaContext& context, const OpSignature& signature, std::string* why = nullptr);

  // One-time work that needs real buffers: a convolution's algorithm search
  // (cudnnFindConvolutionForwardAlgorithmEx runs every algorithm on them and overwrites the
  // output). execute() does it first if nobody did. Throws tessera::Error.
  void prepare(Inputs inputs, Outputs outputs);
  // Enqueues the op on the context's stream. One dense buffer per signature input and output, in
  // order; outputs never alias inputs. Throws tessera::Error naming the failing call.
  void execute(Inputs inputs, Outputs outputs);

  // What runs it, e.g. "cudnn convolution" or "kernel elementwise", for reports and tests.
  const std::string& implementation() const { return implementation_; }

private:
  friend class CudaOpBuilder;
  using Call = std::function<void(Inputs, Outputs)>;

  std::vector<Call> preparations_;
  std::vector<Call> calls_;
  bool prepared_ = false;
  std::string implementation_;
};

} // namespace tessera::cuda
