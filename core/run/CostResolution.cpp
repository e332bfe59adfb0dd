#include "CostResolution.h"

#include "support/Error.h"

namespace tessera {

std::optional<std::string> measuredBackend(const std::string& costSpec) {
  const std::string_view prefix = kMeasuredPrefix;
  if (costSpec.rfind(prefix, 0) != 0) return std::nullopt;
  return costSpec.substr(prefix.size());
}

ResolvedCost resolveCostSpec(const std::string& spec, const MeasuredCostFactory& measured) {
  std::optional<std::string> backend = measuredBackend(spec);
  if (!backend) return {makeCostModel(spec), {}};
  if (backend->empty()) throw Error("cost spec 'measured:' names no backend (use measured:cpu, measured:cuda or measured:ort)");
  std::string why = kNoPluginSupport;
  if (measured) {
    try {
      return {measured(*backend), {}};
    } catch (const Error& e) {
      why = e.what();
    }
  }
  return {makeCostModel(kDefaultCostSpec), spec + " is unavailable: " + why + "; using " + kDefaultCostSpec + " instead"};
}

} // namespace tessera
