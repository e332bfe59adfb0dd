// End-to-end: each of the nine benchmark samples on the CPU executor matches the reference
// interpreter within rtol 1e-3 (atol 1e-4 for values near zero), on the same random inputs and weights.
#include "CompiledGraph.h"
#include "CpuExecutor.h"

#include "SampleExecution.h"

#include <gtest/gtest.h>

using namespace tessera;

class CpuSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(CpuSamples, MatchesTheInterpreter) {
  const test::SampleRun sample = test::sampleRun(GetParam());
  const Graph& graph = sample.graph;
  const TensorMap& inputs = sample.inputs;

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  cpu::CompiledGraph compiled(engine, graph);
  compiled.feed(inputs);
  compiled.execute(stream);
  const std::vector<Tensor> got = compiled.outputs();
  RecordProperty("onednn_ops", static_cast<int>(compiled.oneDnnOps()));
  RecordProperty("interpreted_ops", static_cast<int>(compiled.interpretedOps()));
  EXPECT_GT(compiled.oneDnnOps(), compiled.interpretedOps());

  test::expectMatchesInterpreter(got, sample.want, GetParam());
}

INSTANTIATE_TEST_SUITE_P(NineSamples, CpuSamples, TESSERA_NINE_SAMPLES);
// The transformer layers take int64 token ids and masks, which feed the interpreted Gather and Cast.
INSTANTIATE_TEST_SUITE_P(Transformers, CpuSamples, ::testing::Values("transformers/gpt2_block", "transformers/bert_base_layer"));
