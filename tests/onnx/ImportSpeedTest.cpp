// Importing a 1,000-op model must take well under a second; the time is printed, not asserted
// (CI machines vary), but the model must import completely.
#include "ModelBuilder.h"

#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace tessera;
using namespace tessera::test;

TEST(ImportSpeed, ThousandOpModel) {
  // 250 blocks of MatMul -> Add -> Relu -> Reshape, weights as ConstantOfShape like the zoo's
  // light models, plus a Shape -> Gather -> Concat chain feeding each Reshape.
  ModelBuilder b(13);
  b.input("x", {1, 64});
  b.ints("w_shape", {64, 64}).ints("b_shape", {64}).ints("zero", {}, {0}).ints("axis0", {0}).ints("minus_one", {-1});
  onnx::TensorProto fill;
  fill.set_data_type(TensorProto::FLOAT);
  fill.add_dims(1);
  fill.add_float_data(0.01f);
  std::string x = "x";
  for (int i = 0; i < 250; ++i) {
    std::string s = std::to_string(i);
    setAttr(b.node("ConstantOfShape", {"w_shape"}, {"w" + s}), "value", fill);
    setAttr(b.node("ConstantOfShape", {"b_shape"}, {"b" + s}), "value", fill);
    b.node("MatMul", {x, "w" + s}, {"mm" + s}, "mm" + s);
    b.node("Add", {"mm" + s, "b" + s}, {"add" + s}, "add" + s);
    b.node("Relu", {"add" + s}, {"relu" + s}, "relu" + s);
    b.node("Shape", {"relu" + s}, {"shape" + s});
    b.node("Gather", {"shape" + s, "zero"}, {"batch" + s});
    b.node("Unsqueeze", {"batch" + s, "axis0"}, {"batch1d" + s});
    setAttr(b.node("Concat", {"batch1d" + s, "minus_one"}, {"target" + s}), "axis", int64_t(0));
    b.node("Reshape", {"relu" + s, "target" + s}, {"out" + s}, "reshape" + s);
    x = "out" + s;
  }
  b.output(x, {1, 64});
  std::string bytes = b.bytes();

  Graph graph;
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    auto start = std::chrono::steady_clock::now();
    graph = onnx_io::importOnnxBytes(bytes, "thousand.onnx");
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  EXPECT_EQ(graph.opCount(), 1000u);
  EXPECT_EQ(graph.weightNodes().size(), 500u);
  std::printf("[ timing   ] import of a 1000-op model (%zu bytes, %zu ONNX nodes): %.1f ms\n", bytes.size(),
              static_cast<size_t>(b.model.graph().node_size()), best * 1e3);
}
