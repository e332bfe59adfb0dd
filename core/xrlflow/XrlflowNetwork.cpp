#include "xrlflow/XrlflowNetwork.h"

#include <algorithm>
#include <cmath>

namespace tessera {

namespace {

constexpr double kLeak = 0.2;          // GAT's LeakyReLU slope
constexpr int kCandidateFigures = 3;   // cost change, normalised cost change, op change
constexpr float kCostChangeClamp = 50; // % of the model: beyond this one rewrite is an outlier
constexpr double kHeadOutputScale = 0.1; // the untrained head whispers, so the greedy prior speaks first

torch::Tensor leaky(const torch::Tensor& x) { return torch::leaky_relu(x, kLeak); }

// Row-major float data as a tensor the network may keep for backward (a copy: buffers move).
torch::Tensor floats(const std::vector<float>& data, std::vector<int64_t> shape) {
  return torch::from_blob(const_cast<float*>(data.data()), shape, torch::kFloat32).clone();
}

torch::Tensor indices(const std::vector<int32_t>& data) {
  return torch::from_blob(const_cast<int32_t*>(data.data()), {static_cast<int64_t>(data.size())}, torch::kInt32).to(torch::kInt64);
}

torch::nn::Sequential mlp(int in, int hidden, int hidden2) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(kLeak)),
                               torch::nn::Linear(hidden, hidden2), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(kLeak)),
                               torch::nn::Linear(hidden2, 1));
}

} // namespace

GatLayerImpl::GatLayerImpl(int width) {
  query_ = register_module("query", torch::nn::Linear(width, width));
  attentionFromSender_ = register_module("attention_sender", torch::nn::Linear(torch::nn::LinearOptions(width, 1).bias(false)));
  attentionFromReceiver_ = register_module("attention_receiver", torch::nn::Linear(width, 1));
}

torch::Tensor GatLayerImpl::forward(const torch::Tensor& rows, const torch::Tensor& senders, const torch::Tensor& receivers) {
  const int64_t n = rows.size(0);
  torch::Tensor h = query_(rows);
  // The attention logit of [h_s, h_r] through one linear map is the sum of a map of each.
  torch::Tensor score = leaky(attentionFromSender_(h).squeeze(1).index_select(0, senders) +
                              attentionFromReceiver_(h).squeeze(1).index_select(0, receivers));
  // Softmax over each receiver's incoming edges. Any constant may be taken off the scores first:
  // the largest keeps exp() finite (a receiver whose scores all underflow gets no message, not NaN).
  torch::Tensor weight = torch::exp(score - score.max().detach());
  torch::Tensor total = torch::zeros({n}).index_add(0, receivers, weight);
  torch::Tensor attention = weight / (total.index_select(0, receivers) + 1e-20f);
  torch::Tensor messages = torch::zeros_like(h).index_add(0, receivers, h.index_select(0, senders) * attention.unsqueeze(1));
  return rows + leaky(messages);
}

XrlflowNetworkImpl::XrlflowNetworkImpl(const AgentConfig& config) : config_(config) {
  const int h = config.hidden;
  opEmbedding_ = register_module("op_embedding", torch::nn::Embedding(config.opKinds, h));
  figureEmbedding_ = register_module("figure_embedding", torch::nn::Linear(config.nodeFigures, h));
  gatLayers_ = register_module("gat", torch::nn::ModuleList());
  for (int i = 0; i < config.messagePassingSteps; ++i) gatLayers_->push_back(GatLayer(h));
  globalUpdate_ = register_module("global_update", torch::nn::Linear(2 * h + config.globalFeatures, h));
  ruleEmbedding_ = register_module("rule_embedding", torch::nn::Embedding(config.rules + 1, config.ruleEmbedding));
  candidateHead_ = register_module("candidate_head", mlp(2 * h + config.ruleEmbedding + kCandidateFigures, config.headHidden, config.headHidden2));
  valueHead_ = register_module("value_head", mlp(h, config.headHidden, config.headHidden2));
  greedyPrior_ = register_parameter("greedy_prior", torch::full({1}, config.greedyPrior));
  detourPrior_ = register_parameter("detour_prior", torch::full({1}, config.detourPrior));
  stopPrior_ = register_parameter("stop_prior", torch::full({1}, config.stopPrior));
}

void XrlflowNetworkImpl::initialise(at::Generator& generator) {
  torch::NoGradGuard noGrad;
  for (const std::shared_ptr<torch::nn::Module>& module : modules(/*include_self=*/false)) {
    if (auto* linear = module->as<torch::nn::Linear>()) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(linear->weight.size(1)));
      linear->weight.uniform_(-bound, bound, generator);
      if (linear->bias.defined()) linear->bias.uniform_(-bound, bound, generator);
    } else if (auto* embedding = module->as<torch::nn::Embedding>()) {
      embedding->weight.normal_(0, 1, generator);
    }
  }
  auto* last = candidateHead_->ptr(candidateHead_->size() - 1)->as<torch::nn::Linear>();
  last->weight.mul_(kHeadOutputScale);
  last->bias.mul_(kHeadOutputScale);
  greedyPrior_.fill_(config_.greedyPrior);
  detourPrior_.fill_(config_.detourPrior);
  stopPrior_.fill_(config_.stopPrior);
}

// The rows of every graph of the batch after message passing; firstRow[b] is graph b's first row.
torch::Tensor XrlflowNetworkImpl::encodeRows(const std::vector<const Observation*>& batch, std::vector<int64_t>& firstRow) {
  std::vector<int32_t> ops, senders, receivers;
  std::vector<float> figures;
  firstRow.assign(1, 0);
  for (const Observation* observation : batch) {
    const GraphObservation& graph = observation->graph;
    const auto offset = static_cast<int32_t>(firstRow.back());
    ops.insert(ops.end(), graph.ops.begin(), graph.ops.end());
    figures.insert(figures.end(), graph.figures.begin(), graph.figures.end());
    for (int32_t sender : graph.senders) senders.push_back(sender + offset);
    for (int32_t receiver : graph.receivers) receivers.push_back(receiver + offset);
    firstRow.push_back(firstRow.back() + graph.nodes);
  }
  const int64_t n = firstRow.back();
  if (n == 0) return torch::zeros({0, config_.hidden});
  torch::Tensor rows = leaky(opEmbedding_(indices(ops)) + figureEmbedding_(floats(figures, {n, config_.nodeFigures})));
  const torch::Tensor senderRows = indices(senders), receiverRows = indices(receivers);
  for (const std::shared_ptr<torch::nn::Module>& layer : *gatLayers_) rows = layer->as<GatLayer>()->forward(rows, senderRows, receiverRows);
  return rows;
}

torch::Tensor XrlflowNetworkImpl::candidateInputs(const Observation& observation, const torch::Tensor& rows,
                                                  const torch::Tensor& graphEmbedding, torch::Tensor& normalisedDrop) {
  const std::vector<CandidateObservation>& candidates = observation.candidates;
  const int64_t actions = static_cast<int64_t>(candidates.size()) + 1; // the last is stop
  std::vector<int32_t> locationRows, locationOf, rules;
  std::vector<float> counts(actions, 0.0f), figures(actions * kCandidateFigures, 0.0f), drops(actions, 0.0f);
  float largestChange = 0;
  for (const CandidateObservation& candidate : candidates) largestChange = std::max(largestChange, std::abs(candidate.costDeltaPct));
  for (size_t c = 0; c < candidates.size(); ++c) {
    const CandidateObservation& candidate = candidates[c];
    for (int32_t row : candidate.rows) {
      locationRows.push_back(row);
      locationOf.push_back(static_cast<int32_t>(c));
    }
    counts[c] = static_cast<float>(candidate.rows.size());
    rules.push_back(candidate.rule);
    const float drop = largestChange > 0 ? -candidate.costDeltaPct / largestChange : 0.0f;
    figures[c * kCandidateFigures + 0] = std::clamp(candidate.costDeltaPct, -kCostChangeClamp, kCostChangeClamp);
    figures[c * kCandidateFigures + 1] = drop;
    figures[c * kCandidateFigures + 2] = candidate.opDelta / 8.0f;
    drops[c] = drop;
  }
  rules.push_back(config_.rules); // stop's own embedding

  torch::Tensor location = torch::zeros({actions, config_.hidden});
  if (!locationRows.empty())
    location = location.index_add(0, indices(locationOf), rows.index_select(0, indices(locationRows)));
  location = location / floats(counts, {actions, 1}).clamp_min(1.0f);
  normalisedDrop = floats(drops, {actions});
  return torch::cat({graphEmbedding.unsqueeze(0).expand({actions, config_.hidden}), location, ruleEmbedding_(indices(rules)),
                     floats(figures, {actions, kCandidateFigures})},
                    1);
}

std::vector<PolicyOutput> XrlflowNetworkImpl::forward(const std::vector<const Observation*>& batch) {
  std::vector<int64_t> firstRow;
  torch::Tensor rows = encodeRows(batch, firstRow);
  std::vector<torch::Tensor> pooled;
  for (size_t b = 0; b < batch.size(); ++b) {
    const int64_t count = firstRow[b + 1] - firstRow[b];
    torch::Tensor globals = floats(batch[b]->graph.globals, {config_.globalFeatures});
    if (count == 0) {
      pooled.push_back(torch::cat({torch::zeros({2 * config_.hidden}), globals}));
      continue;
    }
    torch::Tensor own = rows.narrow(0, firstRow[b], count);
    pooled.push_back(torch::cat({own.mean(0), std::get<0>(own.max(0)), globals}));
  }
  torch::Tensor graphEmbeddings = leaky(globalUpdate_(torch::stack(pooled)));

  std::vector<torch::Tensor> inputs, drops;
  std::vector<float> isStop;
  for (size_t b = 0; b < batch.size(); ++b) {
    torch::Tensor drop;
    inputs.push_back(candidateInputs(*batch[b], rows.narrow(0, firstRow[b], firstRow[b + 1] - firstRow[b]), graphEmbeddings[static_cast<int64_t>(b)], drop));
    drops.push_back(drop);
    isStop.insert(isStop.end(), batch[b]->candidates.size(), 0.0f);
    isStop.push_back(1.0f);
  }
  torch::Tensor drop = torch::cat(drops);
  torch::Tensor logits = candidateHead_->forward(torch::cat(inputs)).squeeze(1) + greedyPrior_ * drop.clamp_min(0) +
                         detourPrior_ * drop.clamp_max(0) + stopPrior_ * floats(isStop, {static_cast<int64_t>(isStop.size())});
  torch::Tensor values = valueHead_->forward(graphEmbeddings).squeeze(1);

  std::vector<PolicyOutput> outputs;
  int64_t first = 0;
  for (size_t b = 0; b < batch.size(); ++b) {
    const int64_t actions = static_cast<int64_t>(batch[b]->candidates.size()) + 1;
    outputs.push_back({logits.narrow(0, first, actions), values[static_cast<int64_t>(b)]});
    first += actions;
  }
  return outputs;
}

} // namespace tessera
