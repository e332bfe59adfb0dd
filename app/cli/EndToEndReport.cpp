#include "EndToEndReport.h"

#include "run/CostResolution.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace tessera::cli {

namespace {

// "cuda 100, cpu 3": a protocol figure per backend, from core's defaults.
std::string perBackend(int EndToEndOptions::*field) {
  std::string text;
  for (const char* backend : {"cuda", "cpu", "ort"})
    text += (text.empty() ? "" : ", ") + std::string(backend) + " " + std::to_string(defaultEndToEndOptions(backend).*field);
  return text;
}

} // namespace

std::string requireMeasuredBackend(const std::string& costSpec, const std::string& what) {
  std::optional<std::string> backend = measuredBackend(costSpec);
  if (!backend) throw Error(what + " needs a measured cost spec (measured:cpu, measured:cuda or measured:ort), not '" + costSpec + "'");
  return *backend;
}

void addEndToEndOptions(CLI::App* command, EndToEndSettings& settings) {
  command->add_option("--e2e-warmup", settings.warmup, "Untimed runs of each graph before end-to-end timing (default: " +
                                                           perBackend(&EndToEndOptions::warmup) + ")")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--e2e-runs", settings.maxPairs,
                      "Most interleaved pairs of end-to-end runs (default: " + perBackend(&EndToEndOptions::maxPairs) +
                          "; fewer once the interval is decided)")
      ->check(CLI::Range(2, 100000));
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
