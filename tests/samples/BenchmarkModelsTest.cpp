// The nine benchmark models: op counts by kind derived from each architecture, input, output and
// intermediate shapes, parameter counts against torchvision's published totals, and properties
// every model must have (no opaque ops, unique stable names, splat weights, TENSAT-readable pads).
#include "generator/BenchmarkModels.h"

#include "ir/GraphHash.h"
#include "ir/GraphStats.h"
#include "rewrite/TensatVocabulary.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace tessera {
namespace {

using Counts = std::map<std::string, int>;

Counts opCounts(const Graph& g) { return computeGraphStats(g).opsByKind; }

std::vector<Shape> inputShapes(const Graph& g) {
  std::vector<Shape> shapes;
  for (NodeId id : g.inputNodes()) shapes.push_back(g.node(id).outputTypes[0].shape);
  return shapes;
}

Shape outputShape(const Graph& g) {
  EXPECT_EQ(g.outputs().size(), 1u);
  return g.typeOf(g.outputs().at(0).value).shape;
}

Shape shapeOfNode(const Graph& g, std::string_view name) {
  std::optional<NodeId> id = g.findNode(name);
  if (!id) ADD_FAILURE() << "no node named " << name;
  return id ? g.node(*id).outputTypes[0].shape : Shape{};
}

// Input channels per group of a conv node: its group count.
int64_t convGroups(const Graph& g, std::string_view name) {
  std::optional<NodeId> id = g.findNode(name);
  if (!id) ADD_FAILURE() << "no node named " << name;
  if (!id) return 0;
  const Node& conv = g.node(*id);
  return g.typeOf(conv.inputs[0]).shape[1] / g.typeOf(conv.inputs[1]).shape[1];
}

TEST(BenchmarkModels, RegistryListsTheNineModels) {
  EXPECT_EQ(benchmarkModelNames(), (std::vector<std::string>{"bert", "resnext50", "resnet50", "nasnet_a", "nasrnn",
                                                             "inception_v3", "squeezenet", "vgg19", "mobilenet_v2"}));
}

TEST(BenchmarkModels, UnknownNameThrowsNamingItAndTheKnownOnes) {
  try {
    buildBenchmarkModel("resnet51");
    FAIL() << "an unknown model must throw";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("resnet51"), std::string::npos) << message;
    EXPECT_NE(message.find("mobilenet_v2"), std::string::npos) << message;
  }
  EXPECT_THROW(buildBenchmarkModel(""), Error);
}

TEST(BenchmarkModels, WritingIntoAMissingDirectoryThrowsNamingIt) {
  try {
    writeBenchmarkModels("/nonexistent/tessera-samples");
    FAIL() << "a missing directory must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/tessera-samples"), std::string::npos) << e.what();
  }
}

TEST(Bert, EightAttentionLayersChainedThroughTheirOutputProjection) {
  Graph g = buildBenchmarkModel("bert");
  const int layers = 8;
  // Per layer: Q, K, V and output projections plus the two batched matmuls; a reshape and a
  // transpose for each of Q, K, V and one of each to merge the heads back. One ReLU on the input.
  EXPECT_EQ(opCounts(g), (Counts{{"MatMul", layers * (4 + 2)}, {"Reshape", layers * 4}, {"Transpose", layers * 4}, {"Relu", 1}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{16 * 64, 1024}}));
  EXPECT_EQ(g.node(g.inputNodes()[0]).name, "input");
  EXPECT_EQ(outputShape(g), (Shape{1024, 1024}));
  EXPECT_EQ(shapeOfNode(g, "layer0.query.reshape"), (Shape{16, 64, 16, 64}));
  EXPECT_EQ(shapeOfNode(g, "layer0.query.transpose"), (Shape{16, 16, 64, 64}));
  EXPECT_EQ(shapeOfNode(g, "layer0.logits"), (Shape{16, 16, 64, 64}));
  EXPECT_EQ(computeGraphStats(g).parameters, layers * 4 * 1024 * 1024);

  // The attention result is what the next layer reads (TASO's Python example drops it).
  for (int layer = 0; layer + 1 < layers; ++layer) {
    const Node& nextQuery = g.node(*g.findNode("layer" + std::to_string(layer + 1) + ".query"));
    const Node& producer = g.node(nextQuery.inputs[0].node);
    EXPECT_EQ(producer.name, "layer" + std::to_string(layer) + ".output");
    const Node& merged = g.node(producer.inputs[0].node);
    EXPECT_EQ(merged.name, "layer" + std::to_string(layer) + ".merge.reshape");
  }
  EXPECT_EQ(g.node(g.outputs()[0].value.node).name, "layer7.output");
}

// ResNet-style bottleneck stages: blocks {3,4,6,3}; the first block of each stage projects its
// shortcut (channels change in stage 1, stride 2 in the others).
constexpr int kBottleneckBlocks = 3 + 4 + 6 + 3;
constexpr int kProjections = 4;

TEST(ResNeXt50, StemAndSixteenGroupedBottlenecks) {
  Graph g = buildBenchmarkModel("resnext50");
  // Stem conv + 3 per block + projections; every conv but each block's third has its own ReLU,
  // and each block ends in add + relu (the projection's ReLU is TASO's).
  const int convs = 1 + 3 * kBottleneckBlocks + kProjections;
  const int relus = 1 + 2 * kBottleneckBlocks + kProjections + kBottleneckBlocks;
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", relus}, {"Add", kBottleneckBlocks}, {"MaxPool", 1}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 224, 224}}));
  EXPECT_EQ(outputShape(g), (Shape{1, 2048, 7, 7}));
  EXPECT_EQ(shapeOfNode(g, "stem.pool"), (Shape{1, 64, 56, 56}));
  EXPECT_EQ(shapeOfNode(g, "stage1.block2.relu"), (Shape{1, 256, 56, 56}));
  EXPECT_EQ(shapeOfNode(g, "stage2.block3.relu"), (Shape{1, 512, 28, 28}));
  EXPECT_EQ(shapeOfNode(g, "stage3.block5.relu"), (Shape{1, 1024, 14, 14}));
  EXPECT_EQ(convGroups(g, "stage1.block0.conv2"), 32);
  EXPECT_EQ(convGroups(g, "stage4.block2.conv2"), 32);
  EXPECT_EQ(convGroups(g, "stage4.block2.conv1"), 1);
  EXPECT_TRUE(g.findNode("stage2.block0.shortcut"));
  EXPECT_FALSE(g.findNode("stage2.block1.shortcut"));
  // torchvision's resnext50_32x4d: 25,028,904 = 22,911,680 conv weights + 2 x 34,112 batch-norm
  // channels + the 2048 x 1000 + 1000 classifier.
  EXPECT_EQ(computeGraphStats(g).parameters, 22911680);
}

TEST(ResNet50, SixteenBottlenecksWithoutTheStem) {
  Graph g = buildBenchmarkModel("resnet50");
  const int convs = 3 * kBottleneckBlocks + kProjections; // 52: TASO's graph has no stem conv
  const int relus = 2 * kBottleneckBlocks + kProjections + kBottleneckBlocks;
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", relus}, {"Add", kBottleneckBlocks}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 64, 56, 56}}));
  EXPECT_EQ(outputShape(g), (Shape{1, 2048, 7, 7}));
  EXPECT_EQ(shapeOfNode(g, "stage1.block0.shortcut"), (Shape{1, 256, 56, 56}));
  EXPECT_EQ(shapeOfNode(g, "stage3.block0.conv2"), (Shape{1, 256, 14, 14}));
  // torchvision's resnet50: 25,557,032 = 23,454,912 conv weights (9,408 of them the stem's)
  // + 2 x 26,560 batch-norm channels + the 2,049,000 classifier.
  EXPECT_EQ(computeGraphStats(g).parameters, 23454912 - 9408);
}

TEST(NasNetA, ThreeStagesOfFiveNormalCellsAndAReductionCell) {
  Graph g = buildBenchmarkModel("nasnet_a");
  const int normalCells = 3 * 5;
  const int reductionCells = 3;
  // Each cell: squeeze and fit convs (each + relu), five separable convs (two convs each) and
  // five adds into one concat. Normal cells pool avg 3x; reduction cells max 2x, avg 2x.
  const int cells = normalCells + reductionCells;
  const int convs = 1 + cells * (2 + 5 * 2);
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs},
                                 {"Relu", 1 + cells * 2},
                                 {"MaxPool", 1 + reductionCells * 2},
                                 {"AveragePool", normalCells * 3 + reductionCells * 2},
                                 {"Add", cells * 5},
                                 {"Concat", cells}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 224, 224}}));
  // Normal cells concat 5 x 128/256/512 channels; reductions 5 x 256/512/1024 at half the size.
  EXPECT_EQ(shapeOfNode(g, "stage1.normal4.concat"), (Shape{1, 5 * 128, 56, 56}));
  EXPECT_EQ(shapeOfNode(g, "stage1.reduction.concat"), (Shape{1, 5 * 256, 28, 28}));
  EXPECT_EQ(shapeOfNode(g, "stage2.normal0.concat"), (Shape{1, 5 * 256, 28, 28}));
  EXPECT_EQ(shapeOfNode(g, "stage3.normal4.concat"), (Shape{1, 5 * 512, 14, 14}));
  EXPECT_EQ(outputShape(g), (Shape{1, 5 * 1024, 7, 7}));
  // Separable convs: a depthwise conv (groups = channels) then a pointwise one.
  EXPECT_EQ(convGroups(g, "stage1.normal0.sep0.depthwise"), 128);
  EXPECT_EQ(convGroups(g, "stage3.reduction.sep0.depthwise"), 1024);
  EXPECT_EQ(convGroups(g, "stage1.normal0.sep0.pointwise"), 1);
  // Kernels 7x7/2 and 5x5/2 in reduction cells.
  const Node& sep7 = g.node(*g.findNode("stage2.reduction.sep0.depthwise"));
  EXPECT_EQ(g.typeOf(sep7.inputs[1]).shape, (Shape{512, 1, 7, 7}));
  EXPECT_EQ(sep7.outputTypes[0].shape, (Shape{1, 512, 14, 14}));
}

TEST(NasRnn, FiveStepsOfTheNasCell) {
  Graph g = buildBenchmarkModel("nasrnn");
  const int steps = 5;
  // TASO's cell: eight x*W1 + h*W2 combinations, then seven binary nodes
  // {op, activation of left, activation of right} and a final tanh.
  struct Mid {
    const char* op;
    const char* left;
    const char* right;
  };
  const Mid tree[] = {{"Add", "Relu", "Sigmoid"}, {"Add", "Sigmoid", "Tanh"}, {"Mul", "Sigmoid", "Tanh"},
                      {"Mul", "Sigmoid", "Relu"}, {"Add", "Sigmoid", "Tanh"}, {"Mul", "Tanh", "Tanh"},
                      {"Mul", "Tanh", "Tanh"}};
  Counts perStep{{"MatMul", 8 * 2}, {"Add", 8}, {"Tanh", 1}};
  for (const Mid& m : tree) {
    ++perStep[m.op];
    ++perStep[m.left];
    ++perStep[m.right];
  }
  Counts expected;
  for (const auto& [kind, count] : perStep) expected[kind] = steps * count;
  EXPECT_EQ(opCounts(g), expected);
  EXPECT_EQ(inputShapes(g), std::vector<Shape>(steps, Shape{1, 512}));
  for (int step = 0; step < steps; ++step) EXPECT_EQ(g.node(g.inputNodes()[step]).name, "input_" + std::to_string(step));
  EXPECT_EQ(outputShape(g), (Shape{1, 512}));
  EXPECT_EQ(computeGraphStats(g).parameters, steps * 16 * 512 * 512 + 512);
  // Each step's state feeds the next step's h*W2 products.
  const Node& next = g.node(*g.findNode("step1.combine0.state"));
  EXPECT_EQ(g.node(next.inputs[0].node).name, "step0.state");
}

TEST(InceptionV3, BlocksAThreeTimesBCFourTimesDEE) {
  Graph g = buildBenchmarkModel("inception_v3");
  struct BlockKind {
    int count, convs, avgPools, maxPools;
  };
  const BlockKind blocks[] = {
      {1, 5, 0, 2}, // stem
      {3, 7, 1, 0}, // A: 1x1 | 1x1,5x5 | 1x1,3x3,3x3 | avgpool,1x1
      {1, 4, 0, 1}, // B: 3x3/2 | 1x1,3x3,3x3/2 | maxpool
      {4, 10, 1, 0}, // C: 1x1 | 1x1,1x7,7x1 | 1x1,7x1,1x7,7x1,1x7 | avgpool,1x1
      {1, 6, 0, 1}, // D: 1x1,3x3/2 | 1x1,1x7,7x1,3x3/2 | maxpool
      {2, 9, 1, 0}, // E: 1x1 | 1x1,(1x3,3x1) | 1x1,3x3,(1x3,3x1) | avgpool,1x1
  };
  int convs = 0, avgPools = 1 /* the global pool */, maxPools = 0, concats = 0;
  for (const BlockKind& k : blocks) {
    convs += k.count * k.convs;
    avgPools += k.count * k.avgPools;
    maxPools += k.count * k.maxPools;
  }
  concats = 3 + 1 + 4 + 1 + 2;
  EXPECT_EQ(convs, 94);
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", convs}, {"AveragePool", avgPools}, {"MaxPool", maxPools}, {"Concat", concats}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 299, 299}}));
  // torchvision's documented sizes after each stage.
  EXPECT_EQ(shapeOfNode(g, "stem.conv1.relu"), (Shape{1, 32, 149, 149}));
  EXPECT_EQ(shapeOfNode(g, "stem.pool1"), (Shape{1, 64, 73, 73}));
  EXPECT_EQ(shapeOfNode(g, "stem.pool2"), (Shape{1, 192, 35, 35}));
  EXPECT_EQ(shapeOfNode(g, "mixed_5b.concat"), (Shape{1, 256, 35, 35}));
  EXPECT_EQ(shapeOfNode(g, "mixed_5d.concat"), (Shape{1, 288, 35, 35}));
  EXPECT_EQ(shapeOfNode(g, "mixed_6a.concat"), (Shape{1, 768, 17, 17}));
  EXPECT_EQ(shapeOfNode(g, "mixed_6e.concat"), (Shape{1, 768, 17, 17}));
  EXPECT_EQ(shapeOfNode(g, "mixed_7a.concat"), (Shape{1, 1280, 8, 8}));
  EXPECT_EQ(shapeOfNode(g, "mixed_7c.concat"), (Shape{1, 2048, 8, 8}));
  EXPECT_EQ(outputShape(g), (Shape{1, 2048, 1, 1}));
  // torchvision's inception_v3 has 27,161,264 parameters: these conv weights, 2 x 17,216
  // batch-norm channels of the 94 convs, the aux head (conv weights 98,304 + 2,457,600, batch norm
  // 2 x 896, classifier 769,000) and the 2,049,000 classifier.
  EXPECT_EQ(computeGraphStats(g).parameters, 27161264 - 2 * 17216 - 98304 - 2457600 - 2 * 896 - 769000 - 2049000);
}

TEST(SqueezeNet, EightFireModules) {
  Graph g = buildBenchmarkModel("squeezenet");
  const int fires = 8;
  const int convs = 1 + 3 * fires + 1; // stem, squeeze/expand1x1/expand3x3 per fire, classifier
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", convs}, {"Concat", fires}, {"MaxPool", 3}, {"Dropout", 1},
                                 {"AveragePool", 1}, {"Reshape", 1}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 224, 224}}));
  EXPECT_EQ(shapeOfNode(g, "features.conv"), (Shape{1, 64, 111, 111}));
  EXPECT_EQ(shapeOfNode(g, "features.pool1"), (Shape{1, 64, 55, 55}));
  EXPECT_EQ(shapeOfNode(g, "features.fire2.concat"), (Shape{1, 128, 55, 55}));
  EXPECT_EQ(shapeOfNode(g, "features.pool3"), (Shape{1, 256, 13, 13}));
  EXPECT_EQ(shapeOfNode(g, "features.fire8.concat"), (Shape{1, 512, 13, 13}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
  // torchvision's squeezenet1_1: 1,235,496 parameters, 3,944 of them conv biases.
  EXPECT_EQ(computeGraphStats(g).parameters, 1235496 - 3944);
}

TEST(Vgg19, SixteenConvsFivePoolsThreeLinears) {
  Graph g = buildBenchmarkModel("vgg19");
  const int convs = 2 + 2 + 4 + 4 + 4;
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", convs + 2}, {"MaxPool", 5}, {"Reshape", 1}, {"MatMul", 3}, {"Dropout", 2}}));
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 224, 224}}));
  EXPECT_EQ(shapeOfNode(g, "features.stage5.pool"), (Shape{1, 512, 7, 7}));
  EXPECT_EQ(shapeOfNode(g, "classifier.fc1"), (Shape{1, 4096}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
  // torchvision's vgg19: 143,667,240 parameters, 5,504 conv and 9,192 linear biases among them.
  EXPECT_EQ(computeGraphStats(g).parameters, 143667240 - 5504 - 9192);
}

TEST(MobileNetV2, SeventeenInvertedResiduals) {
  Graph g = buildBenchmarkModel("mobilenet_v2");
  struct Stage {
    int expansion, repeats;
  };
  const Stage stages[] = {{1, 1}, {6, 2}, {6, 3}, {6, 4}, {6, 3}, {6, 3}, {6, 1}};
  int convs = 2, relus = 2, adds = 0; // the stem and the 1280-channel head, each with a ReLU
  for (const Stage& s : stages) {
    int expandConvs = s.expansion == 1 ? 0 : s.repeats;
    convs += expandConvs + 2 * s.repeats; // expand, depthwise, project
    relus += expandConvs + s.repeats;     // the projection is linear
    adds += s.repeats - 1;                // the first block of each stage changes channels or size
  }
  EXPECT_EQ(opCounts(g), (Counts{{"Conv", convs}, {"Relu", relus}, {"Add", adds}, {"AveragePool", 1}, {"Reshape", 1},
                                 {"Dropout", 1}, {"MatMul", 1}}));
  EXPECT_EQ(convs, 52);
  EXPECT_EQ(adds, 10);
  EXPECT_EQ(inputShapes(g), (std::vector<Shape>{{1, 3, 224, 224}}));
  EXPECT_EQ(shapeOfNode(g, "features.stem"), (Shape{1, 32, 112, 112}));
  EXPECT_EQ(shapeOfNode(g, "features.block1.depthwise"), (Shape{1, 96, 56, 56}));
  EXPECT_EQ(convGroups(g, "features.block1.depthwise"), 96);
  EXPECT_EQ(shapeOfNode(g, "features.block16.project"), (Shape{1, 320, 7, 7}));
  EXPECT_EQ(shapeOfNode(g, "features.head"), (Shape{1, 1280, 7, 7}));
  EXPECT_EQ(outputShape(g), (Shape{1, 1000}));
  // torchvision's mobilenet_v2: 3,504,872 parameters = 2,189,760 conv weights + 2 x 17,056
  // batch-norm channels + the 1280 x 1000 + 1000 classifier.
  EXPECT_EQ(computeGraphStats(g).parameters, 2189760 + 1280 * 1000);
}

class EveryBenchmarkModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryBenchmarkModel, IsAWellFormedGraphOfKnownOps) {
  Graph g = buildBenchmarkModel(GetParam());
  EXPECT_EQ(g.info.name, GetParam());
  EXPECT_FALSE(g.hasCycle());
  GraphStats stats = computeGraphStats(g);
  EXPECT_TRUE(stats.opaqueOps.empty());
  EXPECT_EQ(stats.opsByKind.count("Opaque"), 0u);
  // Nothing dead: every node feeds the output.
  EXPECT_EQ(g.compacted().size(), g.size());
  for (NodeId id : g.inputNodes()) EXPECT_EQ(g.node(id).outputTypes[0].dtype, DType::Float32);
  EXPECT_EQ(g.outputs().at(0).name, "output");
}

TEST_P(EveryBenchmarkModel, NamesAreUniqueAndStable) {
  Graph g = buildBenchmarkModel(GetParam());
  std::set<std::string> names;
  for (const Node& n : g.nodes()) EXPECT_TRUE(names.insert(n.name).second) << "duplicate name " << n.name;
  // Building twice gives the same graph, node for node.
  Graph again = buildBenchmarkModel(GetParam());
  ASSERT_EQ(again.size(), g.size());
  for (NodeId id = 0; id < g.size(); ++id) {
    EXPECT_EQ(again.node(id).name, g.node(id).name);
    EXPECT_EQ(again.node(id).attrs, g.node(id).attrs);
  }
  EXPECT_TRUE(structurallyEqual(g, again));
}

TEST_P(EveryBenchmarkModel, WeightsAreFinitePositiveSplats) {
  Graph g = buildBenchmarkModel(GetParam());
  for (NodeId id : g.weightNodes()) {
    const Node& w = g.node(id);
    ASSERT_TRUE(w.weight) << w.name;
    EXPECT_TRUE(w.weight->isSplat()) << w.name;
    EXPECT_EQ(w.weight->dtype(), DType::Float32) << w.name;
    float value = w.weight->floatAt(0);
    EXPECT_TRUE(std::isfinite(value) && value > 0.0f) << w.name << " = " << value;
  }
}

// Every conv pads as TASO's SAME or VALID and has no fused activation, so TENSAT's rules can read
// it as `(conv2d sh sw pad 0 ?x ?w)` and fusion rules find a separate ReLU to fuse.
TEST_P(EveryBenchmarkModel, ConvsAreTensatConvs) {
  Graph g = buildBenchmarkModel(GetParam());
  for (const Node& n : g.nodes()) {
    if (n.kind != OpKind::Conv) continue;
    EXPECT_FALSE(n.attrs.has("activation")) << n.name;
    EXPECT_FALSE(n.attrs.has("dilations")) << n.name;
    EXPECT_EQ(n.inputs.size(), 2u) << n.name << " has a bias";
    std::vector<int64_t> strides = n.attrs.getInts("strides", {1, 1});
    const Shape& x = g.typeOf(n.inputs[0]).shape;
    const Shape& w = g.typeOf(n.inputs[1]).shape;
    std::vector<int64_t> pads = n.attrs.getInts("pads", {0, 0, 0, 0});
    bool same = pads == tensatConvPads(0, x, w, strides[0], strides[1]);
    bool valid = pads == tensatConvPads(1, x, w, strides[0], strides[1]);
    EXPECT_TRUE(same || valid) << n.name << " pads neither SAME nor VALID";
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, EveryBenchmarkModel, ::testing::ValuesIn(benchmarkModelNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

} // namespace
} // namespace tessera
