// Everything a run's event log says at one moment: the e-graph and MCTS tree mirrors, the best
// cost over time, per-rule statistics and the decisions people made. Built by folding events in
// order with apply(); copyable, so the replay model can keep snapshots of it.
#pragma once

#include "events/Event.h"
#include "replay/EGraphMirror.h"
#include "replay/MctsTreeMirror.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessera {

struct CostPoint {
  uint64_t sequence = 0;
  double seconds = 0;
  int step = 0;
  double costMs = 0;
};

struct RuleStatistics {
  uint32_t applications = 0;  // RuleApplied events: applications that changed the e-graph
  uint64_t newNodes = 0;
  uint32_t commits = 0;       // steps that committed this rule (MCTS, TASO)
  double costEffectMs = 0;    // best-cost improvement at the steps that committed it (<= 0 is better)
  int lastStep = -1;
  bool operator==(const RuleStatistics&) const = default;
};

struct CommittedStep {
  StepCommitted commit;
  uint64_t sequence = 0;
  double seconds = 0;
};

struct RecordedDecision {
  UserDecision decision;
  uint64_t sequence = 0;
};

struct ReplayState {
  EGraphMirror egraph;
  MctsTreeMirror tree;
  std::vector<CostPoint> bestCost;            // the original cost first (when known), then each improvement
  std::vector<CostPoint> candidates;          // every extracted candidate's cost
  std::map<std::string, RuleStatistics> rules;
  std::vector<CommittedStep> steps;
  std::vector<RecordedDecision> decisions;
  std::vector<AgentDecided> agentDecisions; // an RL agent's decisions, in step order
  std::set<std::string> pinned;
  std::set<std::string> vetoed;
  std::optional<RunState> runState;
  std::string stopReason;
  uint64_t eventsApplied = 0;
  uint64_t nextSequence = 0; // one past the last applied event's sequence
  double seconds = 0;

  void apply(const Event& event);

  // The best cost known at this moment; nullopt before any cost was reported.
  std::optional<double> currentBestMs() const;
  // The committed step record for `step`, null when the log has none.
  const CommittedStep* committedStep(int step) const;
  // Best cost known just before the step with this number committed, and right after it.
  std::optional<double> bestBeforeStep(int step) const;
  std::optional<double> bestAfterStep(int step) const;
};

} // namespace tessera
