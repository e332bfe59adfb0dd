#include "search/RunProtocol.h"

#include "cost/GraphCost.h"

namespace tessera {

void RunProtocol::start() {
  result_.originalCostMs = graphCost(input_.original, input_.cost).totalMs;
  input_.events.publish(RunStateChanged{RunState::Started, {}});
}

void RunProtocol::recordDecisions(int step) {
  for (UserDecision decision : input_.control.takeDecisions()) {
    decision.step = step;
    input_.events.publish(std::move(decision));
  }
}

bool RunProtocol::beforeStep(int step) {
  recordDecisions(step);
  const bool wasPaused = input_.control.paused();
  if (wasPaused) input_.events.publish(RunStateChanged{RunState::Paused, {}});
  const bool go = input_.control.proceed();
  recordDecisions(step); // what was decided while paused belongs to this step
  if (wasPaused && go) input_.events.publish(RunStateChanged{RunState::Resumed, {}});
  return go;
}

double RunProtocol::bestCostMs() const {
  return result_.bestCandidate >= 0 ? result_.candidates[result_.bestCandidate].costMs : result_.originalCostMs;
}

int RunProtocol::addCandidate(Candidate candidate) {
  const double previous = bestCostMs();
  const int index = static_cast<int>(result_.candidates.size());
  input_.events.publish(CandidateExtracted{index, candidate.step, candidate.costMs, candidate.method});
  if (candidate.costMs < previous) {
    input_.events.publish(BestCostChanged{candidate.step, previous, candidate.costMs});
    result_.bestCandidate = index;
  }
  result_.candidates.push_back(std::move(candidate));
  return index;
}

void RunProtocol::finish(StopReason reason) {
  result_.stopReason = std::string(stopReasonName(reason));
  settleBest(result_, input_.original);
  const RunState state = reason == StopReason::StoppedByUser ? RunState::Stopped : RunState::Finished;
  input_.events.publish(RunStateChanged{state, result_.stopReason});
}

} // namespace tessera
