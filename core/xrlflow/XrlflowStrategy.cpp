#include "xrlflow/XrlflowStrategy.h"

#include "xrlflow/AgentPlayStrategy.h"
#include "xrlflow/XrlflowAgent.h"

namespace tessera {

std::unique_ptr<Strategy> makeXrlflowStrategy() {
  AgentPlay<XrlflowAgent> play;
  play.defaultCheckpoint = defaultXrlflowCheckpoint;
  play.episodesCounted = "episodes";
  play.decide = [](XrlflowAgent& agent, const Observation& observation) { return agent.decide(observation, /*explore=*/false); };
  return std::make_unique<AgentPlayStrategy<XrlflowAgent>>(std::move(play));
}

void registerXrlflowStrategy() { registerStrategy(XrlflowAgent::kName, makeXrlflowStrategy); }

std::string defaultXrlflowCheckpoint() { return TESSERA_XRLFLOW_DEFAULT_CHECKPOINT; }

} // namespace tessera
