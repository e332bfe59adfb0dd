// The executor against the reference interpreter.
#include "cost/ExecutorCheck.h"

#include "interp/TestData.h"

#include <cmath>
#include <cstdio>
#include <memory>

namespace tessera {

OutputAgreement compareOutputs(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  OutputAgreement agreement;
  if (got.size() != want.size()) {
    agreement.mismatches = 1;
    agreement.worst = std::to_string(got.size()) + " outputs, the interpreter has " + std::to_string(want.size());
    return agreement;
  }
  double worstExcess = -1;
  for (size_t o = 0; o < got.size(); ++o) {
    if (got[o].type() != want[o].type()) {
      ++agreement.mismatches;
      agreement.worst = "output " + std::to_string(o) + " has another type or shape than the interpreter's";
      worstExcess = INFINITY;
      continue;
    }
    for (int64_t i = 0; i < want[o].numel(); ++i) {
      const double w = want[o].valueAt(i), g = got[o].valueAt(i); // integer outputs too
      const double excess = std::isnan(g) != std::isnan(w) ? INFINITY : std::fabs(g - w) - (1e-4 + 1e-3 * std::fabs(w));
      if (!(excess > 0)) continue;
      ++agreement.mismatches;
      if (excess <= worstExcess) continue;
      worstExcess = excess;
      char buffer[160];
      std::snprintf(buffer, sizeof buffer, "output %zu element %lld: %.6g vs %.6g", o, static_cast<long long>(i), g, w);
      agreement.worst = buffer;
    }
  }
  return agreement;
}

OutputAgreement checkExecutor(GraphExecutor& executor, const Graph& graph, uint64_t seed) {
  Graph weighted = graph;
  for (auto& [weight, value] : randomWeights(graph, seed))
    weighted.mutableNode(*weighted.findNode(weight)).weight = std::make_shared<const Tensor>(std::move(value));
  const TensorMap inputs = randomInputs(weighted, seed);
  return compareOutputs(executor.run(weighted, inputs), runGraph(weighted, inputs));
}

} // namespace tessera
