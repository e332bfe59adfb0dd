// End-to-end latency of several graphs measured fairly on a shared, noisy machine: every graph is
// timed once per round, in turn, so a burst of load from other processes hits them all alike, and
// each graph's latency is the median over its rounds. `optimize`'s do-no-harm check, `bench --e2e`
// and `costs accuracy` all time graphs this way.
#pragma once

#include "cost/GraphExecutor.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

struct LatencyProtocol {
  int warmup = 2;       // untimed runs before each graph's timed runs, every round
  int rounds = 5;
  int runsPerRound = 3; // the round's figure is the median of these
};

struct GraphLatency {
  double medianMs = 0;         // over rounds
  std::vector<double> roundMs; // one median per round, in round order
};

// Throws tessera::Error from the executor (a graph it cannot run) and for a protocol without a
// timed run. `progress`, when given, hears one line per round.
std::vector<GraphLatency> measureInterleaved(GraphExecutor& executor, std::span<const Graph* const> graphs,
                                             const LatencyProtocol& protocol,
                                             const std::function<void(const std::string&)>& progress = {});

} // namespace tessera
