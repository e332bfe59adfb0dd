// Times a candidate graph against the original end to end on one executor, interleaved (A B,
// B A, A B, ...) so that both see the same machine, until the speedup's interval is decided,
// narrow, or the budget is spent. `optimize` decides with it whether to return the candidate
// (do no harm); `bench --e2e` reports it.
#pragma once

#include "cost/GraphExecutor.h"
#include "cost/PairedSpeedup.h"

#include <cstdint>
#include <string>

namespace tessera {

struct EndToEndOptions {
  int warmup = 3;                 // untimed runs of each graph before any timing
  int minPairs = 10;              // pairs between two looks at the interval (the first look too)
  int maxPairs = 30;
  double timeBudgetSeconds = 30;  // no further pair starts after this (once minPairs are in)
  double targetHalfWidthPct = 1;  // stop once the interval is this narrow, even if it spans 0
  double confidence = 0.95;
  uint64_t seed = 1;              // of the bootstrap
};

// The protocol suited to a backend's device ("cpu", "cuda", "ort"): a whole CPU run takes far
// longer than a GPU one, which gets TASO's 100 warm-up runs and many pairs.
EndToEndOptions defaultEndToEndOptions(const std::string& backend);

struct EndToEndComparison {
  double originalMs = 0;  // median of the original's timed runs
  double candidateMs = 0; // median of the candidate's
  SpeedupEstimate speedup;
  int pairs = 0;
  int warmup = 0;
  std::string device;

  // Faster beyond doubt: the whole interval lies above zero.
  bool candidateFaster() const { return speedup.lowPct > 0; }
  // How the figures were obtained, for reports.
  std::string method() const;
  // "+4.59 % [+3.10, +6.33] (95 % interval, 10 pairs)".
  std::string describeSpeedup() const;
};

// Throws tessera::Error when either graph cannot run on the executor or options are unusable
// (minPairs < 2, maxPairs < minPairs).
EndToEndComparison compareEndToEnd(GraphExecutor& executor, const Graph& original, const Graph& candidate,
                                   const EndToEndOptions& options = {});

} // namespace tessera
