#include "RunRequest.h"

#include "support/Error.h"

namespace tessera {

RunInfo runInfoFor(const RunRequest& request, int64_t modelId) {
  const SearchOptions& search = request.search;
  RunInfo info;
  info.modelId = modelId;
  info.strategy = request.strategy;
  info.seed = search.seed;
  info.costSpec = request.costSpec;
  info.parameters = search.parameters;
  info.parameters["node_limit"] = std::to_string(search.nodeLimit);
  info.parameters["time_limit"] = std::to_string(search.timeLimitSeconds);
  info.parameters["extract"] = search.extractMethod;
  info.parameters["verify"] = std::to_string(request.verify ? 1 : 0);
  if (request.strategy == "eqsat") {
    info.parameters["iteration_limit"] = std::to_string(search.iterationLimit);
    info.parameters["k_multi"] = std::to_string(search.multiIterations);
  }
  return info;
}

std::map<std::string, std::string> parseRunParameters(const std::vector<std::string>& pairs) {
  std::map<std::string, std::string> parameters;
  for (const std::string& pair : pairs) {
    size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) throw Error("a strategy parameter is NAME=VALUE, got '" + pair + "'");
    parameters[pair.substr(0, equals)] = pair.substr(equals + 1);
  }
  return parameters;
}

std::vector<std::string> runParameterPairs(const std::map<std::string, std::string>& parameters) {
  std::vector<std::string> pairs;
  for (const auto& [name, value] : parameters) pairs.push_back(name + "=" + value);
  return pairs;
}

} // namespace tessera
