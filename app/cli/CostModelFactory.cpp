#include "CostModelFactory.h"

#include "cost/MeasuredCostModel.h"
#include "cost/TableCostModel.h"
#include "support/Error.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "BackendCostModels.h"
#endif

#include <cstdio>

namespace tessera::cli {

namespace {

constexpr const char* kFallbackSpec = "analytic:h200";

void warn(const std::string& line) { std::fprintf(stderr, "tessera-cli: %s\n", line.c_str()); }

std::unique_ptr<CostModel> fallBack(const std::string& spec, const std::string& why) {
  warn(spec + " is unavailable: " + why + "; using " + kFallbackSpec + " instead");
  return makeCostModel(kFallbackSpec);
}

} // namespace

std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec) {
  if (spec.rfind("measured:", 0) != 0) return makeCostModel(spec);
  const std::string backendName = spec.substr(std::string("measured:").size());
  if (backendName.empty()) throw Error("cost spec 'measured:' names no backend (use measured:cpu, measured:cuda or measured:ort)");
#ifndef TESSERA_HAVE_PLUGINS
  return fallBack(spec, "this tessera-cli was built without plugin support (Qt 6 Core was not found)");
#else
  try {
    return plugins::makeMeasuredCostModel(plugins::PluginHost::global(), backendName, warn);
  } catch (const Error& e) {
    return fallBack(spec, e.what());
  }
#endif
}

std::string costModelSummary(const CostModel& model) {
  if (const auto* measured = dynamic_cast<const MeasuredCostModel*>(&model)) return measured->summary();
  if (const auto* table = dynamic_cast<const TableCostModel*>(&model)) return table->summary();
  return {};
}

std::unique_ptr<GraphExecutor> makeCliExecutor(const std::string& backend) {
#ifndef TESSERA_HAVE_PLUGINS
  throw Error("no " + backend + " executor: this tessera-cli was built without plugin support (Qt 6 Core was not found)");
#else
  return plugins::makeBackendExecutor(plugins::PluginHost::global(), backend);
#endif
}

} // namespace tessera::cli
