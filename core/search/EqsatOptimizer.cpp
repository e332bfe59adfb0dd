#include "search/EqsatOptimizer.h"

#include "cost/GraphCost.h"
#include "extract/EGraphJson.h"
#include "interp/Verify.h"
#include "search/EGraphExtraction.h"
#include "support/Error.h"

#include <chrono>
#include <cstdio>

namespace tessera {

namespace {
void say(const OptimizeOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}
} // namespace

OptimizeResult optimizeEqsat(const Graph& original, std::span<const Rule* const> rules, CostModel& cost,
                             const OptimizeOptions& options) {
  OptimizeResult result;
  result.originalCostMs = graphCost(original, cost).totalMs;

  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, original);
  RunnerHooks hooks;
  hooks.stopRequested = options.stopRequested;
  hooks.iterationDone = [&](const IterationReport& it) {
    say(options, "iteration " + std::to_string(it.index + 1) + ": " + std::to_string(it.enodes) + " e-nodes, " +
                     std::to_string(it.eclasses) + " e-classes, " + std::to_string(it.applied) + " rewrites, " +
                     std::to_string(it.filtered) + " filtered");
  };
  result.run = runSaturation(egraph, seed.outputs, rules, options.limits, hooks);
  result.saturationSeconds = result.run.seconds;
  result.enodes = egraph.numNodes();
  result.eclasses = egraph.numClasses();
  say(options, "saturation stopped (" + std::string(stopReasonName(result.run.stopReason)) + ") after " +
                   format("%.2f s", result.saturationSeconds));

  ENodeCoster coster(cost);
  if (!options.egraphJsonPath.empty()) {
    extract::writeEGraphJson(toExtractionProblem(egraph, seed.outputs, coster).problem, options.egraphJsonPath);
    say(options, "wrote the e-graph to " + options.egraphJsonPath);
  }
  ExtractedGraph extracted = extractGraph(egraph, seed, coster, options.extractMethod, options.extractTimeLimitSeconds);
  result.extractionSeconds = extracted.seconds;
  result.distinctSignatures = coster.distinctSignatures();
  double extractedCost = graphCost(extracted.graph, cost).totalMs;
  say(options, "extracted with " + options.extractMethod + format(" in %.2f s: %.4f ms (was %.4f ms)", extracted.seconds,
                                                                    extractedCost, result.originalCostMs));

  // The original is always in the e-graph; never hand back something slower.
  result.improved = extractedCost < result.originalCostMs;
  result.optimized = result.improved ? std::move(extracted.graph) : original.compacted();
  result.optimizedCostMs = result.improved ? extractedCost : result.originalCostMs;
  result.speedupPct =
      result.originalCostMs > 0 ? (result.originalCostMs - result.optimizedCostMs) / result.originalCostMs * 100.0 : 0.0;

  if (options.verify) {
    auto start = std::chrono::steady_clock::now();
    VerifyOptions verify;
    verify.trials = options.verifyTrials;
    verify.seed = options.seed;
    VerifyResult check = verifyEquivalent(original, result.optimized, verify);
    result.verificationRun = true;
    result.verified = check.equivalent;
    result.maxAbsError = check.maxAbsError;
    result.verifyProblem = check.equivalent ? std::string() : check.worst;
    result.verifySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say(options, std::string(check.equivalent ? "verified" : "VERIFICATION FAILED") +
                     format(" against the original in %.2f s (max abs error %.3g)", result.verifySeconds, check.maxAbsError));
  }
  return result;
}

} // namespace tessera
