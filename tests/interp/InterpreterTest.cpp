// runGraph on small graphs: inputs, weights and their overrides, several outputs, errors that name
// what is wrong (missing or mistyped input, opaque op, bad override), and evaluateNode's checks.
#include "InterpTestSupport.h"

#include "interp/TestData.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera {
namespace {

using testing::errorOf;
using testing::valuesOf;

// y = relu((x + b) * s), z = x: a graph with an input as a second output.
Graph smallGraph() {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {2, 2}});
  NodeId b = g.addWeight("b", Tensor::fromFloats({2}, {-0.5f, 0.25f}));
  NodeId s = g.addWeight("s", Tensor::fromFloats({2, 1}, {2, -4}));
  NodeId add = g.addNode(OpKind::Add, {{x, 0}, {b, 0}});
  NodeId mul = g.addNode(OpKind::Mul, {{add, 0}, {s, 0}});
  NodeId relu = g.addNode(OpKind::Relu, {{mul, 0}}, {}, "relu");
  g.addOutput({relu, 0}, "y");
  g.addOutput({x, 0}, "z");
  return g;
}

TEST(RunGraphTest, EvaluatesInTopologicalOrder) {
  Graph g = smallGraph();
  TensorMap inputs = dummyInputs(g); // x = [0, .25, .5, .75]
  std::vector<Tensor> out = runGraph(g, inputs);
  ASSERT_EQ(out.size(), 2u);
  // (x + b) = [-.5, .5, 0, 1]; times [2; -4] per row = [-1, 1, 0, -4]; relu.
  EXPECT_EQ(valuesOf(out[0]), (std::vector<float>{0, 1, 0, 0}));
  EXPECT_EQ(valuesOf(out[1]), valuesOf(inputs.at("x")));
}

TEST(RunGraphTest, WeightOverridesReplaceByNameAndCheckTheShape) {
  Graph g = smallGraph();
  TensorMap inputs = dummyInputs(g);
  TensorMap overrides{{"s", Tensor::fromFloats({2, 1}, {1, 1})}, {"unused", Tensor::fromFloats({1}, {0})}};
  EXPECT_EQ(valuesOf(runGraph(g, inputs, overrides)[0]), (std::vector<float>{0, 0.5f, 0, 1}));
  TensorMap wrongShape{{"s", Tensor::fromFloats({1, 2}, {1, 1})}};
  std::string error = errorOf([&] { runGraph(g, inputs, wrongShape); });
  EXPECT_NE(error.find("weight 's'"), std::string::npos) << error;
  EXPECT_NE(error.find("[1,2]"), std::string::npos) << error;
}

TEST(RunGraphTest, InputErrorsNameTheInput) {
  Graph g = smallGraph();
  std::string missing = errorOf([&] { runGraph(g, {}); });
  EXPECT_NE(missing.find("input 'x'"), std::string::npos) << missing;
  TensorMap wrongShape{{"x", Tensor::fromFloats({4}, {1, 2, 3, 4})}};
  std::string shape = errorOf([&] { runGraph(g, wrongShape); });
  EXPECT_NE(shape.find("input 'x' expects f32[2,2], got f32[4]"), std::string::npos) << shape;
  TensorMap wrongType{{"x", Tensor::fromInts({DType::Int64, {2, 2}}, {1, 2, 3, 4})}};
  std::string type = errorOf([&] { runGraph(g, wrongType); });
  EXPECT_NE(type.find("input 'x'"), std::string::npos) << type;
  EXPECT_NE(type.find("i64[2,2]"), std::string::npos) << type;
}

TEST(RunGraphTest, OpaqueOpsFailOnlyWhenNeeded) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {3}});
  NodeId opaque = g.addOpaque({"com.example", "Mystery", {}}, {{x, 0}}, {{DType::Float32, {3}}}, "mystery1");
  NodeId relu = g.addNode(OpKind::Relu, {{x, 0}});
  g.addOutput({relu, 0}, "y");
  TensorMap inputs{{"x", Tensor::fromFloats({3}, {-1, 0, 1})}};
  EXPECT_EQ(valuesOf(runGraph(g, inputs)[0]), (std::vector<float>{0, 0, 1})); // the dead opaque node is skipped
  g.addOutput({opaque, 0}, "mystery");
  EXPECT_EQ(errorOf([&] { runGraph(g, inputs); }), "cannot execute opaque op mystery1 (com.example::Mystery)");
}

TEST(RunGraphTest, SplitPortsSplatWeightsAndRepeatedOutputs) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {1, 4}});
  NodeId ones = g.addWeight("ones", Tensor::splat({DType::Float32, {1, 4}}, 1.0));
  NodeId add = g.addNode(OpKind::Add, {{x, 0}, {ones, 0}});
  NodeId split = g.addNode(OpKind::Split, {{add, 0}}, {{"axis", int64_t{1}}, {"split", std::vector<int64_t>{1, 3}}});
  g.addOutput({split, 1}, "tail");
  g.addOutput({split, 0}, "head");
  g.addOutput({split, 1}, "tail again");
  g.addOutput({ones, 0}, "weight");
  std::vector<Tensor> out = runGraph(g, {{"x", Tensor::fromFloats({1, 4}, {1, 2, 3, 4})}});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(valuesOf(out[0]), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(valuesOf(out[1]), (std::vector<float>{2}));
  EXPECT_EQ(valuesOf(out[2]), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(valuesOf(out[3]), (std::vector<float>{1, 1, 1, 1}));
}

TEST(RunGraphTest, ZeroSizedTensorsFlowThroughEveryKindOfKernel) {
  Graph g;
  NodeId x = g.addInput("x", {DType::Float32, {0, 3, 5, 5}});
  NodeId w = g.addWeight("w", Tensor::zeros({DType::Float32, {4, 3, 3, 3}}));
  NodeId conv = g.addNode(OpKind::Conv, {{x, 0}, {w, 0}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  NodeId pool = g.addNode(OpKind::MaxPool, {{conv, 0}}, {{"kernel_shape", std::vector<int64_t>{2, 2}}});
  NodeId avg = g.addNode(OpKind::GlobalAveragePool, {{pool, 0}});
  NodeId soft = g.addNode(OpKind::Softmax, {{pool, 0}}, {{"axis", int64_t{1}}});
  NodeId norm = g.addNode(OpKind::LayerNorm, {{soft, 0}, {g.addWeight("s", Tensor::zeros({DType::Float32, {4}})), 0}});
  NodeId flat = g.addNode(OpKind::Flatten, {{norm, 0}});
  NodeId mm = g.addNode(OpKind::MatMul, {{flat, 0}, {g.addWeight("m", Tensor::zeros({DType::Float32, {64, 5}})), 0}});
  NodeId t = g.addNode(OpKind::Transpose, {{mm, 0}});
  NodeId padded = g.addNode(OpKind::Pad, {{t, 0}}, {{"pads", std::vector<int64_t>{1, 0, 1, 0}}, {"mode", std::string("edge")}});
  NodeId mean = g.addNode(OpKind::ReduceMean, {{padded, 0}}, {{"axes", std::vector<int64_t>{1}}});
  g.addOutput({avg, 0}, "avg");
  g.addOutput({padded, 0}, "padded");
  g.addOutput({mean, 0}, "mean");
  std::vector<Tensor> out = runGraph(g, dummyInputs(g));
  EXPECT_EQ(out[0].shape(), (Shape{0, 4, 1, 1}));
  EXPECT_EQ(out[1].shape(), (Shape{7, 0}));
  EXPECT_EQ(out[2].shape(), (Shape{7, 1}));
  EXPECT_TRUE(std::isnan(out[2].floatAt(0))) << "the mean of nothing is NaN, as in numpy";
}

TEST(EvaluateNodeTest, RejectsInputsThatDoNotFitTheNode) {
  Graph g;
  NodeId a = g.addInput("a", {DType::Float32, {2, 3}});
  NodeId b = g.addInput("b", {DType::Float32, {3, 4}});
  NodeId mm = g.addNode(OpKind::MatMul, {{a, 0}, {b, 0}});
  const Node& node = g.node(mm);
  Tensor left = Tensor::zeros({DType::Float32, {2, 3}});
  Tensor right = Tensor::zeros({DType::Float32, {3, 4}});
  Tensor wrong = Tensor::zeros({DType::Float32, {3, 5}});
  Tensor integers = Tensor::zeros({DType::Int64, {3, 4}});
  const Tensor* good[] = {&left, &right};
  EXPECT_EQ(evaluateNode(node, good).at(0).shape(), (Shape{2, 4}));
  const Tensor* mismatched[] = {&left, &wrong};
  EXPECT_NE(errorOf([&] { evaluateNode(node, mismatched); }).find("declares f32[2,4]"), std::string::npos);
  const Tensor* one[] = {&left};
  EXPECT_NE(errorOf([&] { evaluateNode(node, one); }).find("expects 2 inputs"), std::string::npos);
  const Tensor* ints[] = {&left, &integers};
  EXPECT_NE(errorOf([&] { evaluateNode(node, ints); }).find("MatMul computes on floats"), std::string::npos);
}

} // namespace
} // namespace tessera
