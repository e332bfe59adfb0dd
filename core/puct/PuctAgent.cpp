#include "puct/PuctAgent.h"

#include "puct/PuctNetwork.h"
#include "rl/TrainedModels.h"
#include "rlflow/RlflowNetworks.h"
#include "support/Error.h"
#include "xrlflow/ModuleWeights.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

namespace tessera {

namespace {
// The value's squared error is in points squared; this keeps it from drowning the cross-entropy.
constexpr double kValueLossWeight = 0.01;
} // namespace

struct PuctAgent::State {
  size_t rules = 0;
  std::string loadedFrom;         // the checkpoint's path; empty for a new agent
  CheckpointHeader trainedWith;   // its header
  PuctNetwork network{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
};

PuctAgent::PuctAgent(size_t rules, uint64_t seed, double learningRate) : state_(std::make_unique<State>()) {
  if (rules == 0) throw Error("puct agent: the rule pack is empty");
  torch::set_num_threads(1); // runs repeat exactly, and the machine's other cores stay free
  state_->rules = rules;
  state_->network = PuctNetwork(static_cast<int>(rules), opKindCount(), nodeFigureSize(), globalFeatureSize());
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  initialiseFrom(*state_->network, generator);
  state_->optimizer = std::make_unique<torch::optim::Adam>(state_->network->parameters(), torch::optim::AdamOptions(learningRate));
}

PuctAgent::~PuctAgent() = default;

std::unique_ptr<PuctAgent> PuctAgent::load(const std::string& path, std::span<const Rule* const> rules) {
  CheckpointContents contents = readCheckpointFile(path);
  checkCheckpointFits(contents.header, kName, rules, path);
  auto agent = std::make_unique<PuctAgent>(rules.size(), contents.header.seed);
  try {
    restoreModuleWeights(*agent->state_->network, contents.weights);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw errorInFile(path, "the agent's weights do not load: " + what.substr(0, what.find('\n')));
  }
  agent->state_->loadedFrom = path;
  agent->state_->trainedWith = std::move(contents.header);
  return agent;
}

void PuctAgent::save(const std::string& path, CheckpointHeader header) const {
  header.agent = kName;
  header.config = agentConfigFor(state_->rules);
  header.rulePackSize = static_cast<int>(state_->rules);
  writeCheckpointFile(path, header, moduleWeights(*state_->network));
}

size_t PuctAgent::rules() const { return state_->rules; }

mcts::Guidance PuctAgent::guidance(const PuctInput& input) {
  mcts::Guidance guidance;
  guidance.prior.assign(state_->rules, 0.0f);
  if (std::find(input.canAct.begin(), input.canAct.end(), 1) == input.canAct.end()) return guidance; // saturated: nothing to guide
  c10::InferenceMode inference; // no autograd bookkeeping at all: a search only reads the answer
  state_->network->eval();
  PuctOutput output = state_->network->evaluate(input);
  const torch::Tensor priors = output.logPriors[0].exp().contiguous();
  const float* values = priors.data_ptr<float>();
  for (size_t r = 0; r < state_->rules; ++r) guidance.prior[r] = values[r];
  guidance.value = std::max(0.0, output.value[0].item<double>());
  return guidance;
}

std::string PuctAgent::describe(std::optional<bool> trainedOnModel) const {
  if (state_->loadedFrom.empty()) return {};
  return state_->loadedFrom + " (trained on " + std::to_string(state_->trainedWith.models.size()) + " models); " +
         trainingSetVerdict(trainedOnModel);
}

std::optional<bool> PuctAgent::trainedOn(const Graph& model) const {
  if (state_->loadedFrom.empty()) return std::nullopt;
  return wasTrainedOn(state_->trainedWith, model);
}

mcts::Guidance PuctAgent::evaluate(const mcts::SearchState& state) { return guidance(observeSearchState(state)); }

PuctLosses PuctAgent::train(std::span<const PuctSample* const> batch) {
  PuctLosses losses;
  if (batch.empty()) return losses;
  state_->network->train();
  std::vector<const PuctInput*> inputs;
  std::vector<float> policies, targets;
  for (const PuctSample* sample : batch) {
    inputs.push_back(&sample->input);
    policies.insert(policies.end(), sample->policyTarget.begin(), sample->policyTarget.end());
    targets.push_back(static_cast<float>(sample->valueTarget));
  }
  const auto n = static_cast<int64_t>(batch.size());
  PuctOutput output = state_->network->forward(inputs);
  const torch::Tensor policy = torch::tensor(policies).reshape({n, static_cast<int64_t>(state_->rules)});
  // Rules that cannot act have log-prior -inf and no share of the target: leave them out of the sum.
  const torch::Tensor logPriors = output.logPriors.masked_fill(torch::isinf(output.logPriors), 0.0);
  const torch::Tensor policyLoss = -(policy * logPriors).sum(1).mean();
  const torch::Tensor valueLoss = torch::mse_loss(output.value, torch::tensor(targets));
  state_->optimizer->zero_grad();
  (policyLoss + kValueLossWeight * valueLoss).backward();
  torch::nn::utils::clip_grad_norm_(state_->network->parameters(), 1.0);
  state_->optimizer->step();
  losses.policy = policyLoss.item<double>();
  losses.value = valueLoss.item<double>();
  return losses;
}

void registerPuctPriors() {
  mcts::registerPriorModelLoader([](const std::string& path, std::span<const Rule* const> rules) -> std::unique_ptr<mcts::PriorModel> {
    return PuctAgent::load(path, rules);
  });
}

} // namespace tessera
