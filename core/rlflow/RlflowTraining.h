// Training an RLFlow agent as "World Models" does, with every real environment step counted:
//  1. a random agent plays real episodes (a uniform rule among those with a rewrite, then a
//     uniform location; stop with a small probability), the world model's data;
//  2. the encoder and world model learn from them (Adam, lr 8e-3 decayed linearly to lr/40);
//  3. the controller learns by PPO in dreams, episodes from each model's real first state, in
//     batches of `episodesPerUpdate`. The default dream never touches the real environment: the
//     first step takes its real state's listed mask and reward, and from then on the world model
//     predicts the action mask, the reward, done and the next z. `lockstep` is the
//     dream as published: the real environment takes the same actions to give the mask and done
//     (each of its steps counted); rewards and z are still dreamt. `branch` is MBPO's: each dream
//     starts from a real state of the world model's data (drawn uniformly, so no new real step)
//     and lasts at most `branchLength` steps, so the model's errors compound over few steps; a
//     branch cut short by its length bootstraps from the controller's value there, as MBPO does.
// The controller may be evaluated by argmax play on the real models (counted too) after every few
// updates; it keeps the weights that evaluated best.
#pragma once

#include "rl/GraphEpisodes.h"
#include "rlflow/RlflowAgent.h"
#include "xrlflow/XrlflowTraining.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tessera {

enum class DreamMode { Imagined, Lockstep, Branch };

// "imagined", "lockstep" or "branch"; throws tessera::Error naming anything else.
DreamMode dreamModeNamed(const std::string& name);
const char* dreamModeName(DreamMode mode);

struct RlflowTrainingOptions {
  int worldModelEpisodes = 60;
  int worldModelUpdates = 200;      // Adam steps over batches of episodesPerUpdate episodes
  double worldModelLearningRate = 8e-3;
  double randomStopProbability = 0.02;
  int dreamEpisodes = 2200;
  int dreamHorizon = 0;             // 0: the agent's horizon
  double temperature = 1.0;         // scales the mixture's logits in a dream
  DreamMode dream = DreamMode::Imagined;
  int branchLength = 5;             // dream=branch: the most imagined steps from a real state
  uint64_t seed = 1;                // of the random agent
  int evaluateEvery = 0;            // controller updates between real argmax evaluations; 0: none
  std::function<double(RlflowAgent&)> evaluate; // higher is better; the caller counts its real steps
  std::function<void(const std::string&)> progress;
  std::function<bool()> stopRequested;
  // The world model's data when it is collected elsewhere (launched shards); it must be what
  // collectSeededEpisodes(models, 0, worldModelEpisodes, …, seed) gives. Default: collected here.
  std::function<std::vector<WorldModelEpisode>(size_t& realSteps)> collect;
};

// A real episode of training: the world model's data, a lockstep dream's shadow, or an evaluation.
struct RealEpisodeRecord {
  std::string kind;  // "world-model", "lockstep", "evaluation"
  std::string label; // the model
  double reward = 0;
  int steps = 0;
  size_t realStepsAfter = 0; // real environment steps of the whole training once it ended
};

struct DreamEpisodeRecord {
  int episode = 0;
  std::string label;
  double reward = 0; // the dreamt return
  int steps = 0;
  // dream=branch: the controller's value of where a branch cut short by its length got to, which
  // the controller learns as part of its last reward (0 for a branch that stopped or ended).
  double bootstrapped = 0;
};

struct RlflowEvaluation {
  int afterDreamEpisode = 0;
  size_t realStepsAfter = 0;
  double score = 0;
};

struct RlflowTrainingReport {
  std::vector<RealEpisodeRecord> realEpisodes;
  std::vector<DreamEpisodeRecord> dreams;
  std::vector<WorldModelLosses> worldModel; // per update
  std::vector<PpoUpdateStats> updates;
  std::vector<RlflowEvaluation> evaluations;
  std::optional<RlflowEvaluation> best;
  size_t realSteps = 0;
  double seconds = 0;
};

// Real episodes of a uniformly random agent (the world model's data); `realSteps` counts them.
std::vector<WorldModelEpisode> collectRandomEpisodes(GraphEpisodes& models, int episodes, int rules, double stopProbability,
                                                     std::mt19937_64& random, size_t& realSteps,
                                                     const std::function<void(const std::string&)>& progress = {});

// Real episodes first … first+count-1 of a uniformly random agent, episode e on a random stream of
// its own seeded by (seed, e): any split of the episodes into ranges, collected in any process,
// gives the same data as one range.
std::vector<WorldModelEpisode> collectSeededEpisodes(GraphEpisodes& models, int first, int count, int rules, double stopProbability,
                                                     uint64_t seed, size_t& realSteps,
                                                     const std::function<void(const std::string&)>& progress = {});

// Trains `agent` from scratch; `realSteps` counts every real step it takes, evaluations included
// when `options.evaluate` adds its own to it.
RlflowTrainingReport trainRlflow(RlflowAgent& agent, GraphEpisodes& models, const RlflowTrainingOptions& options, size_t& realSteps);

// For each model: the speedup (%) of the cheapest graph an argmax episode passes through (what the
// rlflow strategy returns), with `models` built with argmaxOptionsFor; `realSteps` counts them.
std::vector<double> rlflowArgmaxSpeedups(RlflowAgent& agent, GraphEpisodes& models, size_t& realSteps,
                                         std::vector<double>* rewards = nullptr);

} // namespace tessera
