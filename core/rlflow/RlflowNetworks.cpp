#include "rlflow/RlflowNetworks.h"

#include "rlflow/RlflowActions.h"

#include <cmath>
#include <functional>
#include <numbers>

namespace tessera {

namespace {

constexpr int kOpEmbedding = 8;
constexpr int kGraphLayer = 8;  // the edge and node MLPs' widths
constexpr int kRewriteWidth = 32; // the listed rewrites' model
constexpr int kControllerWidth = 32;
constexpr int kRuleEmbedding = 16;
constexpr int kMaskHidden = 128;
constexpr int kStepInput = kRuleEmbedding + kRlflowLocations + kRlflowLatent; // (rule, location, z)

torch::Tensor indices(const std::vector<int32_t>& values) {
  return torch::tensor(std::vector<int64_t>(values.begin(), values.end()), torch::kLong);
}

torch::Tensor floats(const std::vector<float>& values, std::vector<int64_t> shape) {
  return torch::tensor(values, torch::kFloat).reshape(shape);
}

// Linear -> ReLU -> Linear -> LayerNorm, as graph_nets' models build their MLPs.
torch::nn::Sequential normalisedMlp(int in, int hidden, int out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(), torch::nn::Linear(hidden, out),
                               torch::nn::LayerNorm(torch::nn::LayerNormOptions({out})));
}

torch::nn::Sequential mlp(int in, int hidden, int out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::Tanh(), torch::nn::Linear(hidden, hidden), torch::nn::Tanh(),
                               torch::nn::Linear(hidden, out));
}

torch::Tensor sumInto(const torch::Tensor& values, const torch::Tensor& index, int64_t rows) {
  return torch::zeros({rows, values.size(1)}).index_add(0, index, values);
}

} // namespace

GraphEncoderImpl::GraphEncoderImpl(int opKinds, int nodeFigures, int globalFeatures, int rules, bool readsRewrites)
    : nodeFigures_(nodeFigures), globalFeatures_(globalFeatures) {
  const int node = kOpEmbedding + nodeFigures;
  opEmbedding_ = register_module("op_embedding", torch::nn::Embedding(opKinds, kOpEmbedding));
  edgeModel_ = register_module("edge_model", normalisedMlp(2 * node + globalFeatures, kGraphLayer, kGraphLayer));
  nodeModel_ = register_module("node_model", normalisedMlp(node + kGraphLayer + globalFeatures, kGraphLayer, kGraphLayer));
  if (readsRewrites) {
    rewriteRuleEmbedding_ = register_module("rewrite_rule_embedding", torch::nn::Embedding(rules, kRuleEmbedding));
    rewriteModel_ = register_module("rewrite_model", normalisedMlp(kRuleEmbedding + 2, kRewriteWidth, kRewriteWidth));
  }
  const int pooled = 2 * kGraphLayer + (readsRewrites ? 2 * kRewriteWidth : 0) + globalFeatures;
  globalModel_ = register_module("global_model", normalisedMlp(pooled, kRlflowLatent, kRlflowLatent));
}

torch::Tensor GraphEncoderImpl::forward(const std::vector<const Observation*>& batch) {
  std::vector<int32_t> ops, senders, receivers, graphOfRow, graphOfEdge;
  std::vector<float> figures, globals;
  int32_t offset = 0;
  for (size_t b = 0; b < batch.size(); ++b) {
    const GraphObservation& graph = batch[b]->graph;
    ops.insert(ops.end(), graph.ops.begin(), graph.ops.end());
    figures.insert(figures.end(), graph.figures.begin(), graph.figures.end());
    globals.insert(globals.end(), graph.globals.begin(), graph.globals.end());
    for (int32_t sender : graph.senders) senders.push_back(sender + offset);
    for (int32_t receiver : graph.receivers) receivers.push_back(receiver + offset);
    graphOfRow.insert(graphOfRow.end(), static_cast<size_t>(graph.nodes), static_cast<int32_t>(b));
    graphOfEdge.insert(graphOfEdge.end(), graph.senders.size(), static_cast<int32_t>(b));
    offset += static_cast<int32_t>(graph.nodes);
  }
  const auto graphs = static_cast<int64_t>(batch.size());
  const int64_t rows = offset;
  const torch::Tensor global = floats(globals, {graphs, globalFeatures_});
  const torch::Tensor rowGraph = indices(graphOfRow), edgeGraph = indices(graphOfEdge);
  const torch::Tensor nodes = torch::cat({opEmbedding_(indices(ops)), floats(figures, {rows, nodeFigures_})}, 1);
  const torch::Tensor senderRows = indices(senders), receiverRows = indices(receivers);

  // One pass of the block: edges from their ends and the graph, nodes from their incoming edges,
  // the graph from the sums of both (and of the listed rewrites).
  const torch::Tensor edges =
      edgeModel_->forward(torch::cat({nodes.index_select(0, senderRows), nodes.index_select(0, receiverRows), global.index_select(0, edgeGraph)}, 1));
  const torch::Tensor updatedNodes =
      nodeModel_->forward(torch::cat({nodes, sumInto(edges, receiverRows, rows), global.index_select(0, rowGraph)}, 1));
  std::vector<torch::Tensor> pooled{sumInto(updatedNodes, rowGraph, graphs), sumInto(edges, edgeGraph, graphs)};
  if (!rewriteModel_.is_empty()) pooled.push_back(pooledRewrites(batch));
  pooled.push_back(global);
  return globalModel_->forward(torch::cat(pooled, 1));
}

torch::Tensor GraphEncoderImpl::pooledRewrites(const std::vector<const Observation*>& batch) {
  std::vector<int32_t> rules, graphOfRewrite;
  std::vector<float> changes;
  auto signedLog = [](float x) { return std::copysign(std::log1p(std::abs(x)), x); };
  for (size_t b = 0; b < batch.size(); ++b)
    for (const CandidateObservation& c : batch[b]->candidates) {
      rules.push_back(c.rule);
      graphOfRewrite.push_back(static_cast<int32_t>(b));
      changes.push_back(signedLog(c.costDeltaPct));
      changes.push_back(signedLog(c.opDelta));
    }
  const auto graphs = static_cast<int64_t>(batch.size()), count = static_cast<int64_t>(rules.size());
  const torch::Tensor graph = indices(graphOfRewrite);
  const torch::Tensor rewrites =
      count == 0 ? torch::zeros({0, kRewriteWidth})
                 : rewriteModel_->forward(torch::cat({rewriteRuleEmbedding_(indices(rules)), floats(changes, {count, 2})}, 1));
  // Sum and max: how much of each kind a state offers, and whether it offers one at all (a state
  // that offers none keeps zeros). Each state's rewrites are one run of rows, so its max is the
  // max of its slice (libtorch 1.13's index_reduce would do it too, but warns on every call that it
  // is in beta).
  if (graphs == 0) return torch::zeros({0, 2 * kRewriteWidth});
  std::vector<torch::Tensor> maxima;
  int64_t first = 0;
  for (int64_t b = 0; b < graphs; ++b) {
    int64_t end = first;
    while (end < count && graphOfRewrite[static_cast<size_t>(end)] == b) ++end;
    maxima.push_back(end > first ? std::get<0>(rewrites.slice(0, first, end).max(0)) : torch::zeros({kRewriteWidth}));
    first = end;
  }
  return torch::cat({sumInto(rewrites, graph, graphs), torch::stack(maxima)}, 1);
}

WorldModelImpl::WorldModelImpl(int rules, bool rewardPerRewrite) : rules_(rules) {
  ruleEmbedding_ = register_module("rule_embedding", torch::nn::Embedding(rules + 1, kRuleEmbedding));
  lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(kStepInput, kRlflowLstm)
                                                      .batch_first(true)));
  mixture_ = register_module("mixture", torch::nn::Linear(kRlflowLstm, kRlflowGaussians * (2 * kRlflowLatent + 1)));
  if (rewardPerRewrite)
    rewriteReward_ = register_module("rewrite_reward", torch::nn::Sequential(torch::nn::Linear(kStepInput, kMaskHidden), torch::nn::ReLU(),
                                                                            torch::nn::Linear(kMaskHidden, kMaskHidden), torch::nn::ReLU(),
                                                                            torch::nn::Linear(kMaskHidden, 1)));
  else
    reward_ = register_module("reward", torch::nn::Linear(kRlflowLstm, 1));
  done_ = register_module("done", torch::nn::Linear(kRlflowLstm, 1));
  // Presence and location share of every rule, and (without the rewrite reward head) its best saving.
  const int maskOutputs = (rewardPerRewrite ? 2 : 3) * rules;
  maskHead_ = register_module("mask_head", torch::nn::Sequential(torch::nn::Linear(kRlflowLatent, kMaskHidden), torch::nn::ReLU(),
                                                                 torch::nn::Linear(kMaskHidden, kMaskHidden), torch::nn::ReLU(),
                                                                 torch::nn::Linear(kMaskHidden, maskOutputs)));
}

torch::Tensor WorldModelImpl::rewriteReward(const torch::Tensor& inputs) { return rewriteReward_->forward(inputs).squeeze(-1); }

torch::Tensor WorldModelImpl::stepInput(const torch::Tensor& rules, const torch::Tensor& locations, const torch::Tensor& z) {
  return torch::cat({ruleEmbedding_(rules), torch::one_hot(locations, kRlflowLocations).to(torch::kFloat), z}, -1);
}

std::tuple<torch::Tensor, torch::Tensor> WorldModelImpl::initialState(int64_t batch) const {
  return {torch::zeros({1, batch, kRlflowLstm}), torch::zeros({1, batch, kRlflowLstm})};
}

WorldModelOutput WorldModelImpl::forward(const torch::Tensor& inputs, std::tuple<torch::Tensor, torch::Tensor>& state) {
  auto [hidden, next] = lstm_->forward(inputs, state);
  state = next;
  const torch::Tensor mixture = mixture_(hidden);
  std::vector<int64_t> shape = hidden.sizes().vec();
  shape.pop_back();
  std::vector<int64_t> componentShape = shape;
  componentShape.push_back(kRlflowGaussians);
  componentShape.push_back(kRlflowLatent);
  const int64_t spread = kRlflowGaussians * kRlflowLatent;
  WorldModelOutput output;
  output.means = mixture.narrow(-1, 0, spread).reshape(componentShape);
  output.logSigmas = mixture.narrow(-1, spread, spread).reshape(componentShape).clamp(-7.0, 3.0);
  output.logWeights = torch::log_softmax(mixture.narrow(-1, 2 * spread, kRlflowGaussians), -1);
  output.reward = readsRewardPerRewrite() ? rewriteReward(inputs) : reward_(hidden).squeeze(-1);
  output.doneLogit = done_(hidden).squeeze(-1);
  return output;
}

MaskPrediction WorldModelImpl::mask(const torch::Tensor& z, bool withSavings) {
  const torch::Tensor out = maskHead_->forward(z);
  MaskPrediction prediction{out.narrow(-1, 0, rules_), torch::sigmoid(out.narrow(-1, rules_, rules_)), {}};
  if (!readsRewardPerRewrite()) {
    prediction.bestSaving = out.narrow(-1, 2 * rules_, rules_);
    return prediction;
  }
  if (!withSavings) return prediction;
  // Each rule's first location (its cheapest rewrite) as the reward head prices it.
  const int64_t states = z.size(0);
  const torch::Tensor everyRule = torch::arange(rules_, torch::kLong).unsqueeze(0).expand({states, rules_});
  prediction.bestSaving = rewriteReward(stepInput(everyRule, torch::zeros_like(everyRule), z.unsqueeze(1).expand({states, rules_, kRlflowLatent})));
  return prediction;
}

torch::Tensor mixtureNegativeLogLikelihood(const WorldModelOutput& output, const torch::Tensor& target) {
  const torch::Tensor y = target.unsqueeze(-2); // against every component
  const torch::Tensor standardised = (y - output.means) * torch::exp(-output.logSigmas);
  const torch::Tensor perComponent =
      (-0.5 * standardised.pow(2) - output.logSigmas - 0.5 * std::log(2 * std::numbers::pi)).sum(-1) + output.logWeights;
  return -torch::logsumexp(perComponent, -1);
}

ControllerImpl::ControllerImpl(int rules, double greedyPrior, double stopPrior) : rules_(rules) {
  ruleHead_ = register_module("rule_head", mlp(kRlflowLatent, kControllerWidth, rules + 1));
  ruleEmbedding_ = register_module("rule_embedding", torch::nn::Embedding(rules + 1, kRuleEmbedding));
  locationHead_ = register_module("location_head", mlp(kRlflowLatent + kRuleEmbedding, kControllerWidth, kRlflowLocations));
  valueHead_ = register_module("value_head", mlp(kRlflowLatent, kControllerWidth, 1));
  greedyPrior_ = register_parameter("greedy_prior", torch::full({1}, greedyPrior));
  stopPrior_ = register_parameter("stop_prior", torch::full({1}, stopPrior));
  // Cheapest first: the untrained location head prefers a rule's cheapest rewrite.
  locationPrior_ = register_parameter("location_prior", -2.0 * torch::arange(kRlflowLocations, torch::kFloat));
}

ControllerOutput ControllerImpl::forward(const torch::Tensor& z, const torch::Tensor& present, const torch::Tensor& savings) {
  const torch::Tensor largest = savings.abs().amax(1, /*keepdim=*/true).clamp_min(1e-6);
  const torch::Tensor ruleLogits = ruleHead_->forward(z);
  torch::Tensor logits = ruleLogits.narrow(1, 0, rules_) + greedyPrior_ * savings / largest;
  logits = logits.masked_fill(present.logical_not(), -1e9);
  const torch::Tensor stop = ruleLogits.narrow(1, rules_, 1) + stopPrior_;
  return {torch::log_softmax(torch::cat({logits, stop}, 1), 1), value(z)};
}

torch::Tensor ControllerImpl::value(const torch::Tensor& z) { return valueHead_->forward(z).squeeze(-1); }

torch::Tensor ControllerImpl::locationLogProbabilities(const torch::Tensor& z, const torch::Tensor& rules, const torch::Tensor& locations) {
  const torch::Tensor logits = locationHead_->forward(torch::cat({z, ruleEmbedding_(rules)}, 1)) + locationPrior_;
  const torch::Tensor beyond = torch::arange(kRlflowLocations, torch::kLong).unsqueeze(0) >= locations.unsqueeze(1);
  return torch::log_softmax(logits.masked_fill(beyond, -1e9), 1);
}

void ControllerImpl::startGreedy() {
  torch::NoGradGuard noGrad;
  // A rule's cheapest location decisively: a candidate's probability is its rule's times its
  // location's, and with the mild prior a rule of many locations lost to one of a single location
  // whose saving was up to 2 % smaller (1/e^8 leaves ties within 0.005 %).
  locationPrior_.copy_(-8.0 * torch::arange(kRlflowLocations, torch::kFloat));
  for (torch::nn::Sequential& head : {std::ref(ruleHead_), std::ref(locationHead_)}) {
    auto* last = (*head)[head->size() - 1]->as<torch::nn::Linear>();
    last->weight.zero_();
    last->bias.zero_();
  }
}

void initialiseFrom(torch::nn::Module& module, at::Generator& generator) {
  torch::NoGradGuard noGrad;
  for (const std::shared_ptr<torch::nn::Module>& child : module.modules(/*include_self=*/false)) {
    if (auto* linear = child->as<torch::nn::Linear>()) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(linear->weight.size(1)));
      linear->weight.uniform_(-bound, bound, generator);
      if (linear->bias.defined()) linear->bias.uniform_(-bound, bound, generator);
    } else if (auto* embedding = child->as<torch::nn::Embedding>()) {
      embedding->weight.normal_(0, 1, generator);
    } else if (auto* lstm = child->as<torch::nn::LSTM>()) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(kRlflowLstm));
      for (torch::Tensor& parameter : lstm->parameters()) parameter.uniform_(-bound, bound, generator);
    }
  }
}

} // namespace tessera
