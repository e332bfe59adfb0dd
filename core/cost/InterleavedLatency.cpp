#include "cost/InterleavedLatency.h"

#include "cost/PairedSpeedup.h" // medianOf
#include "support/Error.h"

#include <algorithm>

namespace tessera {

std::vector<GraphLatency> measureInterleaved(GraphExecutor& executor, std::span<const Graph* const> graphs,
                                             const LatencyProtocol& protocol,
                                             const std::function<void(const std::string&)>& progress) {
  if (protocol.rounds < 1 || protocol.runsPerRound < 1)
    throw Error("interleaved timing needs at least one round of at least one timed run");
  std::vector<GraphLatency> latencies(graphs.size());
  for (int round = 0; round < protocol.rounds; ++round) {
    if (progress)
      progress("round " + std::to_string(round + 1) + "/" + std::to_string(protocol.rounds) + " over " +
               std::to_string(graphs.size()) + " graphs");
    for (size_t g = 0; g < graphs.size(); ++g)
      latencies[g].roundMs.push_back(executor.measureLatencyMs(*graphs[g], protocol.warmup, protocol.runsPerRound));
  }
  for (GraphLatency& latency : latencies) latency.medianMs = medianOf(latency.roundMs);
  return latencies;
}

} // namespace tessera
