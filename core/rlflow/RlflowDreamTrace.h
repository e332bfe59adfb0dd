// The world model's imagination beside reality, step by step (issue #33's dream view): from one
// real graph the controller plays argmax in the real environment, as the rlflow strategy does (or
// another policy plays), and
// the same actions are fed to the world model twice: as an open-loop dream from the first state's z
// (each step from the model's own last prediction, as a dream in training runs) and one step at a
// time from each real state's z with the real history (teacher-forced), so a reader can tell an
// error that compounds from one the model makes in a single step.
#pragma once

#include "rlflow/RlflowAgent.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera {

class Graph;
class Rule;
class RewriteEnvironment;

struct DreamTraceStep {
  int step = 0; // from 0
  RlflowAction action;
  std::string rule; // the action's rule
  double realReward = 0;
  double dreamtReward = 0;  // the open-loop dream's prediction
  double oneStepReward = 0; // the prediction from the real state's z and the real history
  // The state the action was taken in: rules with a rewrite, and valid (rule, location) actions,
  // as the real environment lists them and as the dream's predicted mask has them.
  int realRules = 0, dreamtRules = 0;
  int realActions = 0, dreamtActions = 0;
  double maskAgreement = 0;    // share of rules whose "has a rewrite" the dream predicted right
  bool actionInDream = false;  // the dream's mask offered the action taken (its rule, that many locations)
  bool realDone = false, dreamtDone = false;
};

struct DreamTrace {
  double initialCostMs = 0;
  double finalCostMs = 0;
  std::vector<DreamTraceStep> steps;
  double realReturn = 0, dreamtReturn = 0, oneStepReturn = 0;
  int firstDeparture = -1; // the first step whose action the dream's mask did not offer; -1: none
  size_t realSteps = 0;    // real environment steps taken, the final stop included
  std::string stopReason;  // "stop chosen", "no rewrite left", "step limit"
};

struct DreamTraceOptions {
  int maxSteps = 50;        // rewrites at most
  double temperature = 1.0; // of the dream's mixture, as in training
  std::function<void(const DreamTraceStep&)> onStep; // each step once taken (a real step prices every rewrite: slow on big models)
  // The real rollout's policy, a candidate index or the environment's stop action; default the
  // agent's argmax. Another policy's path (greedy's, X-RLflow's) shows what the world model
  // imagines of rewrites its own controller never takes.
  std::function<size_t(RewriteEnvironment&)> choose;
};

// Who plays a trace's real rollout, by name: "rlflow" (the agent's own argmax: no function),
// "greedy" (the cheapest rewrite while it saves) or the path of an X-RLflow checkpoint (its
// argmax). Throws tessera::Error naming a checkpoint that does not hold an X-RLflow agent.
std::function<size_t(RewriteEnvironment&)> dreamTracePolicy(const std::string& name, std::span<const Rule* const> rules);

// Resets `environment` (made with argmaxOptionsFor(agent.config()) to play as the strategy does)
// to `start` and plays the trace; deterministic for the agent's seed.
DreamTrace traceDream(RlflowAgent& agent, RewriteEnvironment& environment, const Graph& start, const DreamTraceOptions& options = {});

} // namespace tessera
