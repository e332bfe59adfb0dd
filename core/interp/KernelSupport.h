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

// A kernel's inputs, already checked against the node: dense (splats expanded), float except
// Gather's indices.
using KernelInputs = std::span<const Tensor* const>;

// Below this many elements a loop runs on one thread: a thread team costs microseconds.
inline constexpr int64_t kParallelGrain = 1 << 15;

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

// The fused `activation` attribute of Conv and MatMul (NONE=0 SIGMOID=1 RELU=2 TANH=3).
Activation activationOf(const Node& node);
void applyActivation(Activation activation, float* data, int64_t count);

} // namespace tessera::interp
