// The "light" model-zoo networks in ../shared/models: import gives the expected ops and shapes
// with no opaque ops, export(import(m)) re-imports to the same graph, and squeezenet (whose
// opset-9 Softmax needs the Flatten -> Softmax -> Reshape form) reproduces its expected output.
#include "ModelBuilder.h"

#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "ir/GraphHash.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

using namespace tessera;
using namespace tessera::test;

namespace {

const std::string kModels = std::string(TESSERA_SHARED_DIR) + "/models/";

struct LightModel {
  std::string name;
  std::string input;
  std::string output;
  Shape outputShape;
  std::map<OpKind, size_t> ops;
  size_t splatWeights; // the ConstantOfShape nodes of the file
  size_t denseWeights; // its float initializers
};

const std::vector<LightModel> kLightModels = {
    {"light_inception_v1", "data_0", "prob_1", {1, 1000},
     {{OpKind::Conv, 57}, {OpKind::Relu, 57}, {OpKind::MaxPool, 13}, {OpKind::Concat, 9}, {OpKind::LRN, 2}, {OpKind::AveragePool, 1},
      {OpKind::Dropout, 1}, {OpKind::Gemm, 1}, {OpKind::Reshape, 2}, {OpKind::Softmax, 1}},
     93, 23},
    {"light_resnet50", "gpu_0/data_0", "gpu_0/softmax_1", {1, 1000},
     {{OpKind::Conv, 53}, {OpKind::BatchNorm, 53}, {OpKind::Relu, 49}, {OpKind::Sum, 16}, {OpKind::MaxPool, 1}, {OpKind::AveragePool, 1},
      {OpKind::Gemm, 1}, {OpKind::Reshape, 1}, {OpKind::Softmax, 1}},
     239, 28}, // one float initializer is never read: it does not become a weight
    // Softmax over axis 1 of [1,1000,1,1] at opset 9 coerces to 2-D: Flatten -> Softmax -> Reshape.
    {"light_squeezenet", "data_0", "softmaxout_1", {1, 1000, 1, 1},
     {{OpKind::Conv, 26}, {OpKind::Relu, 26}, {OpKind::Concat, 8}, {OpKind::MaxPool, 3}, {OpKind::Dropout, 1},
      {OpKind::GlobalAveragePool, 1}, {OpKind::Flatten, 1}, {OpKind::Softmax, 1}, {OpKind::Reshape, 1}},
     39, 13},
    {"light_vgg19", "data_0", "prob_1", {1, 1000},
     {{OpKind::Conv, 16}, {OpKind::Relu, 18}, {OpKind::MaxPool, 5}, {OpKind::Gemm, 3}, {OpKind::Dropout, 2}, {OpKind::Reshape, 1},
      {OpKind::Softmax, 1}},
     36, 2},
};

class LightModelTest : public testing::TestWithParam<LightModel> {};

std::set<std::string> weightNames(const Graph& graph) {
  std::set<std::string> names;
  for (NodeId id : graph.weightNodes()) names.insert(graph.node(id).name);
  return names;
}

} // namespace

TEST_P(LightModelTest, ImportsTheExpectedOpsAndShapes) {
  const LightModel& m = GetParam();
  Graph graph = onnx_io::importOnnxFile(kModels + m.name + ".onnx");

  std::map<OpKind, size_t> ops;
  size_t total = 0;
  for (const Node& node : graph.nodes()) {
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    ++ops[node.kind];
    ++total;
  }
  EXPECT_EQ(ops, m.ops);
  EXPECT_EQ(graph.opCount(), total);
  EXPECT_EQ(countKind(graph, OpKind::Opaque), 0u);

  ASSERT_EQ(graph.inputNodes().size(), 1u);
  const Node& input = graph.node(graph.inputNodes()[0]);
  EXPECT_EQ(input.name, m.input);
  EXPECT_EQ(input.outputTypes[0], (TensorType{DType::Float32, {1, 3, 224, 224}}));
  ASSERT_EQ(graph.outputs().size(), 1u);
  EXPECT_EQ(graph.outputs()[0].name, m.output);
  EXPECT_EQ(graph.typeOf(graph.outputs()[0].value), (TensorType{DType::Float32, m.outputShape}));

  size_t splats = 0, dense = 0;
  for (NodeId id : graph.weightNodes()) {
    const Tensor& w = *graph.node(id).weight;
    EXPECT_EQ(w.dtype(), DType::Float32) << graph.node(id).name;
    (w.isSplat() ? splats : dense)++;
  }
  EXPECT_EQ(splats, m.splatWeights);
  EXPECT_EQ(dense, m.denseWeights);
  EXPECT_EQ(graph.info.opset, 9);
  EXPECT_FALSE(graph.hasCycle());
}

TEST_P(LightModelTest, ReimportOfExportIsStructurallyEqual) {
  const LightModel& m = GetParam();
  Graph original = onnx_io::importOnnxFile(kModels + m.name + ".onnx");
  std::string bytes = onnx_io::exportOnnxBytes(original); // checked by onnx::checker inside
  Graph again = onnx_io::importOnnxBytes(bytes, m.name + "-exported.onnx");

  EXPECT_TRUE(structurallyEqual(original, again));
  EXPECT_EQ(structuralHash(original), structuralHash(again));
  EXPECT_EQ(weightNames(original), weightNames(again));
  EXPECT_EQ(again.outputs()[0].name, m.output);
  EXPECT_EQ(again.node(again.inputNodes()[0]).name, m.input);
  EXPECT_EQ(again.info.opset, 17);
  // Splat weights stay splats (ConstantOfShape), so the exported model stays small.
  EXPECT_LT(bytes.size(), 2 * readFile(kModels + m.name + ".onnx").size());
  // And once more: export is deterministic and a fixed point after the first round.
  EXPECT_TRUE(onnx_io::exportOnnxBytes(again) == bytes);
}

INSTANTIATE_TEST_SUITE_P(Zoo, LightModelTest, testing::ValuesIn(kLightModels), [](const auto& info) { return info.param.name; });

// Ground truth for the opset-9 Softmax coercion and the rest of the import: the model zoo's own
// expected output for the backend tests' dummy input.
TEST(LightModels, SqueezenetReproducesItsExpectedOutput) {
  Graph graph = onnx_io::importOnnxFile(kModels + "light_squeezenet.onnx");
  std::vector<Tensor> outputs = runGraph(graph, dummyInputs(graph));
  Tensor expected = onnx_io::readTensorProtoFile(kModels + "light_squeezenet_output_0.pb");
  ASSERT_EQ(outputs.size(), 1u);
  ASSERT_EQ(outputs[0].shape(), expected.shape());
  double sum = 0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    EXPECT_NEAR(outputs[0].valueAt(i), expected.valueAt(i), 1e-6 + 1e-3 * std::abs(expected.valueAt(i))) << "element " << i;
    sum += outputs[0].valueAt(i);
  }
  EXPECT_NEAR(sum, 1.0, 1e-4); // a softmax over all 1000 classes, not over 1-element rows
}
