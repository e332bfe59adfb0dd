// The explorer's cost models by spec: core's analytic rooflines and measured:<backend> from the
// backend plugins that loaded. One shared model per spec, safe to use from the UI, the loader and
// the search threads at once: a device is never timed by two threads together, and each signature
// is measured once per process (and once per device, through the cost cache).
#pragma once

#include "cost/CostModel.h"

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

// The shared model for `spec`. A measured spec whose backend is unusable answers with
// analytic:h200 (its spec() says so, and fallbackNote() why). Throws tessera::Error for a spec
// that names no model.
std::shared_ptr<CostModel> sharedCostModel(const std::string& spec);

// Why sharedCostModel(spec) fell back to the analytic model; empty when it did not.
std::string fallbackNote(const std::string& spec);

} // namespace tessera::gui
