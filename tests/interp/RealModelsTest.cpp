// The ONNX model-zoo networks in shared/models: imported and run on the backend tests' dummy input
// (arange(n)/n), each must reproduce its expected output_0.pb within rtol 1e-3, atol 1e-7.
#include "interp/Interpreter.h"
#include "interp/TestData.h"
#include "interp/Verify.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

namespace tessera {
namespace {

const std::string kModels = std::string(TESSERA_SHARED_DIR) + "/models";

std::vector<std::string> lightModels() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kModels, ec)) {
    const std::string stem = entry.path().stem().string();
    if (entry.path().extension() == ".onnx" && stem.rfind("light_", 0) == 0) names.push_back(stem);
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(RealModelsTest, TheModelsAreThere) { EXPECT_GE(lightModels().size(), 4u) << "in " << kModels; }

class RealModel : public ::testing::TestWithParam<std::string> {};

TEST_P(RealModel, DummyInputReproducesTheExpectedOutput) {
  const std::string stem = kModels + "/" + GetParam();
  Graph graph = onnx_io::importOnnxFile(stem + ".onnx");
  TensorMap inputs = dummyInputs(graph);
  auto start = std::chrono::steady_clock::now();
  std::vector<Tensor> outputs = runGraph(graph, inputs);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ timing   ] %s: %.3f s\n", GetParam().c_str(), seconds);

  Tensor expected = onnx_io::readTensorProtoFile(stem + "_output_0.pb");
  ASSERT_FALSE(outputs.empty());
  const Tensor& actual = outputs[0];
  ASSERT_EQ(actual.shape(), expected.shape());
  int64_t misses = 0;
  double worst = 0;
  int64_t worstIndex = 0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    const double a = actual.valueAt(i), e = expected.valueAt(i);
    const double error = std::fabs(a - e);
    if (!(error <= 1e-7 + 1e-3 * std::fabs(e))) ++misses;
    if (error > worst || std::isnan(error)) {
      worst = error;
      worstIndex = i;
    }
  }
  EXPECT_EQ(misses, 0) << "worst element " << worstIndex << ": " << actual.valueAt(worstIndex) << " vs expected "
                       << expected.valueAt(worstIndex);
}

// Random weights are scaled by fan-in so that a 50-layer network stays in range: the logits
// (Softmax's input) of ResNet-50 stay finite and of order one instead of overflowing.
TEST(RealModelsTest, RandomWeightsKeepResNet50InRange) {
  Graph graph = onnx_io::importOnnxFile(kModels + "/light_resnet50.onnx");
  for (NodeId id = 0; id < graph.size(); ++id)
    if (graph.node(id).kind == OpKind::Softmax) graph.addOutput(graph.node(id).inputs[0], "logits");
  ASSERT_EQ(graph.outputs().size(), 2u);
  std::vector<Tensor> outputs = runGraph(graph, randomInputs(graph, 1), randomWeights(graph, 1));
  const Tensor& logits = outputs[1];
  double squares = 0;
  for (int64_t i = 0; i < logits.numel(); ++i) {
    ASSERT_TRUE(std::isfinite(logits.floatAt(i))) << "logit " << i;
    squares += logits.floatAt(i) * logits.floatAt(i);
  }
  const double rms = std::sqrt(squares / static_cast<double>(logits.numel()));
  EXPECT_GT(rms, 0.1);
  EXPECT_LT(rms, 100.0);
}

// verifyEquivalent on an imported model: the model matches itself, and one Relu turned into an
// Identity (same types, a real change of function) is caught.
TEST(RealModelsTest, VerifyAcceptsSqueezeNetAndCatchesADroppedRelu) {
  Graph graph = onnx_io::importOnnxFile(kModels + "/light_squeezenet.onnx");
  VerifyOptions options;
  options.trials = 1;
  VerifyResult same = verifyEquivalent(graph, graph, options);
  EXPECT_TRUE(same.equivalent) << same.worst;
  EXPECT_EQ(same.maxAbsError, 0.0);
  Graph changed = graph;
  NodeId relu = 0;
  for (NodeId id = 0; id < changed.size(); ++id)
    if (changed.node(id).kind == OpKind::Relu) relu = id; // the last one: closest to the output
  ASSERT_NE(relu, 0u);
  changed.mutableNode(relu).kind = OpKind::Identity;
  VerifyResult different = verifyEquivalent(graph, changed, options);
  EXPECT_FALSE(different.equivalent);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, RealModel, ::testing::ValuesIn(lightModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

} // namespace
} // namespace tessera
