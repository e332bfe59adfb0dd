// The improvement of one kernel over another from interleaved timing: rounds that time both in
// alternating order (so a change in the machine's load falls on both), and the latency cut of the
// rounds' geometric-mean ratio with a 95 % Student-t interval on the log ratios.
#pragma once

#include "tune/Runner.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera::sip {

struct Improvement {
  double meanPct = 0, lowPct = 0, highPct = 0; // (baseline - candidate) / baseline x 100
  std::vector<double> baselineMs, candidateMs; // per round (each the runner's fastest repeat)
  int rounds = 0;
  double baselineMedianMs = 0, candidateMedianMs = 0;
  bool significant() const { return lowPct > 0; }
};

// Throws tessera::Error naming the kernel when either fails a round.
Improvement timeInterleaved(tune::Runner& runner, const std::string& baselineLibrary, const std::string& candidateLibrary, int rounds,
                            const std::function<void(int round)>& onRound = {});

// The cut and its interval (the cut alone for one round).
Improvement summarize(const std::vector<double>& baselineMs, const std::vector<double>& candidateMs);

} // namespace tessera::sip
