#include "SampleExecution.h"

#include "cost/ExecutorCheck.h"
#include "interp/TestData.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

namespace tessera::test {

SampleRun sampleRun(const std::string& name) {
  SampleRun run;
  run.graph = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name + ".onnx");
  // The samples' weights are splats (one value each); random ones exercise every kernel properly.
  for (auto& [weight, value] : randomWeights(run.graph, 5))
    run.graph.mutableNode(*run.graph.findNode(weight)).weight = std::make_shared<const Tensor>(std::move(value));
  run.inputs = randomInputs(run.graph, 5);
  run.want = runGraph(run.graph, run.inputs);
  return run;
}

void expectMatchesInterpreter(const std::vector<Tensor>& got, const std::vector<Tensor>& want, const std::string& what) {
  const OutputAgreement agreement = compareOutputs(got, want);
  EXPECT_EQ(agreement.mismatches, 0) << what << ": worst " << agreement.worst;
}

} // namespace tessera::test
