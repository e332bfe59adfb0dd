// The CLI's plugin adapter: measured cost models (measured:cpu, measured:cuda, measured:ort) and
// whole-graph executors from the backend plugins, for core's run facade and the commands that
// price or time graphs themselves. Warnings go to stderr.
#pragma once

#include "cost/CostModel.h"
#include "cost/GraphExecutor.h"
#include "run/RunModel.h"

#include <memory>
#include <string>

namespace tessera::cli {

// What core's runModel takes from this program: the plugins' measured cost models (one per spec,
// shared by every run of the command) and executors, and stderr for warnings.
RunBackends cliRunBackends();

// analytic:<device>, table:FILE, measured:<backend>, resolved by core's resolveCostSpec over the
// plugins that loaded; its fallback note (an unusable measuring backend) goes to stderr.
// Measurements are kept in the cost cache (defaultCostCachePath()). Throws tessera::Error for an
// unknown or malformed spec.
std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec);

// How a model answered so far ("measured:cpu on cpu:X: 12 signatures measured in 3.1 s, 30 cache
// hits, ..."); empty for models that only compute (analytic).
std::string costModelSummary(const CostModel& model);

// The whole-graph executor of backend "cpu", "cuda" or "ort". Throws tessera::Error saying why
// there is none (no plugin support in this build, plugin missing or broken, device unavailable).
std::unique_ptr<GraphExecutor> makeCliExecutor(const std::string& backend);

} // namespace tessera::cli
