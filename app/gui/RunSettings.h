// What the user chose in the run panel (strategy, cost model, limits, extraction, seed) and where
// the run is recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gui {

struct RunSettings {
  std::string strategy = "eqsat";
  std::string costSpec = "analytic:h200";
  size_t nodeLimit = 0;         // e-nodes (eqsat, mcts) or ops (taso, greedy); 0: the strategy's default
  int iterationLimit = 10;      // eqsat iterations
  double timeLimitSeconds = 30; // the search, extraction excluded
  std::string extractMethod = "dag";
  uint64_t seed = 1;
  bool verify = true; // check the result against the original with the interpreter
};

// Where a run is recorded. The worker opens `sessionPath` itself (one connection per thread) and
// adds the model first when `modelId` is 0.
struct RunRecording {
  std::string sessionPath; // empty: the run is not recorded
  int64_t modelId = 0;
  std::string modelName;
  std::string modelSourcePath;
};

// Every strategy the design names, in menu order. Whether one runs in this build is learnt by
// running it: a strategy that is not built yet fails with its own message.
struct StrategyInfo {
  std::string name;
  std::string description;
};
const std::vector<StrategyInfo>& strategies();
bool isKnownStrategy(const std::string& name);

} // namespace tessera::gui
