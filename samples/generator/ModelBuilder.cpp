// ModelBuilder: layer helpers over Graph with unique names and splat weights.
#include "generator/ModelBuilder.h"

#include "ir/Tensor.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace tessera::samples {

namespace {

// out = ceil(in / stride); the padding needed for that, split with the odd one at the end.
std::pair<int64_t, int64_t> samePadsAlong(int64_t input, int64_t kernel, int64_t stride) {
  int64_t output = (input + stride - 1) / stride;
  int64_t total = std::max<int64_t>((output - 1) * stride + kernel - input, 0);
  return {total / 2, total - total / 2};
}

} // namespace

std::vector<int64_t> windowPads(Padding padding, const Shape& input, Window kernel, Window stride) {
  assert(input.size() == 4 && "windows slide over NCHW tensors");
  if (padding == Padding::Valid) return {0, 0, 0, 0};
  auto [top, bottom] = samePadsAlong(input[2], kernel.h, stride.h);
  auto [left, right] = samePadsAlong(input[3], kernel.w, stride.w);
  return {top, left, bottom, right};
}

ModelBuilder::ModelBuilder(std::string modelName) { graph_.info.name = std::move(modelName); }

void ModelBuilder::claimName(const std::string& name) {
  [[maybe_unused]] bool fresh = names_.insert(name).second;
  assert(fresh && "every input, weight and op of a benchmark model has its own name");
}

ValueRef ModelBuilder::input(const std::string& name, Shape shape) {
  claimName(name);
  return {graph_.addInput(name, TensorType{DType::Float32, std::move(shape)}), 0};
}

ValueRef ModelBuilder::weight(const std::string& name, Shape shape, double value) {
  claimName(name);
  return {graph_.addWeight(name, Tensor::splat(TensorType{DType::Float32, std::move(shape)}, value)), 0};
}

ValueRef ModelBuilder::weight(const std::string& name, Shape shape) {
  // Fan-in: every dimension but the output one ([out, in/g, kh, kw] for convs, [K, N] for matmuls).
  assert(shape.size() >= 2 && "a weight has an input and an output dimension");
  int64_t fanIn = 1;
  if (shape.size() == 2) {
    fanIn = shape[0];
  } else {
    for (size_t d = 1; d < shape.size(); ++d) fanIn *= shape[d];
  }
  return weight(name, std::move(shape), 1.0 / static_cast<double>(fanIn));
}

ValueRef ModelBuilder::node(OpKind kind, const std::string& name, std::vector<ValueRef> inputs, Attributes attrs) {
  claimName(name);
  return {graph_.addNode(kind, std::move(inputs), std::move(attrs), name), 0};
}

ValueRef ModelBuilder::conv(const std::string& name, ValueRef x, int64_t outChannels, Window kernel, Window stride,
                            Padding padding, int64_t groups) {
  const Shape& in = shapeOf(x);
  assert(in.size() == 4 && groups >= 1 && in[1] % groups == 0 && "conv input channels split into the groups");
  ValueRef w = weight(name + ".weight", {outChannels, in[1] / groups, kernel.h, kernel.w});
  return conv(name, x, w, stride, padding);
}

ValueRef ModelBuilder::conv(const std::string& name, ValueRef x, ValueRef weight, Window stride, Padding padding) {
  const Shape& in = shapeOf(x);
  const Shape& w = shapeOf(weight);
  assert(in.size() == 4 && w.size() == 4 && in[1] % w[1] == 0 && "conv input channels split into the groups");
  Attributes attrs{{"strides", std::vector<int64_t>{stride.h, stride.w}},
                   {"pads", windowPads(padding, in, Window(w[2], w[3]), stride)}};
  return node(OpKind::Conv, name, {x, weight}, std::move(attrs));
}

ValueRef ModelBuilder::pool(OpKind kind, const std::string& name, ValueRef x, Window kernel, Window stride,
                            Padding padding) {
  Attributes attrs{{"kernel_shape", std::vector<int64_t>{kernel.h, kernel.w}},
                   {"strides", std::vector<int64_t>{stride.h, stride.w}},
                   {"pads", windowPads(padding, shapeOf(x), kernel, stride)}};
  return node(kind, name, {x}, std::move(attrs));
}

ValueRef ModelBuilder::maxPool(const std::string& name, ValueRef x, Window kernel, Window stride, Padding padding) {
  return pool(OpKind::MaxPool, name, x, kernel, stride, padding);
}

ValueRef ModelBuilder::averagePool(const std::string& name, ValueRef x, Window kernel, Window stride, Padding padding) {
  return pool(OpKind::AveragePool, name, x, kernel, stride, padding);
}

ValueRef ModelBuilder::batchNorm(const std::string& name, ValueRef x, ValueRef scale, ValueRef bias, ValueRef mean,
                                 ValueRef variance) {
  return node(OpKind::BatchNorm, name, {x, scale, bias, mean, variance});
}

ValueRef ModelBuilder::relu(const std::string& name, ValueRef x) { return node(OpKind::Relu, name, {x}); }
ValueRef ModelBuilder::sigmoid(const std::string& name, ValueRef x) { return node(OpKind::Sigmoid, name, {x}); }
ValueRef ModelBuilder::tanh(const std::string& name, ValueRef x) { return node(OpKind::Tanh, name, {x}); }
ValueRef ModelBuilder::dropout(const std::string& name, ValueRef x) { return node(OpKind::Dropout, name, {x}); }
ValueRef ModelBuilder::add(const std::string& name, ValueRef a, ValueRef b) { return node(OpKind::Add, name, {a, b}); }
ValueRef ModelBuilder::mul(const std::string& name, ValueRef a, ValueRef b) { return node(OpKind::Mul, name, {a, b}); }
ValueRef ModelBuilder::matmul(const std::string& name, ValueRef a, ValueRef b) {
  return node(OpKind::MatMul, name, {a, b});
}

ValueRef ModelBuilder::linear(const std::string& name, ValueRef x, int64_t outFeatures) {
  int64_t inFeatures = shapeOf(x).back();
  return linear(name, x, outFeatures, 1.0 / static_cast<double>(inFeatures));
}

ValueRef ModelBuilder::linear(const std::string& name, ValueRef x, int64_t outFeatures, double weightValue) {
  ValueRef w = weight(name + ".weight", {shapeOf(x).back(), outFeatures}, weightValue);
  return matmul(name, x, w);
}

ValueRef ModelBuilder::concat(const std::string& name, std::vector<ValueRef> inputs, int64_t axis) {
  return node(OpKind::Concat, name, std::move(inputs), {{"axis", axis}});
}

ValueRef ModelBuilder::reshape(const std::string& name, ValueRef x, Shape shape) {
  return node(OpKind::Reshape, name, {x}, {{"shape", std::move(shape)}});
}

ValueRef ModelBuilder::transpose(const std::string& name, ValueRef x, std::vector<int64_t> perm) {
  return node(OpKind::Transpose, name, {x}, {{"perm", std::move(perm)}});
}

void ModelBuilder::output(ValueRef value, const std::string& name) { graph_.addOutput(value, name); }

Graph ModelBuilder::finish() {
  assert(!graph_.outputs().empty() && "a model computes something");
  return std::move(graph_);
}

} // namespace tessera::samples
