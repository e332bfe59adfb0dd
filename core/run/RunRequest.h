// What a person asks of one run, the same for the CLI and the explorer: the strategy, the cost
// model, the search options with the strategy's own parameters, and whether to verify the result.
// A session records a run by this request, so every setting that shapes a run is stored with it.
#pragma once

#include "run/CostResolution.h"
#include "search/Strategy.h"
#include "session/SessionRecords.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera {

struct RunRequest {
  std::string strategy = "eqsat";
  std::string costSpec = defaultCostSpec(); // once resolved: the model's spec(), after any fallback
  SearchOptions search;
  bool verify = true; // check the result against the original with the interpreter
};

// The run's row of a session: the limits, the extraction, eqsat's iteration limit and k_multi, and
// the strategy's parameters (NAME=VALUE, as given) under their own names.
RunInfo runInfoFor(const RunRequest& request, int64_t modelId);

// NAME=VALUE pairs into strategy parameters; throws tessera::Error naming a malformed pair.
std::map<std::string, std::string> parseRunParameters(const std::vector<std::string>& pairs);
// The inverse: NAME=VALUE for each parameter, by name.
std::vector<std::string> runParameterPairs(const std::map<std::string, std::string>& parameters);

} // namespace tessera
