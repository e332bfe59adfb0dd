// The PUCT agent's network in libtorch: RLFlow's graph encoder (rlflow/RlflowNetworks.h, z = 32)
// reads the best extraction's graph; a prior head scores each rule from z, the rule's embedding,
// its features and the state's; a value head predicts the speedup still reachable from z and the
// state's features with the mean of the rules'. The graphs of a batch are encoded together.
// Only PuctNetwork.cpp and PuctAgent.cpp include this header: libtorch compiles slowly.
#pragma once

#include "puct/PuctFeatures.h"
#include "rlflow/RlflowNetworks.h"

#include <torch/torch.h>

#include <vector>

namespace tessera {

struct PuctOutput {
  torch::Tensor logPriors; // [batch, rules]: log-softmax over the rules that can act, -inf elsewhere
  torch::Tensor value;     // [batch]: percentage points of the original cost still to gain
};

class PuctNetworkImpl : public torch::nn::Module {
public:
  PuctNetworkImpl(int rules, int opKinds, int nodeFigures, int globalFeatures);
  // Every input must have a rule that can act.
  PuctOutput forward(const std::vector<const PuctInput*>& batch);
  // The same for one state, as a search asks (no gradients): the prior head scores only the rules
  // that can act, whose priors are the only ones not forced to 0, so the answer is forward()'s to
  // the bit (each row of a Linear is computed on its own) at a fraction of the cost.
  PuctOutput evaluate(const PuctInput& input);

private:
  torch::Tensor value(const torch::Tensor& z, const torch::Tensor& state, const torch::Tensor& rules);

  int rules_;
  GraphEncoder encoder_{nullptr};
  torch::nn::Embedding ruleEmbedding_{nullptr};
  torch::nn::Sequential priorHead_{nullptr};
  torch::nn::Sequential valueHead_{nullptr};
};
TORCH_MODULE(PuctNetwork);

} // namespace tessera
