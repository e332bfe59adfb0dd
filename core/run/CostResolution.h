// Which cost model a cost spec names, resolved the same way by every program that starts a run:
// core's analytic and table models directly, measured:<backend> through the backend plugins the
// program loaded, and one fallback, with its reason, when a measuring backend cannot be used.
#pragma once

#include "cost/CostModel.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

// Why a program without plugin support has no measured cost model and no executor: the one
// wording every entry point uses.
inline constexpr const char* kNoPluginSupport = "this program was built without plugin support (Qt 6 Core was not found)";

// The prefix of a measured cost spec, measured:<backend>.
inline constexpr const char* kMeasuredPrefix = "measured:";

// The machine's own measured backend: the first of autoCostBackends() that loads (measured:cuda
// where a GPU is usable, else measured:cpu), else kPredictionCostSpec with a note saying why. A run
// records the spec it resolved to, never "auto".
inline constexpr const char* kAutoCostSpec = "auto";

// A run's cost spec when none is given: $TESSERA_COST when set (a lab that always prices with one
// model, or a test suite that checks analytic predictions), else kAutoCostSpec.
inline constexpr const char* kCostSpecVariable = "TESSERA_COST";
std::string defaultCostSpec();

// The measured backends "auto" tries, in order: the GPU's, then the CPU's.
const std::vector<std::string>& autoCostBackends();

// Builds the measured model of a backend ("cpu", "cuda", "ort"). Throws tessera::Error saying why
// the backend cannot be used (not found, failed to load, no device).
using MeasuredCostFactory = std::function<std::unique_ptr<CostModel>(const std::string& backend)>;

struct ResolvedCost {
  std::unique_ptr<CostModel> model;
  // "measured:cuda is unavailable: <why>; using analytic:h200, a prediction for ..."; empty when the spec was honoured.
  std::string fallbackNote;
};

// "auto" tries autoCostBackends() in turn. An empty `measured` means the program has no plugin
// support, and a measured spec (or "auto") falls back to kPredictionCostSpec saying so. Throws tessera::Error for a spec that names no model (an unknown kind or device, a
// table file that cannot be read, measured: without a backend).
ResolvedCost resolveCostSpec(const std::string& spec, const MeasuredCostFactory& measured);

// "cpu" for measured:cpu; nullopt for a spec that measures nothing (analytic:, table:).
std::optional<std::string> measuredBackend(const std::string& costSpec);

} // namespace tessera
