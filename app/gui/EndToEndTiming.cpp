#include "EndToEndTiming.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "BackendCostModels.h"
#endif

#include "run/CostResolution.h"
#include "support/Error.h"

namespace tessera::gui {

TimingBackend timingBackendFor(const std::string& costSpec) {
#ifdef TESSERA_HAVE_PLUGINS
  return {measuredBackend(costSpec).value_or("cpu"), {}};
#else
  (void)costSpec;
  return {{}, "this build has no backend plugins (Qt 6 Core was not found at configure time)"};
#endif
}

EndToEndComparison timeEndToEnd(const std::string& backend, const Graph& original, const Graph& candidate) {
#ifdef TESSERA_HAVE_PLUGINS
  std::unique_ptr<GraphExecutor> executor = plugins::makeBackendExecutor(plugins::PluginHost::global(), backend);
  return compareEndToEnd(*executor, original, candidate, defaultEndToEndOptions(backend));
#else
  (void)original;
  (void)candidate;
  throw Error("no " + backend + " executor: " + timingBackendFor("").why);
#endif
}

} // namespace tessera::gui
