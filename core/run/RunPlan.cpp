#include "run/RunPlan.h"

#include "run/CostResolution.h"

#include <algorithm>

namespace tessera {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

} // namespace

EndToEndOptions endToEndOptionsFor(const std::string& backend, const EndToEndSettings& settings) {
  EndToEndOptions options = defaultEndToEndOptions(backend);
  if (settings.warmup >= 0) options.warmup = settings.warmup;
  if (settings.maxPairs >= 0) {
    options.maxPairs = std::max(settings.maxPairs, 2);
    options.minPairs = std::min(options.minPairs, options.maxPairs);
  }
  return options;
}

std::string endToEndBackendOf(const RunPlan& plan, const std::string& pricedWith) {
  if (!plan.deploy.empty()) return plan.deploy;
  const std::string& asked = plan.request.costSpec == kAutoCostSpec ? pricedWith : plan.request.costSpec;
  return measuredBackend(asked).value_or("");
}

RunInfo runInfoFor(const RunPlan& plan, const std::string& costSpec, const ActiveRules& rules, int64_t modelId) {
  RunRequest request = plan.request;
  request.costSpec = costSpec;
  RunInfo info = runInfoFor(request, modelId);
  info.parameters["rules"] = rules.source;
  info.parameters["rules_hash"] = rules.sourceHash;
  info.parameters["pins"] = joined(plan.rules.pins);
  info.parameters["vetoes"] = joined(plan.rules.vetoes);
  info.parameters["verify_trials"] = std::to_string(plan.verifyTrials);
  const std::string backend = endToEndBackendOf(plan, costSpec);
  const bool endToEnd = plan.endToEnd.enabled && !backend.empty();
  info.parameters["e2e"] = endToEnd ? backend : "0";
  if (endToEnd) {
    const EndToEndOptions options = endToEndOptionsFor(backend, plan.endToEnd);
    info.parameters["e2e_warmup"] = std::to_string(options.warmup);
    info.parameters["e2e_runs"] = std::to_string(options.maxPairs);
  }
  if (!plan.exportPath.empty()) info.parameters["out"] = plan.exportPath;
  if (!plan.deploy.empty()) info.parameters["deploy"] = plan.deploy;
  return info;
}

} // namespace tessera
