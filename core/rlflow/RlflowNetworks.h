// RLFlow's three networks in libtorch (Parker et al.; seanjparker/rlflow), as in "World Models":
//  V, GraphEncoder: one graph-network block (edge, node and global models, sum aggregation, one
//    pass; edge and node MLPs [8, 8] with LayerNorm, a global MLP of width 32) whose global output is
//    the latent z (32). Node input: the op kind (embedded) and the observation's cost and shape
//    figures; edges carry no features of their own here (the sender's figures hold its shapes);
//    global input: the state's global features (its cost among them). From format 2 on (RlflowAgent::
//    kFormat) the global model also reads the state's listed rewrites, each its rule (embedded) and
//    signed-log cost and op change through an MLP [32, 32] with LayerNorm, pooled by sum and max:
//    the graph alone gave a z from which a quarter of the matching rules could be read.
//  M, WorldModel: an MDN-RNN, an LSTM of 256 over (rule, location, z) that predicts the next z as a
//    mixture of 8 diagonal Gaussians, the reward and done; and a mask head that predicts, from z
//    alone, the state's action mask (which rules match, how many locations, the best saving), so
//    the default dream needs no real environment. From format 3 on the reward is not read from the
//    LSTM's memory but from the step's own input (z and the action) by a reward head that learns
//    from every rewrite each real state lists, not only the one taken; the mask's best saving per
//    rule is that head's reward of the rule's first location, so a dream's mask and its rewards
//    agree.
//  C, Controller: PPO on z alone, a rule head (rules and stop) then a location head given the rule,
//    MLPs [32, 32], with a value head. The rule logits add a learned prior times each rule's best
//    saving (over the state's largest), so the untrained controller starts greedy, as X-RLflow's;
//    its rule and location heads' last layers start at zero (startGreedy), so that it starts
//    exactly greedy, not near it.
// Only RlflowNetworks.cpp and RlflowAgent.cpp include this header: libtorch compiles slowly.
#pragma once

#include "rl/Observation.h"

#include <torch/torch.h>

#include <vector>

namespace tessera {

inline constexpr int kRlflowLatent = 32;
inline constexpr int kRlflowLstm = 256;
inline constexpr int kRlflowGaussians = 8;

class GraphEncoderImpl : public torch::nn::Module {
public:
  // `readsRewrites`: the state's listed rewrites (rule, cost and op change; rules below `rules`)
  // are pooled into z too. Without, the encoder of format 1 (PUCT's guide uses it too).
  GraphEncoderImpl(int opKinds, int nodeFigures, int globalFeatures, int rules = 0, bool readsRewrites = false);
  // One z per observation ([batch, 32]); the graphs are encoded together as one graph.
  torch::Tensor forward(const std::vector<const Observation*>& batch);

private:
  int nodeFigures_;
  int globalFeatures_;
  torch::nn::Embedding opEmbedding_{nullptr};
  // [batch, 2 x width]: the sum and max over each state's listed rewrites of the rewrite model.
  torch::Tensor pooledRewrites(const std::vector<const Observation*>& batch);

  torch::nn::Sequential edgeModel_{nullptr};
  torch::nn::Sequential nodeModel_{nullptr};
  torch::nn::Embedding rewriteRuleEmbedding_{nullptr};
  torch::nn::Sequential rewriteModel_{nullptr};
  torch::nn::Sequential globalModel_{nullptr};
};
TORCH_MODULE(GraphEncoder);

// The mixture over the next z and the scalars of a step, per batch row (and time step).
struct WorldModelOutput {
  torch::Tensor logWeights; // [..., K] log mixture weights
  torch::Tensor means;      // [..., K, 32]
  torch::Tensor logSigmas;  // [..., K, 32]
  torch::Tensor reward;     // [...]
  torch::Tensor doneLogit;  // [...]
};

// The predicted action mask of a state, per batch row.
struct MaskPrediction {
  torch::Tensor presentLogits; // [batch, rules]
  torch::Tensor locationShare; // [batch, rules]: locations / kRlflowLocations, in (0, 1)
  torch::Tensor bestSaving;    // [batch, rules]
};

class WorldModelImpl : public torch::nn::Module {
public:
  // `rewardPerRewrite`: the reward is read from each step's input by its own head (format 3).
  WorldModelImpl(int rules, bool rewardPerRewrite);
  // inputs [batch, time, input size] from stepInput; state: the LSTM's (h, c), updated.
  WorldModelOutput forward(const torch::Tensor& inputs, std::tuple<torch::Tensor, torch::Tensor>& state);
  // The LSTM input of actions `rules` / `locations` ([..., time], int64) from states z ([..., time, 32]).
  torch::Tensor stepInput(const torch::Tensor& rules, const torch::Tensor& locations, const torch::Tensor& z);
  bool readsRewardPerRewrite() const { return !rewriteReward_.is_empty(); }
  // The reward of each step input ([...] from [..., input size]); only with readsRewardPerRewrite().
  torch::Tensor rewriteReward(const torch::Tensor& inputs);
  // z [states, 32]. `withSavings` false leaves the best savings undefined where the reward head
  // would price every rule of every state (format 3), which training does not need.
  MaskPrediction mask(const torch::Tensor& z, bool withSavings = true);
  std::tuple<torch::Tensor, torch::Tensor> initialState(int64_t batch) const;

private:
  int rules_;
  torch::nn::Embedding ruleEmbedding_{nullptr};
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::Linear mixture_{nullptr};
  torch::nn::Linear reward_{nullptr};              // from the LSTM's output (formats 1 and 2)
  torch::nn::Sequential rewriteReward_{nullptr};   // from the step's input (format 3)
  torch::nn::Linear done_{nullptr};
  torch::nn::Sequential maskHead_{nullptr};
};
TORCH_MODULE(WorldModel);

// Log-probabilities of the controller's two heads and its value, for a batch of states.
struct ControllerOutput {
  torch::Tensor ruleLogProbabilities; // [batch, rules + 1], masked rules at -inf; the last is stop
  torch::Tensor value;                // [batch]
};

class ControllerImpl : public torch::nn::Module {
public:
  ControllerImpl(int rules, double greedyPrior, double stopPrior);
  // z [batch, 32]; present [batch, rules] (bool); savings [batch, rules] (% of the initial cost).
  ControllerOutput forward(const torch::Tensor& z, const torch::Tensor& present, const torch::Tensor& savings);
  // The value head alone ([batch]).
  torch::Tensor value(const torch::Tensor& z);
  // Location log-probabilities [batch, kRlflowLocations] given the chosen rules ([batch], int64),
  // masked beyond each rule's `locations` ([batch], int64, at least 1).
  torch::Tensor locationLogProbabilities(const torch::Tensor& z, const torch::Tensor& rules, const torch::Tensor& locations);
  // Zeroes the rule and location heads' last layers and makes the location prior decisive: the
  // logits are then the priors alone, the best saving's rule and its cheapest location, so the
  // controller plays greedy until it learns.
  void startGreedy();

private:
  int rules_;
  torch::nn::Sequential ruleHead_{nullptr};
  torch::nn::Embedding ruleEmbedding_{nullptr};
  torch::nn::Sequential locationHead_{nullptr};
  torch::nn::Sequential valueHead_{nullptr};
  torch::Tensor greedyPrior_;
  torch::Tensor stopPrior_;
  torch::Tensor locationPrior_;
};
TORCH_MODULE(Controller);

// The mixture's negative log-likelihood of `target` ([..., 32]), per row.
torch::Tensor mixtureNegativeLogLikelihood(const WorldModelOutput& output, const torch::Tensor& target);

// Re-draws `module`'s weights from `generator` (uniform +-1/sqrt(fan-in), LayerNorm at 1 and 0),
// so an agent's start depends on its seed alone.
void initialiseFrom(torch::nn::Module& module, at::Generator& generator);

} // namespace tessera
