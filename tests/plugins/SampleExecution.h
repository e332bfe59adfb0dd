// What the executor tests share: a benchmark sample with random weights and inputs, the reference
// interpreter's outputs for it, and the comparison every backend must pass.
#pragma once

#include "interp/Interpreter.h"
#include "ir/Graph.h"

#include <string>
#include <vector>

namespace tessera::test {

struct SampleRun {
  Graph graph;               // samples/<name>.onnx with seeded random weights (the files hold splats)
  TensorMap inputs;          // seeded random inputs
  std::vector<Tensor> want;  // the reference interpreter's outputs
};
SampleRun sampleRun(const std::string& name);

// Token ids as GPT-2 reads them: "ids" (int64 [2, 3]) through a view into a Gather from a 10×4
// table, then a Relu; outputs "embedded" and the view of the ids, "ids_seen" (an integer output).
Graph tokenEmbeddingGraph();
// Fed ids for it.
TensorMap tokenIds(std::vector<int64_t> tokens);

// Every element within rtol 1e-3 (atol 1e-4 for values near zero); NaN only where the interpreter has one.
void expectMatchesInterpreter(const std::vector<Tensor>& got, const std::vector<Tensor>& want, const std::string& what);

// The nine benchmark samples, for INSTANTIATE_TEST_SUITE_P.
#define TESSERA_NINE_SAMPLES \
  ::testing::Values("bert", "resnext50", "resnet50", "nasnet_a", "nasrnn", "inception_v3", "squeezenet", "vgg19", "mobilenet_v2")

} // namespace tessera::test
