// What a finished search leaves in its session, written in the order that keeps a session
// consistent: the candidates, the device's op costs the run priced with, then the run's summary
// (a run with a finish time has all its candidates). RunRecording records through it.
#pragma once

#include "session/SessionRecords.h"

#include <cstdint>
#include <vector>

namespace tessera {

class CostModel;
class Session;
struct SearchResult;

// The run's summary row: why it stopped, its costs, its size and whether it verified.
RunSummary runSummaryOf(const SearchResult& result);

// Returns the candidates' ids in the result's order. Op costs are stored only for a cost model that
// answers with a device's figures (measured:cpu, measured:cuda); analytic ones are recomputable.
std::vector<int64_t> recordFinishedRun(Session& session, int64_t runId, const SearchResult& result, const CostModel& cost);

} // namespace tessera
