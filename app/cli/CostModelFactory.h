// The CLI's cost models: core's analytic and table models, and measured ones from backend
// plugins (measured:cpu, measured:cuda), plus the plugins' whole-graph executors for bench --e2e.
#pragma once

#include "cost/CostModel.h"
#include "cost/GraphExecutor.h"

#include <memory>
#include <string>

namespace tessera::cli {

// analytic:<device>, table:FILE, measured:<backend>, resolved by core's resolveCostSpec over the
// plugins that loaded; its fallback note (an unusable measuring backend) goes to stderr.
// Measurements are kept in the cost cache (defaultCostCachePath()). Throws tessera::Error for an
// unknown or malformed spec.
std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec);

// How a model answered so far ("measured:cpu on cpu:X: 12 signatures measured in 3.1 s, 30 cache
// hits, ..."); empty for models that only compute (analytic).
std::string costModelSummary(const CostModel& model);

// The whole-graph executor of backend "cpu" or "cuda". Throws tessera::Error saying why there is
// none (no plugin support in this build, plugin missing or broken, device unavailable).
std::unique_ptr<GraphExecutor> makeCliExecutor(const std::string& backend);

} // namespace tessera::cli
