#include "rlflow/RlflowStrategy.h"

#include "rlflow/RlflowAgent.h"
#include "xrlflow/AgentPlayStrategy.h"

namespace tessera {

std::unique_ptr<Strategy> makeRlflowStrategy() {
  AgentPlay<RlflowAgent> play;
  play.defaultCheckpoint = defaultRlflowCheckpoint;
  play.episodesCounted = "dream episodes";
  play.decide = [](RlflowAgent& agent, const Observation& observation) { return agent.decideReal(observation); };
  return std::make_unique<AgentPlayStrategy<RlflowAgent>>(std::move(play));
}

void registerRlflowStrategy() { registerStrategy(RlflowAgent::kName, makeRlflowStrategy); }

std::string defaultRlflowCheckpoint() { return TESSERA_RLFLOW_DEFAULT_CHECKPOINT; }

} // namespace tessera
