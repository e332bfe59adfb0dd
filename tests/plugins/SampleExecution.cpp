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

Graph tokenEmbeddingGraph() {
  Graph g;
  const NodeId ids = g.addInput("ids", {DType::Int64, {2, 3}});
  const NodeId table = g.addWeight("table", randomTensor({DType::Float32, {10, 4}}, 6, "table"));
  const NodeId flatIds = g.addNode(OpKind::Reshape, {{ids}}, {{"shape", std::vector<int64_t>{6}}}, "flat_ids");
  const NodeId gather = g.addNode(OpKind::Gather, {{table}, {flatIds}}, {{"axis", int64_t{0}}}, "embed");
  g.addOutput({g.addNode(OpKind::Relu, {{gather}}, {}, "relu")}, "embedded");
  g.addOutput({flatIds}, "ids_seen");
  return g;
}

TensorMap tokenIds(std::vector<int64_t> tokens) { return {{"ids", Tensor::fromInts({DType::Int64, {2, 3}}, std::move(tokens))}}; }

void expectMatchesInterpreter(const std::vector<Tensor>& got, const std::vector<Tensor>& want, const std::string& what) {
  const OutputAgreement agreement = compareOutputs(got, want);
  EXPECT_EQ(agreement.mismatches, 0) << what << ": worst " << agreement.worst;
}

} // namespace tessera::test
