#include "TestModels.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

namespace tessera::testing {

namespace {
using Ints = std::vector<int64_t>;

NodeId weight(Graph& g, const std::string& name, Shape shape) { return g.addWeight(name, Tensor::splat(f32(std::move(shape)), 0.01)); }

ValueRef batchNormRelu(Graph& g, ValueRef x, int64_t channels, const std::string& name) {
  NodeId bn = g.addNode(OpKind::BatchNorm,
                        {x, {weight(g, name + ".bn.scale", {channels})}, {weight(g, name + ".bn.bias", {channels})},
                         {weight(g, name + ".bn.mean", {channels})}, {weight(g, name + ".bn.var", {channels})}},
                        {}, name + ".bn");
  return {g.addNode(OpKind::Relu, {{bn}}, {}, name + ".relu")};
}

ValueRef conv(Graph& g, ValueRef x, int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t pad, const std::string& name) {
  Attributes attrs;
  if (stride != 1) attrs.set("strides", Ints{stride, stride});
  if (pad != 0) attrs.set("pads", Ints{pad, pad, pad, pad});
  return {g.addNode(OpKind::Conv, {x, {weight(g, name + ".weight", {out, in, kernel, kernel})}}, attrs, name)};
}

ValueRef concat(Graph& g, const std::vector<ValueRef>& parts, const std::string& name) {
  if (parts.size() == 1) return parts.front();
  return {g.addNode(OpKind::Concat, parts, {{"axis", int64_t{1}}}, name)};
}
} // namespace

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

Graph branchesGraph() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId c1 = g.addNode(OpKind::Conv, {{x}, {w1}}, {}, "conv_a");
  NodeId a = g.addNode(OpKind::Relu, {{c1}}, {}, "relu_a");
  NodeId c2 = g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}}, "conv_b");
  NodeId b = g.addNode(OpKind::Relu, {{c2}}, {}, "relu_b");
  g.addOutput({g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}}, "concat")}, "y");
  return g;
}

Graph denseNet(const std::vector<int>& blocks, int growth) {
  Graph g;
  ValueRef x{g.addInput("input", f32({1, 3, 224, 224}))};
  ValueRef h = conv(g, x, 3, 64, 7, 2, 3, "conv0");
  h = batchNormRelu(g, h, 64, "features0");
  h = {g.addNode(OpKind::MaxPool, {h}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}}, "pool0")};
  int64_t channels = 64;
  for (size_t b = 0; b < blocks.size(); ++b) {
    std::vector<ValueRef> features{h};
    int64_t inChannels = channels;
    for (int layer = 0; layer < blocks[b]; ++layer) {
      std::string name = "block" + std::to_string(b + 1) + ".layer" + std::to_string(layer + 1);
      ValueRef in = concat(g, features, name + ".cat");
      ValueRef y = batchNormRelu(g, in, inChannels, name + ".1");
      y = conv(g, y, inChannels, 4 * growth, 1, 1, 0, name + ".conv1");
      y = batchNormRelu(g, y, 4 * growth, name + ".2");
      y = conv(g, y, 4 * growth, growth, 3, 1, 1, name + ".conv2");
      features.push_back(y);
      inChannels += growth;
    }
    h = concat(g, features, "block" + std::to_string(b + 1) + ".out");
    channels = inChannels;
    if (b + 1 == blocks.size()) break;
    std::string name = "transition" + std::to_string(b + 1);
    h = batchNormRelu(g, h, channels, name);
    h = conv(g, h, channels, channels / 2, 1, 1, 0, name + ".conv");
    h = {g.addNode(OpKind::AveragePool, {h}, {{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}}, name + ".pool")};
    channels /= 2;
  }
  h = batchNormRelu(g, h, channels, "final");
  h = {g.addNode(OpKind::GlobalAveragePool, {h}, {}, "gap")};
  h = {g.addNode(OpKind::Flatten, {h}, {}, "flatten")};
  NodeId fc = g.addNode(OpKind::Gemm, {h, {weight(g, "fc.weight", {1000, channels})}, {weight(g, "fc.bias", {1000})}},
                        {{"transB", int64_t{1}}}, "fc");
  g.addOutput({fc}, "logits");
  return g;
}

std::string samplePath(const std::string& name) { return std::string(TESSERA_SOURCE_DIR) + "/samples/" + name + ".onnx"; }

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (!done()) {
    if (timer.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

} // namespace tessera::testing
