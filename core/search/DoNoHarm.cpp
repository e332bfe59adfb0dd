#include "search/DoNoHarm.h"

#include "cost/ExecutorCheck.h"
#include "ir/GraphHash.h"

namespace tessera {

DoNoHarmOutcome keepOriginalUnlessFaster(const Graph& original, SearchResult& result, GraphExecutor& executor,
                                         const EndToEndOptions& options) {
  DoNoHarmOutcome outcome;
  outcome.candidateCostMs = result.bestCostMs;
  outcome.candidateSpeedupPct = result.speedupPct;
  if (structurallyEqual(original, result.best)) return outcome; // nothing to time: it is the original
  const Graph& candidate = result.best;
  for (auto [graph, which] : {std::pair{&candidate, "candidate"}, std::pair{&original, "original"}}) {
    const OutputAgreement outputs = checkExecutor(executor, *graph, options.seed);
    if (outputs.matches()) continue;
    outcome.executorMismatch =
        std::string("the ") + which + "'s outputs on " + executor.device() + " differ from the interpreter's: " + outputs.worst;
    break;
  }
  if (outcome.executorMismatch.empty()) outcome.comparison = compareEndToEnd(executor, original, result.best, options);
  if (outcome.comparison && outcome.comparison->candidateFaster()) {
    outcome.screening = std::move(outcome.comparison);
    EndToEndOptions again = options;
    again.seed = options.seed + 1; // fresh pairs, and a bootstrap of its own
    outcome.comparison = compareEndToEnd(executor, original, result.best, again);
    if (outcome.comparison->candidateFaster()) return outcome;
  }
  outcome.keptOriginal = true;
  result.best = original;
  result.bestCostMs = result.originalCostMs;
  result.speedupPct = 0;
  result.bestCandidate = -1;
  return outcome;
}

} // namespace tessera
