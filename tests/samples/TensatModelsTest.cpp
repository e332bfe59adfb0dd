// The suite as TENSAT builds it (samples/tensat/): op counts and shapes of its BERT and of the
// four TASO-serialised models it reads, the four builders it shares with the corrected suite, and
// the reader of TASO's format refusing malformed text with the model and line named.
#include "generator/BenchmarkModels.h"
#include "generator/tensat/TasoModelFile.h"
#include "generator/tensat/TensatModels.h"

#include "ir/GraphHash.h"
#include "ir/GraphStats.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <map>

namespace tessera {
namespace {

using Counts = std::map<std::string, int>;

Counts opCounts(const Graph& g) { return computeGraphStats(g).opsByKind; }

Graph tensat(std::string_view name) { return buildBenchmarkModel(name, BenchmarkSuite::Tensat); }

Shape inputShape(const Graph& g) {
  EXPECT_EQ(g.inputNodes().size(), 1u);
  return g.node(g.inputNodes().at(0)).outputTypes[0].shape;
}

Shape outputShape(const Graph& g) {
  EXPECT_EQ(g.outputs().size(), 1u);
  return g.typeOf(g.outputs().at(0).value).shape;
}

const Node& producerOf(const Graph& g, ValueRef value) { return g.node(value.node); }

TEST(TensatSuite, SuiteNamesParseAndUnknownOnesAreRefused) {
  EXPECT_EQ(parseBenchmarkSuite("tensat"), BenchmarkSuite::Tensat);
  EXPECT_EQ(parseBenchmarkSuite("corrected"), BenchmarkSuite::Corrected);
  EXPECT_EQ(benchmarkSuiteName(BenchmarkSuite::Tensat), "tensat");
  try {
    parseBenchmarkSuite("taso");
    FAIL() << "an unknown suite must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'taso'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tensat"), std::string::npos) << e.what();
  }
}

TEST(TensatBert, EightLayersChainedThroughALinearOfTheirInputWithAttentionKeptAsOutputs) {
  Graph g = tensat("bert");
  const int layers = 8;
  // Per layer: Q, K, V, the two batched matmuls and the linear; 4 reshapes and 4 transposes.
  EXPECT_EQ(opCounts(g), (Counts{{"MatMul", layers * 6}, {"Reshape", layers * 4}, {"Transpose", layers * 4}, {"Relu", 1}}));
  ASSERT_EQ(g.inputNodes().size(), 1u);
  EXPECT_EQ(g.node(g.inputNodes()[0]).outputTypes[0].shape, (Shape{64, 1024}));
  EXPECT_EQ(g.typeOf(ValueRef{*g.findNode("layer0.query.transpose"), 0}).shape, (Shape{16, 64, 64}));
  EXPECT_EQ(g.typeOf(ValueRef{*g.findNode("layer0.logits"), 0}).shape, (Shape{16, 64, 64}));
  EXPECT_EQ(computeGraphStats(g).parameters, layers * 4 * 1024 * 1024);

  // Each layer's Q, K, V and linear read the same input: the previous layer's linear.
  for (int layer = 1; layer < layers; ++layer) {
    std::string prefix = "layer" + std::to_string(layer);
    for (const char* reader : {".query", ".key", ".value", ".linear"}) {
      const Node& node = g.node(*g.findNode(prefix + reader));
      EXPECT_EQ(producerOf(g, node.inputs[0]).name, "layer" + std::to_string(layer - 1) + ".linear") << prefix << reader;
    }
  }
  // TENSAT's noop root: the 8 attention results, then the last linear.
  ASSERT_EQ(g.outputs().size(), 9u);
  for (int layer = 0; layer < layers; ++layer)
    EXPECT_EQ(producerOf(g, g.outputs()[layer].value).name, "layer" + std::to_string(layer) + ".merge.reshape");
  EXPECT_EQ(producerOf(g, g.outputs()[8].value).name, "layer7.linear");
}

TEST(TensatTasoModels, Vgg19HasTransposedClassifierWeightsAndNoBiases) {
  Graph g = tensat("vgg19");
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", 16}, {"Relu", 18}, {"MaxPool", 5}, {"Reshape", 3}, {"Transpose", 3},
                                 {"MatMul", 3}, {"Dropout", 2}}));
  EXPECT_EQ(inputShape(g), (Shape{1, 3, 224, 224}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
  EXPECT_EQ(producerOf(g, g.outputs()[0].value).kind, OpKind::MatMul);
}

TEST(TensatTasoModels, SqueezeNetHasEightFireModules) {
  Graph g = tensat("squeezenet");
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", 26}, {"Relu", 26}, {"Concat", 8}, {"MaxPool", 3}, {"AveragePool", 1},
                                 {"Dropout", 1}, {"Reshape", 1}}));
  EXPECT_EQ(inputShape(g), (Shape{1, 3, 224, 224}));
  EXPECT_EQ(g.typeOf(ValueRef{*g.findNode("conv154"), 0}).shape, (Shape{1, 64, 111, 111}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
}

TEST(TensatTasoModels, InceptionV3FusesAReluIntoEveryConvAndDropsThePoolActivations) {
  Graph g = tensat("inception_v3");
  // 94 convs with TASO's fused ReLU, spelled as a Relu after each; the pools' fused ReLUs are
  // dropped by TENSAT's reader, as here; concats of 2 to 4 inputs build the blocks' outputs.
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", 94}, {"Relu", 94}, {"Concat", 30}, {"AveragePool", 9}, {"MaxPool", 5}}));
  EXPECT_EQ(inputShape(g), (Shape{1, 3, 299, 299}));
  EXPECT_EQ(outputShape(g), (Shape{1, 2048, 1, 1}));
}

TEST(TensatTasoModels, MobileNetV2HasBatchNormsAndDepthwiseConvs) {
  Graph g = tensat("mobilenet_v2");
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", 54}, {"BatchNorm", 53}, {"Relu", 36}, {"Add", 10}, {"AveragePool", 1},
                                 {"Reshape", 1}}));
  EXPECT_EQ(inputShape(g), (Shape{1, 3, 224, 224}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
  const Node& depthwise = g.node(*g.findNode("conv374"));
  EXPECT_EQ(g.typeOf(depthwise.inputs[1]).shape, (Shape{32, 1, 3, 3}));
}

TEST(TensatSuite, ResNeXtResNetNasNetAndNasRnnAreTheCorrectedSuitesGraphs) {
  for (const char* name : {"resnext50", "resnet50", "nasnet_a", "nasrnn"}) {
    Graph ours = buildBenchmarkModel(name, BenchmarkSuite::Corrected);
    EXPECT_TRUE(structurallyEqual(tensat(name), ours)) << name;
  }
  EXPECT_FALSE(structurallyEqual(tensat("bert"), buildBenchmarkModel("bert", BenchmarkSuite::Corrected)));
}

// The error names the model and the line, and says what is wrong.
void expectRefused(std::string_view text, const std::string& expected) {
  try {
    samples::readTasoModel("broken", text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("'broken'"), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(TasoModelFile, MalformedTextIsRefusedNamingTheModelAndLine) {
  const std::string input = "100\n0\n10:0\n1,4\n";
  expectRefused("", "no ops");
  expectRefused("100\n0\n10:0\n", "four lines");
  expectRefused("10x\n0\n10:0\n1,4\n", "line 1: '10x' is not a number");
  expectRefused(input + "101\n8\n99:0\n1,4\n", "line 5: input 99 is not defined");
  expectRefused(input + "101\n8\n100:1\n1,4\n", "only output 0");
  expectRefused(input + "101\n9\n100:0\n0\n", "op type 9 is not one TENSAT's reader reads");
  expectRefused(input + "100\n8\n100:0\n1,4\n", "guid 100 appears twice");
  expectRefused(input + "101\n15\n100:0\n2,1,7,1\n", "permutation names axis 7");
}

TEST(TasoModelFile, ReadsAChainRootedAtTheLastOp) {
  Graph g = samples::readTasoModel("tiny", "100\n0\n10:0\n1,4\n101\n1\n11:0\n4,4\n102\n18\n100:0,101:0\n0,2\n"
                                           "103\n8\n102:0\n1,4\n");
  EXPECT_EQ(opCounts(g), (Counts{{"MatMul", 1}, {"Relu", 1}}));
  EXPECT_EQ(producerOf(g, g.outputs().at(0).value).name, "relu103");
  ASSERT_EQ(g.weightNodes().size(), 1u);
  EXPECT_EQ(g.node(g.weightNodes()[0]).name, "w101");
}

} // namespace
} // namespace tessera
