// TENSAT's optimiser: seed an e-graph with the model, saturate it with the rules under limits,
// extract the cheapest graph, and verify it against the original with the interpreter.
#pragma once

#include "cost/CostModel.h"
#include "ir/Graph.h"
#include "rewrite/Runner.h"

#include <functional>
#include <map>
#include <span>
#include <string>

namespace tessera {

struct OptimizeOptions {
  RunnerLimits limits;
  std::string extractMethod = "dag";
  double extractTimeLimitSeconds = 60;
  bool verify = true;
  int verifyTrials = 1;
  uint64_t seed = 1;
  std::string egraphJsonPath; // when set, the saturated e-graph is written there (egraph-serialize JSON)
  std::function<void(const std::string&)> progress; // one line per phase
  std::function<bool()> stopRequested;
};

struct OptimizeResult {
  Graph optimized;
  double originalCostMs = 0;
  double optimizedCostMs = 0;
  double speedupPct = 0; // (original - optimised) / original x 100
  double saturationSeconds = 0;
  double extractionSeconds = 0;
  double verifySeconds = 0;
  RunReport run;
  size_t enodes = 0;
  size_t eclasses = 0;
  size_t distinctSignatures = 0;
  bool improved = false;     // false: no cheaper graph was found and the original is returned
  bool verificationRun = false;
  bool verified = false;
  double maxAbsError = 0;
  std::string verifyProblem;
};

OptimizeResult optimizeEqsat(const Graph& original, std::span<const Rule* const> rules, CostModel& cost,
                             const OptimizeOptions& options);

} // namespace tessera
