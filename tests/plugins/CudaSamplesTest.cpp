// End-to-end on the GPU: each of the nine benchmark samples and the two transformer layers on the
// CUDA executor matches the reference interpreter within rtol 1e-3 (atol 1e-4 for values near
// zero), on the same random inputs and weights. Skipped without a usable GPU.
#include "CudaDevice.h"
#include "DeviceGraph.h"

#include "SampleExecution.h"

#include <gtest/gtest.h>

using namespace tessera;

class CudaSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(CudaSamples, MatchesTheInterpreter) {
  if (const std::string why = cuda::cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "no usable GPU: " << why;
  const test::SampleRun sample = test::sampleRun(GetParam());
  const Graph& graph = sample.graph;
  const TensorMap& inputs = sample.inputs;

  cuda::CudaContext context;
  cuda::DeviceGraph compiled(context, graph);
  compiled.feed(inputs);
  compiled.execute();
  const std::vector<Tensor> got = compiled.outputs();
  RecordProperty("gpu_ops", static_cast<int>(compiled.gpuOps()));
  RecordProperty("interpreted_ops", static_cast<int>(compiled.interpretedOps()));
  EXPECT_GT(compiled.gpuOps(), compiled.interpretedOps());

  test::expectMatchesInterpreter(got, sample.want, GetParam());
}

INSTANTIATE_TEST_SUITE_P(NineSamples, CudaSamples, TESSERA_NINE_SAMPLES);
// Token ids and attention masks (int64) stay on the host for the ops that read them.
INSTANTIATE_TEST_SUITE_P(Transformers, CudaSamples, ::testing::Values("transformers/gpt2_block", "transformers/bert_base_layer"));
