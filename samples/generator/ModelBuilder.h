// A thin, readable layer over Graph for writing the benchmark models: one call per layer, each
// creating its uniquely named splat weight, with TASO's SAME/VALID padding.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace tessera::samples {

// TASO's two padding modes. SAME pads so that out = ceil(in / stride), the extra row or column
// at the end (TensorFlow's convention); it is the very padding the rule matcher reads as
// `(conv2d s s 0 ...)`, so every conv built with it is visible to TENSAT's rules.
enum class Padding { Same, Valid };

// Kernel or stride sizes: square from one number, or height and width.
struct Window {
  Window(int64_t both) : h(both), w(both) {} // NOLINT(google-explicit-constructor): `3` reads as 3x3
  Window(int64_t height, int64_t width) : h(height), w(width) {}
  int64_t h;
  int64_t w;
};

class ModelBuilder {
public:
  explicit ModelBuilder(std::string modelName);

  ValueRef input(const std::string& name, Shape shape);
  // A splat weight (every element `value`). Names must be unique in the model.
  ValueRef weight(const std::string& name, Shape shape, double value);
  // A weight of 1/fanIn: activations keep their magnitude through averaging layers.
  ValueRef weight(const std::string& name, Shape shape);

  // Conv without bias or fused activation; the weight is "<name>.weight", [outC, inC/groups, kh, kw].
  ValueRef conv(const std::string& name, ValueRef x, int64_t outChannels, Window kernel, Window stride,
                Padding padding, int64_t groups = 1);
  // Conv with a weight made elsewhere ([outC, inC/groups, kh, kw]); the groups follow from its shape.
  ValueRef conv(const std::string& name, ValueRef x, ValueRef weight, Window stride, Padding padding);
  ValueRef maxPool(const std::string& name, ValueRef x, Window kernel, Window stride, Padding padding);
  // Pads are excluded from the average (cuDNN's COUNT_EXCLUDE_PADDING, TASO's choice; ONNX's default).
  ValueRef averagePool(const std::string& name, ValueRef x, Window kernel, Window stride, Padding padding);

  // Inference batch norm over channels (axis 1) with [C] scale, bias, mean and variance.
  ValueRef batchNorm(const std::string& name, ValueRef x, ValueRef scale, ValueRef bias, ValueRef mean, ValueRef variance);
  ValueRef relu(const std::string& name, ValueRef x);
  ValueRef sigmoid(const std::string& name, ValueRef x);
  ValueRef tanh(const std::string& name, ValueRef x);
  ValueRef dropout(const std::string& name, ValueRef x);
  ValueRef add(const std::string& name, ValueRef a, ValueRef b);
  ValueRef mul(const std::string& name, ValueRef a, ValueRef b);
  ValueRef matmul(const std::string& name, ValueRef a, ValueRef b);
  // x[..., K] times a fresh weight "<name>.weight" [K, outFeatures] of 1/K (a bias-free Linear).
  ValueRef linear(const std::string& name, ValueRef x, int64_t outFeatures);
  // As linear, with an explicit splat value for the weight.
  ValueRef linear(const std::string& name, ValueRef x, int64_t outFeatures, double weightValue);
  ValueRef concat(const std::string& name, std::vector<ValueRef> inputs, int64_t axis);
  ValueRef reshape(const std::string& name, ValueRef x, Shape shape);
  ValueRef transpose(const std::string& name, ValueRef x, std::vector<int64_t> perm);

  void output(ValueRef value, const std::string& name);

  const Shape& shapeOf(ValueRef value) const { return graph_.typeOf(value).shape; }
  int64_t channels(ValueRef value) const { return shapeOf(value).at(1); }
  int64_t height(ValueRef value) const { return shapeOf(value).at(2); }

  // The finished graph; the builder is spent afterwards.
  Graph finish();

private:
  ValueRef node(OpKind kind, const std::string& name, std::vector<ValueRef> inputs, Attributes attrs = {});
  ValueRef pool(OpKind kind, const std::string& name, ValueRef x, Window kernel, Window stride, Padding padding);
  void claimName(const std::string& name);

  Graph graph_;
  std::unordered_set<std::string> names_;
};

// TASO's SAME/VALID padding of a window over an NCHW input, as ONNX pads [top, left, bottom, right].
std::vector<int64_t> windowPads(Padding padding, const Shape& input, Window kernel, Window stride);

} // namespace tessera::samples
