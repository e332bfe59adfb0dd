#include "EndToEndTiming.h"

#include "CostModels.h"
#include "MeasuringPause.h"

#include "run/CostResolution.h"
#include "run/DeployCheck.h"
#include "support/Error.h"

namespace tessera::gui {

TimingBackend timingBackendFor(const std::string& costSpec) {
  if (!backendExecutors()) return {{}, kNoPluginSupport};
  return {measuredBackend(costSpec).value_or("cpu"), {}};
}

EndToEndComparison timeEndToEnd(const std::string& backend, const Graph& original, const Graph& candidate) {
  waitForOwnSearch("timing end to end on " + backend);
  SearchResult asFound;
  asFound.best = candidate;
  // Do no harm's own check with the backend's default protocol, as a run's (run/DeployCheck.h).
  const DeployCheck check = checkOnRuntime(original, asFound, backend, backendExecutors(), EndToEndSettings{}, {}, {});
  if (!check.outcome) throw Error(check.skipped);
  const DoNoHarmOutcome& outcome = *check.outcome;
  if (!outcome.executorMismatch.empty()) throw Error(outcome.executorMismatch);
  if (!outcome.comparison) throw Error("the two graphs are the same graph: there is nothing to time");
  return *outcome.comparison;
}

} // namespace tessera::gui
