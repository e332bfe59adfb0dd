// Helpers shared by the interpreter's kernels.
#include "interp/KernelSupport.h"

#include "support/Error.h"
#include "support/HostLoad.h"

#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdlib>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tessera::interp {

void kernelError(const std::string& message) { throw Error(message); }

namespace {
std::atomic<int> forcedThreads{0};
} // namespace

void forceParallelThreads(int threads) { forcedThreads.store(threads < 0 ? 0 : threads); }

int parallelThreads() {
  if (const int forced = forcedThreads.load(std::memory_order_relaxed); forced > 0) return forced;
#ifdef _OPENMP
  static const bool pinned = std::getenv("OMP_NUM_THREADS") != nullptr;
  const int maximum = omp_get_max_threads();
  if (pinned || maximum <= 1) return maximum;
#if defined(__unix__) || defined(__APPLE__)
  // The load average moves slowly; read it at most every quarter second.
  static std::atomic<int64_t> nextCheck{0};
  static std::atomic<bool> oversubscribed{false};
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (now >= nextCheck.load(std::memory_order_relaxed)) {
    nextCheck.store(now + 250, std::memory_order_relaxed);
    if (const std::optional<HostLoad> load = hostLoad()) oversubscribed.store(load->busy(), std::memory_order_relaxed);
  }
  if (oversubscribed.load(std::memory_order_relaxed)) return 1;
#endif
  return maximum;
#else
  return 1;
#endif
}

int64_t wrapInteger(DType type, int64_t value) {
  switch (type) {
  case DType::Int8: return static_cast<int8_t>(value);
  case DType::UInt8: return static_cast<uint8_t>(value);
  case DType::Int32: return static_cast<int32_t>(value);
  case DType::Bool: return value != 0 ? 1 : 0;
  default: return value;
  }
}

float roundToPrecision(DType type, float value) {
  if (type != DType::Float16 && type != DType::BFloat16) return value;
  if (!std::isfinite(value) || value == 0.0f) return value;
  // Keep `bits` significant bits, rounding half to even (the default rounding mode); float16's
  // subnormals (below 2^-14) keep fewer, and beyond 65504 it overflows.
  int exponent = 0;
  std::frexp(value, &exponent); // value = m * 2^exponent, 0.5 <= |m| < 1
  int bits = type == DType::Float16 ? 11 : 8;
  if (type == DType::Float16 && exponent - 1 < -14) bits -= -14 - (exponent - 1);
  if (bits <= 0) return std::copysign(0.0f, value);
  const float rounded = std::ldexp(std::nearbyint(std::ldexp(value, bits - exponent)), exponent - bits);
  if (type == DType::Float16 && std::abs(rounded) > 65504.0f) return std::copysign(INFINITY, value);
  return rounded;
}

Tensor allocateOutput(const Node& node, int port) {
  assert(port < node.numOutputs() && "the node must have that output");
  return Tensor::zeros(node.outputTypes[static_cast<size_t>(port)]);
}

std::vector<int64_t> contiguousStrides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::vector<int64_t> broadcastStrides(const Shape& shape, const Shape& target) {
  assert(shape.size() <= target.size() && "a broadcast operand cannot have a higher rank");
  std::vector<int64_t> own = contiguousStrides(shape);
  std::vector<int64_t> strides(target.size(), 0);
  size_t offset = target.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    assert((shape[d] == target[offset + d] || shape[d] == 1) && "shape must broadcast to target");
    strides[offset + d] = shape[d] == 1 ? 0 : own[d];
  }
  return strides;
}

int64_t product(const Shape& shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t d = begin; d < end && d < shape.size(); ++d) n *= shape[d];
  return n;
}

std::vector<int64_t> intsOr(const Node& node, const char* name, int64_t fallback, size_t count) {
  std::vector<int64_t> values = node.attrs.getInts(name, std::vector<int64_t>(count, fallback));
  if (values.size() != count)
    kernelError(std::string(name) + " needs " + std::to_string(count) + " values, got " + std::to_string(values.size()));
  return values;
}

Activation activationOf(const Node& node) {
  int64_t value = node.attrs.getInt("activation", 0);
  if (value < 0 || value > 3) kernelError("unknown fused activation " + std::to_string(value));
  return static_cast<Activation>(value);
}

void applyActivation(Activation activation, float* data, int64_t count) {
  switch (activation) {
  case Activation::None: return;
  case Activation::Relu:
    for (int64_t i = 0; i < count; ++i) data[i] = data[i] < 0.0f ? 0.0f : data[i]; // NaN stays NaN, as in ONNX
    return;
  case Activation::Sigmoid:
    for (int64_t i = 0; i < count; ++i) data[i] = 1.0f / (1.0f + std::exp(-data[i]));
    return;
  case Activation::Tanh:
    for (int64_t i = 0; i < count; ++i) data[i] = std::tanh(data[i]);
    return;
  }
}

} // namespace tessera::interp
