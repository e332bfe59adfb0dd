#include "CostModelFactory.h"

#include "CommandContext.h"

#include "cost/MeasuredCostModel.h"
#include "cost/TableCostModel.h"
#include "run/CostResolution.h"
#include "run/SharedCostModels.h"
#include "support/Error.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "BackendCostModels.h"
#endif

#include <cstdio>

namespace tessera::cli {

namespace {

void warn(const std::string& line) { std::fprintf(stderr, "tessera-cli: %s\n", line.c_str()); }

// Plugins load only when a measured spec asks for one: an analytic run starts at once.
MeasuredCostFactory measuredCostFactory() {
#ifdef TESSERA_HAVE_PLUGINS
  return [](const std::string& backend) {
    return plugins::makeMeasuredCostModel(plugins::PluginHost::global(), backend, warn, reportProgress);
  };
#else
  return {};
#endif
}

} // namespace

RunBackends cliRunBackends() {
  RunBackends backends;
  backends.costs = std::make_shared<SharedCostModels>(measuredCostFactory());
#ifdef TESSERA_HAVE_PLUGINS
  backends.executor = makeCliExecutor;
#endif
  backends.warn = warn;
  return backends;
}

std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec) {
  ResolvedCost resolved = resolveCostSpec(spec, measuredCostFactory());
  if (!resolved.fallbackNote.empty()) warn(resolved.fallbackNote);
  return std::move(resolved.model);
}

std::string costModelSummary(const CostModel& shared) {
  const CostModel& model = innerCostModel(shared);
  if (const auto* measured = dynamic_cast<const MeasuredCostModel*>(&model)) return measured->summary();
  if (const auto* table = dynamic_cast<const TableCostModel*>(&model)) return table->summary();
  return {};
}

std::unique_ptr<GraphExecutor> makeCliExecutor(const std::string& backend) {
#ifndef TESSERA_HAVE_PLUGINS
  throw Error("no " + backend + " executor: " + kNoPluginSupport);
#else
  return plugins::makeBackendExecutor(plugins::PluginHost::global(), backend);
#endif
}

} // namespace tessera::cli
