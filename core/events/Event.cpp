#include "events/Event.h"

namespace tessera {

std::string_view runStateName(RunState state) {
  switch (state) {
  case RunState::Started: return "started";
  case RunState::Paused: return "paused";
  case RunState::Resumed: return "resumed";
  case RunState::Stopped: return "stopped";
  case RunState::Finished: return "finished";
  }
  return "unknown";
}

std::string_view decisionName(DecisionKind kind) {
  switch (kind) {
  case DecisionKind::Pin: return "pin";
  case DecisionKind::Unpin: return "unpin";
  case DecisionKind::Veto: return "veto";
  case DecisionKind::Unveto: return "unveto";
  case DecisionKind::Pause: return "pause";
  case DecisionKind::Resume: return "resume";
  case DecisionKind::Step: return "step";
  case DecisionKind::Stop: return "stop";
  }
  return "unknown";
}

std::string_view eventKindName(EventKind kind) {
  switch (kind) {
  case EventKind::ENodeAdded: return "enode_added";
  case EventKind::ClassesMerged: return "classes_merged";
  case EventKind::RuleApplied: return "rule_applied";
  case EventKind::MctsNodeCreated: return "mcts_node_created";
  case EventKind::MctsNodeVisited: return "mcts_node_visited";
  case EventKind::MctsBackedUp: return "mcts_backed_up";
  case EventKind::StepCommitted: return "step_committed";
  case EventKind::CandidateExtracted: return "candidate_extracted";
  case EventKind::BestCostChanged: return "best_cost_changed";
  case EventKind::RunStateChanged: return "run_state_changed";
  case EventKind::UserDecision: return "user_decision";
  case EventKind::EGraphRebased: return "egraph_rebased";
  case EventKind::AgentDecided: return "agent_decided";
  case EventKind::Count: break;
  }
  return "unknown";
}

} // namespace tessera
