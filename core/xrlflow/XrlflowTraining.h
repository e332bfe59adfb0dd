// Training an X-RLflow agent by PPO, as the original does: play episodes with the policy sampled
// (exploring), record every transition, and update every `episodesPerUpdate` episodes. The agent
// may be evaluated (argmax episodes) before training and after every few updates, and then ends
// with the weights that evaluated best, as the original keeps its best checkpoint.
#pragma once

#include "rl/Environment.h"
#include "rl/GraphEpisodes.h"
#include "xrlflow/XrlflowAgent.h"

#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace tessera {

struct EpisodeRecord {
  int episode = 0;
  std::string label;   // what it was played on
  double reward = 0;   // sum of the episode's rewards
  int steps = 0;
  double seconds = 0;
};

struct EvaluationRecord {
  int afterEpisode = 0; // 0: the untrained agent
  double score = 0;      // higher is better
};

struct TrainingOptions {
  int episodes = 1000;
  // Argmax play before training and after every `evaluateEvery` updates (0: never); higher is
  // better. The agent keeps the weights of the best evaluation (the last ones when there is none).
  int evaluateEvery = 0;
  std::function<double(XrlflowAgent&)> evaluate;
  std::function<void(const std::string&)> progress; // a line per episode and per update
  std::function<bool()> stopRequested;               // ends training after the current episode
};

struct TrainingReport {
  std::vector<EpisodeRecord> episodes;
  std::vector<PpoUpdateStats> updates;
  std::vector<EvaluationRecord> evaluations;
  std::optional<EvaluationRecord> best;
  double seconds = 0;
};

TrainingReport trainAgent(XrlflowAgent& agent, EpisodeSource& source, const TrainingOptions& options);

// Argmax play (the strategy, evaluations) goes on to this many rewrites unless the agent stops.
inline constexpr int kArgmaxMaxSteps = 250;

// The environment settings an agent trains with: its candidate cap and horizon.
RewriteEnvironmentOptions environmentOptionsFor(const AgentConfig& config);
// ... and plays argmax with: the same, up to kArgmaxMaxSteps rewrites.
RewriteEnvironmentOptions argmaxOptionsFor(const AgentConfig& config);

// The action argmax play takes: the most probable one that does not lead back to a graph of the
// episode (a deterministic policy that meets a graph again would go round the same loop
// forever), and among a pinned rule's candidates when there are any. Stop is always allowed.
size_t argmaxAction(const AgentDecision& decision, RewriteEnvironment& environment, const std::set<std::string>& pinned = {});

// For each model: the speedup (%) of the cheapest graph an argmax episode passes through, which
// is what the xrlflow strategy returns on it (`models` built with argmaxOptionsFor).
std::vector<double> argmaxSpeedups(XrlflowAgent& agent, GraphEpisodes& models);

// Greedy's speedup (%) on each model: the baseline an agent is to match everywhere.
std::vector<double> greedySpeedups(const std::vector<NamedGraph>& models, std::span<const Rule* const> rules, CostModel& cost);

// One number for how argmax speedups compare with a baseline's, higher is better: the mean gain
// per model, a loss counting `lossWeight` times, since an agent that loses anywhere is no use there.
double gainOverBaseline(const std::vector<double>& speedups, const std::vector<double>& baseline, double lossWeight = 10);

// Plays one episode from `environment`'s current state with argmax (or sampled) decisions and
// returns its reward; `onStep` sees each decision before it is taken.
double playEpisode(XrlflowAgent& agent, Environment& environment, bool explore,
                   const std::function<void(const AgentDecision&)>& onStep = {});

} // namespace tessera
