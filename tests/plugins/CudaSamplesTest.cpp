// End-to-end on the GPU: each of the nine benchmark samples on the CUDA executor matches the
// reference interpreter within rtol 1e-3 (atol 1e-4 for values near zero), on the same random
// inputs and weights. Skipped without a usable GPU.
#include "CudaDevice.h"
#include "DeviceGraph.h"

#include "interp/TestData.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;

class CudaSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaSamples, MatchesTheInterpreter) {
  if (const std::string why = cuda::cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "no usable GPU: " << why;
  const std::string path = std::string(TESSERA_SOURCE_DIR) + "/samples/" + GetParam() + ".onnx";
  Graph graph = onnx_io::importOnnxFile(path);
  // The samples' weights are splats (one value each); random ones exercise every kernel properly.
  for (auto& [name, value] : randomWeights(graph, 5))
    graph.mutableNode(*graph.findNode(name)).weight = std::make_shared<const Tensor>(std::move(value));
  const TensorMap inputs = randomInputs(graph, 5);
  const std::vector<Tensor> want = runGraph(graph, inputs);

  cuda::CudaContext context;
  cuda::DeviceGraph compiled(context, graph);
  compiled.feed(inputs);
  compiled.execute();
  const std::vector<Tensor> got = compiled.outputs();
  RecordProperty("gpu_ops", static_cast<int>(compiled.gpuOps()));
  RecordProperty("interpreted_ops", static_cast<int>(compiled.interpretedOps()));
  EXPECT_GT(compiled.gpuOps(), compiled.interpretedOps());

  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].type(), want[o].type());
    int64_t mismatches = 0;
    double worst = 0;
    for (int64_t i = 0; i < want[o].numel(); ++i) {
      const double w = want[o].floatAt(i), g = got[o].floatAt(i);
      const double excess = std::fabs(g - w) - (1e-4 + 1e-3 * std::fabs(w));
      if (excess > 0 || std::isnan(g) != std::isnan(w)) {
        ++mismatches;
        worst = std::max(worst, excess);
      }
    }
    EXPECT_EQ(mismatches, 0) << GetParam() << " output " << o << ": worst excess " << worst;
  }
}

INSTANTIATE_TEST_SUITE_P(NineSamples, CudaSamples,
                         ::testing::Values("bert", "resnext50", "resnet50", "nasnet_a", "nasrnn", "inception_v3", "squeezenet",
                                           "vgg19", "mobilenet_v2"));
