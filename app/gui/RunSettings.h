// What the user chose in the run panel: strategy, cost model, limits, extraction and seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gui {

struct RunSettings {
  std::string strategy = "eqsat";
  std::string costSpec = "analytic:h200";
  size_t nodeLimit = 20000;
  int iterationLimit = 10;
  double timeLimitSeconds = 30;
  std::string extractMethod = "dag";
  uint64_t seed = 1;
  bool verify = true; // check the result against the original with the interpreter
};

// Every strategy the design names, in menu order, and whether this build can run it.
struct StrategyInfo {
  std::string name;
  std::string description;
  bool available;
};
const std::vector<StrategyInfo>& strategies();
bool isStrategyAvailable(const std::string& name);

} // namespace tessera::gui
