// The executor check: outputs that agree with the interpreter pass, one wrong element, a wrong
// shape or a NaN fails and is named, and the weights checked are random, not the graph's splats.
#include "cost/ExecutorCheck.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// y = relu(x · w), w a splat (as the samples hold them).
Graph matmulRelu() {
  Graph g;
  const NodeId x = g.addInput("x", f32({2, 4}));
  const NodeId w = g.addWeight("w", Tensor::splat(f32({4, 3}), 0.5));
  const NodeId product = g.addNode(OpKind::MatMul, {{x}, {w}});
  g.addOutput({g.addNode(OpKind::Relu, {{product}})}, "y");
  return g;
}

// The interpreter's answer, then `tamper` with it: an executor the test makes right or wrong.
class TamperingExecutor final : public GraphExecutor {
public:
  explicit TamperingExecutor(std::function<void(std::vector<Tensor>&)> tamper) : tamper_(std::move(tamper)) {}
  std::string device() const override { return "tampering"; }
  std::vector<Tensor> run(const Graph& graph, const TensorMap& inputs) override {
    std::vector<float> weight(graph.node(*graph.findNode("w")).weight->values<float>().begin(),
                              graph.node(*graph.findNode("w")).weight->values<float>().end());
    weightsSeen.push_back(weight);
    std::vector<Tensor> outputs = runGraph(graph, inputs);
    tamper_(outputs);
    return outputs;
  }
  double measureLatencyMs(const Graph&, int, int) override { return 1; }

  std::vector<std::vector<float>> weightsSeen;

private:
  std::function<void(std::vector<Tensor>&)> tamper_;
};

TEST(ExecutorCheck, AgreeingOutputsPassAndTheWeightsAreRandom) {
  TamperingExecutor executor([](std::vector<Tensor>&) {});
  const OutputAgreement agreement = checkExecutor(executor, matmulRelu(), 3);
  EXPECT_TRUE(agreement.matches()) << agreement.worst;
  ASSERT_EQ(executor.weightsSeen.size(), 1u);
  int splats = 0;
  for (float v : executor.weightsSeen[0]) splats += v == 0.5f;
  EXPECT_LT(splats, 12); // not the file's splat
}

TEST(ExecutorCheck, AWrongElementIsFoundAndNamed) {
  TamperingExecutor executor([](std::vector<Tensor>& outputs) {
    auto values = outputs[0].mutableValues<float>();
    values[4] += 0.01f + 0.01f * std::fabs(values[4]);
  });
  const OutputAgreement agreement = checkExecutor(executor, matmulRelu(), 3);
  EXPECT_EQ(agreement.mismatches, 1);
  EXPECT_NE(agreement.worst.find("output 0 element 4"), std::string::npos) << agreement.worst;
}

TEST(ExecutorCheck, RoundingNoiseIsNotAMismatchButANanIs) {
  TamperingExecutor rounding([](std::vector<Tensor>& outputs) {
    for (float& v : outputs[0].mutableValues<float>()) v *= 1 + 1e-5f;
  });
  EXPECT_TRUE(checkExecutor(rounding, matmulRelu(), 3).matches());

  TamperingExecutor nan([](std::vector<Tensor>& outputs) { outputs[0].mutableValues<float>()[0] = NAN; });
  EXPECT_EQ(checkExecutor(nan, matmulRelu(), 3).mismatches, 1);
}

TEST(ExecutorCheck, AnotherShapeOrOutputCountIsAMismatch) {
  TamperingExecutor shape([](std::vector<Tensor>& outputs) { outputs[0] = Tensor::zeros(f32({3, 2})); });
  const OutputAgreement wrongShape = checkExecutor(shape, matmulRelu(), 3);
  EXPECT_FALSE(wrongShape.matches());
  EXPECT_NE(wrongShape.worst.find("type or shape"), std::string::npos) << wrongShape.worst;

  TamperingExecutor extra([](std::vector<Tensor>& outputs) { outputs.push_back(outputs[0]); });
  EXPECT_FALSE(checkExecutor(extra, matmulRelu(), 3).matches());
}

// An integer output (token ids passed through, an argmax) is compared by value like a float one.
TEST(ExecutorCheck, IntegerOutputsAreComparedByValue) {
  const Tensor ids = Tensor::fromInts({DType::Int64, {3}}, {4, 0, 9});
  EXPECT_TRUE(compareOutputs({ids}, {ids}).matches());
  const OutputAgreement wrong = compareOutputs({Tensor::fromInts({DType::Int64, {3}}, {4, 1, 9})}, {ids});
  EXPECT_EQ(wrong.mismatches, 1);
  EXPECT_NE(wrong.worst.find("output 0 element 1: 1 vs 0"), std::string::npos) << wrong.worst;
}

} // namespace
