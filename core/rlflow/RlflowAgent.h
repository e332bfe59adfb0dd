// An RLFlow agent: the encoder V, the world model M and the controller C (rlflow/RlflowNetworks.h)
// with how each learns, how the controller acts (in a dream or in the real environment) and how
// the three are saved, as one checkpoint of kind "rlflow" in core/rl's checkpoint format. The
// header keeps libtorch out of its users (a pointer to the implementation).
#pragma once

#include "rewrite/Rule.h"
#include "rl/AgentConfig.h"
#include "rl/CheckpointFile.h"
#include "rl/Observation.h"
#include "rlflow/RlflowActions.h"
#include "xrlflow/XrlflowAgent.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera {

using Latent = std::vector<float>; // z, kRlflowLatent numbers

// One real episode as the world model learns from it: states[t] --actions[t]--> states[t + 1].
struct WorldModelEpisode {
  std::string model;
  std::vector<Observation> states; // one more than actions
  std::vector<RlflowAction> actions;
  std::vector<double> rewards;
  std::vector<bool> done;
};

struct WorldModelLosses {
  double total = 0;
  double latentNll = 0; // the mixture's negative log-likelihood of the next z, per transition
  double reward = 0;    // mean absolute error
  double listedReward = 0; // mean squared error over every rewrite the states list (format 3; 0 before)
  double done = 0;      // binary cross-entropy
  double mask = 0;      // the mask head's losses
};

// How well the world model predicts real episodes, teacher-forced (each step from the real z).
struct WorldModelScores {
  size_t transitions = 0;
  size_t states = 0;
  double latentNll = 0;       // per transition, nats over the 32 numbers of z
  double rewardMae = 0;
  double meanAbsReward = 0;   // the scale the MAE is judged against
  // The reward of every rewrite the states list, not only the ones taken (format 3 reads a
  // reward per rewrite; 0 rewrites before, whose reward comes from the LSTM's memory).
  size_t listedRewrites = 0;
  double listedRewardMae = 0;
  double meanAbsListedReward = 0;
  double doneAccuracy = 0;
  double maskAccuracy = 0;    // (state, rule) pairs whose "has a rewrite" is predicted right
  double allAbsentAccuracy = 0; // what maskAccuracy a mask of no rewrite at all would score: most pairs have none
  double presentRecall = 0;   // (state, rule) pairs with a rewrite that the mask predicts present
  double presentPrecision = 0; // pairs predicted present that have a rewrite
  double maskExact = 0;       // states whose every rule's presence is right
  double locationAccuracy = 0; // present rules whose location count is predicted exactly
  double actionOffered = 0;   // transitions whose action the predicted mask of its state offers (a dream could take it)
  double imaginedRecall = 0;    // presentRecall of the next state's mask read from the predicted next z (what a dream sees)
  double imaginedPrecision = 0; // presentPrecision of the same
};

// The LSTM's memory in a dream.
struct DreamMemory {
  std::vector<float> hidden, cell;
};

struct DreamStep {
  Latent next;
  double reward = 0;
  bool done = false;
};

struct RlflowDecision {
  RlflowAction action;
  double logProbability = 0;
  double value = 0;
};

class RlflowAgent {
public:
  static constexpr const char* kName = "rlflow";
  // The networks' layout its checkpoints hold (CheckpointHeader::agentFormat); new agents have the
  // last, and older checkpoints still load. 1: the encoder reads the graph alone. 2: the encoder
  // also reads the state's listed rewrites, and a new controller starts exactly greedy. 3: the
  // world model reads a step's reward from its z and action and learns it from every listed
  // rewrite of every real state.
  static constexpr int kFormat = 3;

  // A new agent with weights drawn from `seed`; `config` names the feature and rule counts
  // (rlflowConfigFor).
  RlflowAgent(const AgentConfig& config, uint64_t seed, int format = kFormat);
  // Reads a checkpoint written by save(); throws tessera::Error naming the file when it is
  // malformed, truncated, not an RLFlow agent (an X-RLflow one says so), of another rule pack or
  // of a format this build does not know.
  static RlflowAgent load(const std::string& path, std::span<const Rule* const> rules, uint64_t seed);
  RlflowAgent(RlflowAgent&&) noexcept;
  RlflowAgent& operator=(RlflowAgent&&) noexcept;
  ~RlflowAgent();

  void save(const std::string& path, CheckpointHeader header) const;
  const AgentConfig& config() const;
  const CheckpointHeader& loadedFrom() const;
  std::string weights() const;
  void restoreWeights(const std::string& weights);

  // V.
  Latent encode(const Observation& observation);

  // M: one Adam step on a batch of episodes (the encoder learns with it; the next z is a fixed
  // target, so z cannot collapse to a constant to make itself easy to predict).
  WorldModelLosses trainWorldModel(std::span<const WorldModelEpisode> batch, double learningRate);
  WorldModelScores scoreWorldModel(std::span<const WorldModelEpisode> episodes);
  ActionMask predictMask(const Latent& z);
  DreamMemory dreamStart() const;
  // One imagined step: the mixture's component is drawn with its logits over `temperature`, and
  // its mean is the next z.
  DreamStep dream(DreamMemory& memory, const Latent& z, const RlflowAction& action, double temperature);

  // C.
  RlflowDecision decide(const Latent& z, const ActionMask& mask, bool explore);
  // The controller's value of a state: what a dream cut short by its length bootstraps from.
  double value(const Latent& z);
  void record(const Latent& z, const ActionMask& mask, const RlflowDecision& decision, double reward, bool done);
  size_t recorded() const;
  PpoUpdateStats update();
  // The controller in a real state: a probability per candidate (its rule's times its location's;
  // candidates past kRlflowLocations get none) and stop, the action the most probable one.
  AgentDecision decideReal(const Observation& observation);

private:
  struct State;
  explicit RlflowAgent(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The settings of an RLFlow agent for a pack of `rules` rules: X-RLflow's AgentConfig with the
// controller's PPO numbers as RLFlow publishes them (lr 1e-3, clip 0.2, gamma 0.99, lambda 1.0).
AgentConfig rlflowConfigFor(size_t rules);

} // namespace tessera
