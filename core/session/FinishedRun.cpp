#include "session/FinishedRun.h"

#include "cost/CostModel.h"
#include "search/Strategy.h"
#include "session/Session.h"

namespace tessera {

std::vector<int64_t> recordFinishedRun(Session& session, int64_t runId, const SearchResult& result, const CostModel& cost) {
  std::vector<int64_t> ids;
  ids.reserve(result.candidates.size());
  for (size_t i = 0; i < result.candidates.size(); ++i)
    ids.push_back(session.addCandidate(runId, static_cast<int>(i), result.candidates[i]));
  if (DeviceCosts measured = cost.deviceCosts(); !measured.msBySignature.empty())
    session.recordOpCosts(measured.device, measured.msBySignature);
  session.finishRun(runId, RunSummary::from(result));
  return ids;
}

} // namespace tessera
