// Do no harm: a cost model predicts, the device decides. With an executor to run on, the
// candidate a search returns and the original are first run once on it and checked against the
// reference interpreter (a graph the executor computes wrong has no timing worth comparing), then
// the candidate is timed against the original end to end, and the original is
// returned in its place unless the candidate is faster beyond the interval's doubt, twice: the
// comparison stops as soon as its interval clears zero, which lets one lucky stretch of a noisy
// machine through, so a candidate found faster is timed again, independently, and the second
// comparison decides and gives the figures reported (they are not selected by a stopping rule).
#pragma once

#include "cost/EndToEndComparison.h"
#include "search/Strategy.h"

#include <optional>

namespace tessera {

struct DoNoHarmOutcome {
  std::optional<EndToEndComparison> comparison; // the deciding one; none when the search returned the original graph
  std::optional<EndToEndComparison> screening;  // the first, when it found the candidate faster and `comparison` checked it
  bool keptOriginal = false;                    // the candidate was not faster: result.best is the original
  // Set when the executor's outputs for either graph differ from the interpreter's ("the
  // candidate's outputs on DEVICE differ from the interpreter's: output 0 element 3: ..."): then
  // nothing is timed and the original is kept.
  std::string executorMismatch;
  double candidateCostMs = 0;                   // what the cost model predicted for the candidate
  double candidateSpeedupPct = 0;

  // The measured speedup of what is returned: the candidate's when it was kept, 0 for the original.
  double returnedSpeedupPct() const { return comparison && !keptOriginal ? comparison->speedup.pct : 0.0; }
};

// Checks both graphs on the executor (checkExecutor, seeded with options.seed), times result.best
// against `original` (compareEndToEnd, again when found faster) and, when the candidate differs
// on the executor or is not faster, puts the original in its place: best, bestCostMs = originalCostMs,
// speedupPct 0, bestCandidate -1. Throws tessera::Error when either graph cannot run on the executor.
DoNoHarmOutcome keepOriginalUnlessFaster(const Graph& original, SearchResult& result, GraphExecutor& executor,
                                         const EndToEndOptions& options = {});

} // namespace tessera
