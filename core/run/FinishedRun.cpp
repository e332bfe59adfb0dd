#include "run/FinishedRun.h"

#include "cost/CostModel.h"
#include "search/Strategy.h"
#include "session/Session.h"

namespace tessera {

RunSummary runSummaryOf(const SearchResult& result) {
  RunSummary summary;
  summary.stopReason = result.stopReason;
  summary.originalCostMs = result.originalCostMs;
  summary.bestCostMs = result.bestCostMs;
  summary.speedupPct = result.speedupPct;
  summary.enodes = result.enodes;
  summary.eclasses = result.eclasses;
  summary.steps = result.steps;
  if (result.verificationRun) summary.verified = result.verified;
  summary.inSample = result.inSample;
  return summary;
}

std::vector<int64_t> recordFinishedRun(Session& session, int64_t runId, const SearchResult& result, const CostModel& cost) {
  std::vector<int64_t> ids;
  ids.reserve(result.candidates.size());
  for (size_t i = 0; i < result.candidates.size(); ++i)
    ids.push_back(session.addCandidate(runId, static_cast<int>(i), result.candidates[i]));
  if (DeviceCosts measured = cost.deviceCosts(); !measured.msBySignature.empty())
    session.recordOpCosts(measured.device, measured.msBySignature);
  session.finishRun(runId, runSummaryOf(result));
  return ids;
}

} // namespace tessera
