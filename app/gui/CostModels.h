// The explorer's plugin adapter: measured:<backend> cost models and whole-graph executors from the
// backend plugins that loaded, over core's shared models (run/SharedCostModels.h): one model per
// spec, safe to use from the UI, the loader and the search threads at once, each signature
// measured once per process (and once per device, through the cost cache).
#pragma once

#include "cost/CostModel.h"
#include "run/RunModel.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera::gui {

struct CostChoice {
  std::string spec;        // "analytic:h200", "measured:cpu"
  std::string description; // for a tooltip
  std::string unavailable; // why it cannot be used now; empty when it can
};

// The analytic profiles: known at once.
std::vector<CostChoice> analyticCostChoices();
// measured:<name> for every backend plugin found (usable or not). The first call loads the plugins
// (cuDNN and cuBLAS take seconds from a cold disk): call it off the UI thread.
std::vector<CostChoice> measuredCostChoices();

// Where measured models say how a first measuring goes (a cold cost cache: seconds to minutes),
// called from whichever thread is pricing; empty: nowhere. The window shows it in its status bar.
void setMeasuringProgress(std::function<void(const std::string&)> progress);

// The process's shared models, for core's runModel (RunBackends::costs).
std::shared_ptr<SharedCostModels> sharedCostModels();
// The plugins' executors (RunBackends::executor); empty in a build without plugin support.
ExecutorFactory backendExecutors();

// The shared model for `spec`, for pricing beside the explorer's search (its own runs use
// sharedCostModels()). A measured one, about to time an op the cost cache lacks, waits until no
// search of the explorer runs (MeasuringPause.h), so price off the UI thread; what the cache holds
// is answered at once, search or not. A measured spec whose backend is unusable answers with
// the default analytic model (its spec() says so, and fallbackNote() why). Throws tessera::Error for a spec
// that names no model.
std::shared_ptr<CostModel> sharedCostModel(const std::string& spec);

// Why sharedCostModel(spec) fell back to the analytic model; empty when it did not.
std::string fallbackNote(const std::string& spec);

} // namespace tessera::gui
