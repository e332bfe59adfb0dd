#include "puct/PuctNetwork.h"

namespace tessera {

namespace {
constexpr int kRuleEmbedding = 16;
constexpr int kHeadHidden = 64;
// The value head's output is in tens of points: speedups of 0 to 50 points stay near unit scale.
constexpr double kValueScale = 10.0;

// The logit of a rule that cannot act, so the softmax gives it nothing.
constexpr float kNoLogit = -1e9f;

torch::Tensor logPriorsOf(const torch::Tensor& logits, const torch::Tensor& mask) {
  return torch::log_softmax(logits, 1).masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
}

torch::Tensor floats(const std::vector<float>& values, std::vector<int64_t> shape) {
  return torch::from_blob(const_cast<float*>(values.data()), shape, torch::kFloat32).clone();
}
} // namespace

PuctNetworkImpl::PuctNetworkImpl(int rules, int opKinds, int nodeFigures, int globalFeatures) : rules_(rules) {
  encoder_ = register_module("encoder", GraphEncoder(opKinds, nodeFigures, globalFeatures));
  ruleEmbedding_ = register_module("rule_embedding", torch::nn::Embedding(rules, kRuleEmbedding));
  const int priorInputs = kRlflowLatent + kRuleEmbedding + kPuctRuleFeatures + kPuctStateFeatures;
  priorHead_ = register_module("prior_head", torch::nn::Sequential(torch::nn::Linear(priorInputs, kHeadHidden), torch::nn::ReLU(),
                                                                   torch::nn::Linear(kHeadHidden, 1)));
  const int valueInputs = kRlflowLatent + kPuctStateFeatures + kPuctRuleFeatures;
  valueHead_ = register_module("value_head", torch::nn::Sequential(torch::nn::Linear(valueInputs, kHeadHidden), torch::nn::ReLU(),
                                                                   torch::nn::Linear(kHeadHidden, 1)));
}

PuctOutput PuctNetworkImpl::forward(const std::vector<const PuctInput*>& batch) {
  const auto n = static_cast<int64_t>(batch.size());
  std::vector<const Observation*> observations;
  std::vector<float> ruleFeatures, stateFeatures, canAct;
  for (const PuctInput* input : batch) {
    observations.push_back(&input->observation);
    ruleFeatures.insert(ruleFeatures.end(), input->ruleFeatures.begin(), input->ruleFeatures.end());
    stateFeatures.insert(stateFeatures.end(), input->stateFeatures.begin(), input->stateFeatures.end());
    for (uint8_t can : input->canAct) canAct.push_back(can ? 1.0f : 0.0f);
  }
  const torch::Tensor z = encoder_->forward(observations);                                // [n, 32]
  const torch::Tensor rules = floats(ruleFeatures, {n, rules_, kPuctRuleFeatures});       // [n, R, 3]
  const torch::Tensor state = floats(stateFeatures, {n, kPuctStateFeatures});             // [n, 2]
  const torch::Tensor mask = floats(canAct, {n, rules_}) > 0.5f;                          // [n, R]
  const torch::Tensor embeddings = ruleEmbedding_->weight.unsqueeze(0).expand({n, rules_, kRuleEmbedding});
  const torch::Tensor perRule = torch::cat({z.unsqueeze(1).expand({n, rules_, kRlflowLatent}), embeddings, rules,
                                            state.unsqueeze(1).expand({n, rules_, kPuctStateFeatures})},
                                           2);
  const torch::Tensor logits = priorHead_->forward(perRule).squeeze(2).masked_fill(mask.logical_not(), kNoLogit);
  PuctOutput output;
  output.logPriors = logPriorsOf(logits, mask);
  output.value = value(z, state, rules);
  return output;
}

PuctOutput PuctNetworkImpl::evaluate(const PuctInput& input) {
  std::vector<int64_t> acting;
  for (size_t r = 0; r < input.canAct.size(); ++r)
    if (input.canAct[r]) acting.push_back(static_cast<int64_t>(r));
  const auto k = static_cast<int64_t>(acting.size());
  const torch::Tensor z = encoder_->forward({&input.observation});                              // [1, 32]
  const torch::Tensor rules = floats(input.ruleFeatures, {1, rules_, kPuctRuleFeatures});       // [1, R, 3]
  const torch::Tensor state = floats(input.stateFeatures, {1, kPuctStateFeatures});             // [1, 2]
  const torch::Tensor index = torch::tensor(acting, torch::kInt64);                             // [k]
  // Shaped [1, k, ...] as forward()'s [1, R, ...], so each Linear takes the same path (matmul, then the bias).
  const torch::Tensor perRule = torch::cat({z.unsqueeze(1).expand({1, k, kRlflowLatent}), ruleEmbedding_->weight.index_select(0, index).unsqueeze(0),
                                            rules.index_select(1, index), state.unsqueeze(1).expand({1, k, kPuctStateFeatures})},
                                           2);
  torch::Tensor logits = torch::full({1, rules_}, kNoLogit);
  logits.index_put_({0, index}, priorHead_->forward(perRule).squeeze(2)[0]);
  torch::Tensor mask = torch::zeros({1, rules_}, torch::kBool);
  mask.index_put_({0, index}, true);
  PuctOutput output;
  output.logPriors = logPriorsOf(logits, mask);
  output.value = value(z, state, rules);
  return output;
}

torch::Tensor PuctNetworkImpl::value(const torch::Tensor& z, const torch::Tensor& state, const torch::Tensor& rules) {
  return kValueScale * valueHead_->forward(torch::cat({z, state, rules.mean(1)}, 1)).squeeze(1);
}

} // namespace tessera
