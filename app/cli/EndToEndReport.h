// What the commands that time a candidate against its original end to end share: the options
// that tune the protocol (their defaults from core's defaultEndToEndOptions) and the report of
// one comparison (JSON keys).
#pragma once

#include "cost/EndToEndComparison.h"
#include "run/RunPlan.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace CLI {
class App;
}

namespace tessera::cli {

// The backend of a measured cost spec ("cpu" for measured:cpu); throws tessera::Error saying that
// `what` ("--e2e", "costs calibrate") needs one.
std::string requireMeasuredBackend(const std::string& costSpec, const std::string& what);

// --e2e-warmup and --e2e-runs into `settings`, their help naming each backend's default.
void addEndToEndOptions(CLI::App* command, EndToEndSettings& settings);

// Adds e2e_original_ms, e2e_optimized_ms, e2e_speedup_pct, e2e_speedup_ci_pct ([low, high]),
// e2e_confidence, e2e_runs (timed pairs), e2e_warmup, e2e_device and e2e_method to `report`.
void addEndToEndKeys(const EndToEndComparison& comparison, nlohmann::json& report);

} // namespace tessera::cli
