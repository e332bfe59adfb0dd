// What the interpreter's kernels share: output allocation, attribute reads with the IR's
// canonical defaults, strides and broadcasting, fused activations. Internal to core/interp.
#pragma once

#include "ir/Graph.h"
#include "ir/Tensor.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::interp {

// A kernel's inputs, already checked against the node: dense (splats expanded), each holding the
// element storage (float or int64) its kernel reads there.
using KernelInputs = std::span<const Tensor* const>;

// Below this much work (elements, or multiply-adds) a loop runs on one thread. On two cores a
// team pays off only for work well beyond its fork and join, which cost microseconds on an idle
// machine but up to a scheduler time slice on a loaded one.
inline constexpr int64_t kParallelGrain = int64_t{1} << 18;

// The team size for a parallel region: omp_get_max_threads(), or 1 while other processes keep
// the machine oversubscribed (1-minute load average above the processor count + 1), where every
// fork and join would wait for a descheduled thread. An explicit OMP_NUM_THREADS is obeyed as is.
int parallelThreads();
// Makes parallelThreads() return `threads` (0: back to the automatic choice), so that tests cover
// the multi-threaded paths whatever the load, and so that the GUI keeps a core for its UI thread.
void forceParallelThreads(int threads);

[[noreturn]] void kernelError(const std::string& message);

// A zero tensor of the node's output type (port).
Tensor allocateOutput(const Node& node, int port = 0);

// Row-major strides of `shape`.
std::vector<int64_t> contiguousStrides(const Shape& shape);
// Strides that read a tensor of `shape` as if broadcast to `target` (0 on broadcast axes).
// Precondition: shape broadcasts to target.
std::vector<int64_t> broadcastStrides(const Shape& shape, const Shape& target);
int64_t product(const Shape& shape, size_t begin, size_t end);

// The node's ints attribute of the given length, or `fallback` repeated when absent.
std::vector<int64_t> intsOr(const Node& node, const char* name, int64_t fallback, size_t count);

// Calls body(T{}) with T = float for a tensor held as floats, int64_t for integers and Bool, so
// that a kernel is written once for both storages.
template <class Body> decltype(auto) withElementType(const Tensor& tensor, Body body) {
  if (tensor.holdsFloats()) return body(float{});
  return body(int64_t{});
}

// An int64 result stored into an element of `type`: wraps for Int8, UInt8 and Int32 as C++
// (and ONNX's reference) does, 0/1 for Bool.
int64_t wrapInteger(DType type, int64_t value);
// A float32 result rounded to what `type` holds (float16 and bfloat16 keep fewer bits).
float roundToPrecision(DType type, float value);

// The fused `activation` attribute of Conv and MatMul (NONE=0 SIGMOID=1 RELU=2 TANH=3).
Activation activationOf(const Node& node);
void applyActivation(Activation activation, float* data, int64_t count);

} // namespace tessera::interp
