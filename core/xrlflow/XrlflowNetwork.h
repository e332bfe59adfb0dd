// X-RLflow's network in libtorch: a graph attention encoder run once per state, one head shared
// by every candidate rewrite (so no fixed number of action slots), and a value head.
//
// Encoder: each op row is embedded from its op kind and its cost/shape figures, then
// `messagePassingSteps` GAT layers (single head, attention from the sender's and receiver's
// embeddings, softmax over each receiver's incoming edges, with a residual connection so five
// layers do not wash the location out); the graph embedding is a linear map of the mean and max of
// the rows and the state's global features (the original's global update after its GAT layers).
// Candidate logit: head(graph embedding, mean embedding of the rows it rewrites, its rule's
// embedding, its cost figures) + greedyPrior x its saving or detourPrior x its extra cost, each
// over the state's largest cost change.
// Stop is one more candidate: the pack's last rule embedding, no rows, no cost change, plus a
// learned bias (stopPrior).
// Only XrlflowNetwork.cpp and XrlflowAgent.cpp include this header: libtorch compiles slowly.
#pragma once

#include "rl/AgentConfig.h"
#include "rl/Observation.h"

#include <torch/torch.h>

#include <vector>

namespace tessera {

class GatLayerImpl : public torch::nn::Module {
public:
  explicit GatLayerImpl(int width);
  torch::Tensor forward(const torch::Tensor& rows, const torch::Tensor& senders, const torch::Tensor& receivers);

private:
  torch::nn::Linear query_{nullptr};
  torch::nn::Linear attentionFromSender_{nullptr};
  torch::nn::Linear attentionFromReceiver_{nullptr};
};
TORCH_MODULE(GatLayer);

// What the network says about one state: a logit per action (candidates, then stop) and the
// state's value.
struct PolicyOutput {
  torch::Tensor logits;
  torch::Tensor value;
};

class XrlflowNetworkImpl : public torch::nn::Module {
public:
  explicit XrlflowNetworkImpl(const AgentConfig& config);
  // One output per observation. The graphs of a batch are encoded together, as one graph with
  // as many components, which is much faster than one at a time for a PPO minibatch.
  std::vector<PolicyOutput> forward(const std::vector<const Observation*>& batch);
  PolicyOutput forward(const Observation& observation) { return forward(std::vector<const Observation*>{&observation}).front(); }
  // Re-draws every weight from `generator` (uniform +-1/sqrt(fan-in), as torch's Linear does), so an
  // agent's start depends on its seed alone, not on the process's global generator.
  void initialise(at::Generator& generator);

private:
  torch::Tensor encodeRows(const std::vector<const Observation*>& batch, std::vector<int64_t>& firstRow);
  torch::Tensor candidateInputs(const Observation& observation, const torch::Tensor& rows, const torch::Tensor& graphEmbedding,
                                torch::Tensor& normalisedDrop);

  AgentConfig config_;
  torch::nn::Embedding opEmbedding_{nullptr};
  torch::nn::Linear figureEmbedding_{nullptr};
  torch::nn::ModuleList gatLayers_{nullptr};
  torch::nn::Linear globalUpdate_{nullptr};
  torch::nn::Embedding ruleEmbedding_{nullptr};
  torch::nn::Sequential candidateHead_{nullptr};
  torch::nn::Sequential valueHead_{nullptr};
  torch::Tensor greedyPrior_;
  torch::Tensor detourPrior_;
  torch::Tensor stopPrior_;
};
TORCH_MODULE(XrlflowNetwork);

} // namespace tessera
