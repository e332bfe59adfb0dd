#include "SampleExecution.h"

#include "interp/TestData.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <cmath>

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
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].type(), want[o].type()) << what << " output " << o;
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
    EXPECT_EQ(mismatches, 0) << what << " output " << o << ": worst excess " << worst;
  }
}

} // namespace tessera::test
