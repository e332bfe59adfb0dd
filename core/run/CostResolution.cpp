#include "CostResolution.h"

#include "run/RunChoices.h"
#include "support/Error.h"

#include <cstdlib>

namespace tessera {

std::optional<std::string> measuredBackend(const std::string& costSpec) {
  const std::string_view prefix = kMeasuredPrefix;
  if (costSpec.rfind(prefix, 0) != 0) return std::nullopt;
  return costSpec.substr(prefix.size());
}

std::string defaultCostSpec() {
  const char* chosen = std::getenv(kCostSpecVariable);
  return chosen && *chosen ? chosen : kAutoCostSpec;
}

const std::vector<std::string>& autoCostBackends() {
  static const std::vector<std::string> backends = {"cuda", "cpu"};
  return backends;
}

namespace {

ResolvedCost prediction(const std::string& why) {
  return {makeCostModel(kPredictionCostSpec), why + "; using " + costSpecHeadline(kPredictionCostSpec)};
}

ResolvedCost resolveAuto(const MeasuredCostFactory& measured) {
  if (!measured) return prediction(std::string("no measuring backend: ") + kNoPluginSupport);
  std::string why;
  for (const std::string& backend : autoCostBackends()) {
    try {
      return {measured(backend), {}};
    } catch (const Error& e) {
      why += (why.empty() ? "" : "; ") + (kMeasuredPrefix + backend) + ": " + e.what();
    }
  }
  return prediction("no measuring backend is usable (" + why + ")");
}

} // namespace

ResolvedCost resolveCostSpec(const std::string& spec, const MeasuredCostFactory& measured) {
  if (spec == kAutoCostSpec) return resolveAuto(measured);
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
  return prediction(spec + " is unavailable: " + why);
}

} // namespace tessera
