// What `optimize` and `bench` share to time a candidate against its original end to end: timing
// options suited to the device, and the report of one comparison (console line and JSON keys).
#pragma once

#include "cost/EndToEndComparison.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace tessera::cli {

// The backend of a measured cost spec ("cpu" for measured:cpu); throws tessera::Error saying that
// `what` ("--e2e", "costs calibrate") needs one.
std::string requireMeasuredBackend(const std::string& costSpec, const std::string& what);

// The backend's default protocol (defaultEndToEndOptions), with the user's `warmup` and
// `maxPairs` in their place when not negative.
EndToEndOptions endToEndOptionsFor(const std::string& backend, int warmup, int maxPairs);

// Adds e2e_original_ms, e2e_optimized_ms, e2e_speedup_pct, e2e_speedup_ci_pct ([low, high]),
// e2e_confidence, e2e_runs (timed pairs), e2e_warmup, e2e_device and e2e_method to `report`.
void addEndToEndKeys(const EndToEndComparison& comparison, nlohmann::json& report);

} // namespace tessera::cli
