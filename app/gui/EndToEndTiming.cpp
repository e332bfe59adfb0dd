#include "EndToEndTiming.h"

#include "CostModels.h"

#include "run/CostResolution.h"
#include "search/DoNoHarm.h"
#include "support/Error.h"

namespace tessera::gui {

TimingBackend timingBackendFor(const std::string& costSpec) {
  if (!backendExecutors()) return {{}, kNoPluginSupport};
  return {measuredBackend(costSpec).value_or("cpu"), {}};
}

EndToEndComparison timeEndToEnd(const std::string& backend, const Graph& original, const Graph& candidate) {
  ExecutorFactory executors = backendExecutors();
  if (!executors) throw Error("no " + backend + " executor: " + kNoPluginSupport);
  std::unique_ptr<GraphExecutor> executor = executors(backend);
  SearchResult asFound;
  asFound.best = candidate;
  const DoNoHarmOutcome outcome = keepOriginalUnlessFaster(original, asFound, *executor, defaultEndToEndOptions(backend));
  if (!outcome.executorMismatch.empty()) throw Error(outcome.executorMismatch);
  if (!outcome.comparison) throw Error("the two graphs are the same graph: there is nothing to time");
  return *outcome.comparison;
}

} // namespace tessera::gui
