#include "EndToEndReport.h"

#include "run/CostResolution.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace tessera::cli {

std::string requireMeasuredBackend(const std::string& costSpec, const std::string& what) {
  std::optional<std::string> backend = measuredBackend(costSpec);
  if (!backend) throw Error(what + " needs a measured cost spec (measured:cpu, measured:cuda or measured:ort), not '" + costSpec + "'");
  return *backend;
}

EndToEndOptions endToEndOptionsFor(const std::string& backend, int warmup, int maxPairs) {
  EndToEndOptions options = defaultEndToEndOptions(backend);
  if (warmup >= 0) options.warmup = warmup;
  if (maxPairs >= 0) {
    options.maxPairs = std::max(maxPairs, 2);
    options.minPairs = std::min(options.minPairs, options.maxPairs);
  }
  return options;
}

void addEndToEndKeys(const EndToEndComparison& comparison, nlohmann::json& report) {
  report["e2e_original_ms"] = comparison.originalMs;
  report["e2e_optimized_ms"] = comparison.candidateMs;
  report["e2e_speedup_pct"] = comparison.speedup.pct;
  report["e2e_speedup_ci_pct"] = {comparison.speedup.lowPct, comparison.speedup.highPct};
  report["e2e_confidence"] = comparison.speedup.confidence;
  report["e2e_runs"] = comparison.pairs;
  report["e2e_warmup"] = comparison.warmup;
  report["e2e_device"] = comparison.device;
  report["e2e_method"] = comparison.method();
}

} // namespace tessera::cli
