#include "xrlflow/XrlflowAgent.h"

#include "rl/Advantage.h"
#include "support/Error.h"
#include "xrlflow/ModuleWeights.h"
#include "xrlflow/XrlflowNetwork.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

namespace tessera {

namespace {

// The original starts early stopping on KL only once the agent has had a few updates.
constexpr int kUpdatesBeforeKlStop = 10;

struct Transition {
  Observation observation;
  size_t action = 0;
  double logProbability = 0;
  double value = 0;
  double reward = 0;
  bool done = false;
};

std::string withoutBacktrace(const std::exception& e) {
  if (const auto* torchError = dynamic_cast<const c10::Error*>(&e)) return torchError->what_without_backtrace();
  return e.what();
}

} // namespace

struct XrlflowAgent::State {
  AgentConfig config;
  CheckpointHeader loadedFrom;
  XrlflowNetwork network{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::mt19937_64 random;
  std::vector<Transition> transitions;
  int updates = 0;
};

XrlflowAgent::XrlflowAgent(std::unique_ptr<State> state) : state_(std::move(state)) {}

XrlflowAgent::XrlflowAgent(const AgentConfig& config, uint64_t seed) : state_(std::make_unique<State>()) {
  checkAgentConfig(config, "xrlflow agent");
  torch::set_num_threads(1); // one thread: runs repeat exactly, and the machine's other cores stay free
  state_->config = config;
  state_->random.seed(seed);
  state_->network = XrlflowNetwork(config);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  state_->network->initialise(generator);
  state_->optimizer = std::make_unique<torch::optim::Adam>(state_->network->parameters(),
                                                           torch::optim::AdamOptions(config.learningRate).eps(1e-5));
}

XrlflowAgent XrlflowAgent::load(const std::string& path, std::span<const Rule* const> rules, uint64_t seed) {
  CheckpointContents contents = readCheckpointFile(path);
  checkCheckpointFits(contents.header, kName, rules, path);
  XrlflowAgent agent(contents.header.config, seed);
  try {
    agent.restoreWeights(contents.weights);
  } catch (const std::exception& e) {
    throw errorInFile(path, "the agent's weights do not load: " + withoutBacktrace(e));
  }
  agent.state_->loadedFrom = std::move(contents.header);
  return agent;
}

XrlflowAgent::XrlflowAgent(XrlflowAgent&&) noexcept = default;
XrlflowAgent& XrlflowAgent::operator=(XrlflowAgent&&) noexcept = default;
XrlflowAgent::~XrlflowAgent() = default;

const AgentConfig& XrlflowAgent::config() const { return state_->config; }
const CheckpointHeader& XrlflowAgent::loadedFrom() const { return state_->loadedFrom; }

void XrlflowAgent::save(const std::string& path, CheckpointHeader header) const {
  header.agent = kName;
  header.config = state_->config;
  header.rulePackSize = state_->config.rules;
  writeCheckpointFile(path, header, weights());
}

std::string XrlflowAgent::weights() const { return moduleWeights(*state_->network); }

void XrlflowAgent::restoreWeights(const std::string& weights) { restoreModuleWeights(*state_->network, weights); }

AgentDecision XrlflowAgent::decide(const Observation& observation, bool explore) {
  torch::NoGradGuard noGrad;
  PolicyOutput output = state_->network->forward(observation);
  torch::Tensor logProbabilities = torch::log_softmax(output.logits, 0);
  torch::Tensor probabilities = logProbabilities.exp().contiguous();

  AgentDecision decision;
  decision.probabilities.assign(probabilities.data_ptr<float>(), probabilities.data_ptr<float>() + probabilities.numel());
  if (explore) {
    // Inverse CDF on our own generator: the same draw on every platform for a seed.
    double u = std::uniform_real_distribution<double>(0.0, 1.0)(state_->random), cumulative = 0;
    decision.action = decision.probabilities.size() - 1;
    for (size_t a = 0; a < decision.probabilities.size(); ++a) {
      cumulative += decision.probabilities[a];
      if (u < cumulative) {
        decision.action = a;
        break;
      }
    }
  } else {
    decision.action = static_cast<size_t>(std::max_element(decision.probabilities.begin(), decision.probabilities.end()) -
                                          decision.probabilities.begin()); // ties: the first, so cheapest-first order decides
  }
  decision.logProbability = logProbabilities[static_cast<int64_t>(decision.action)].item<double>();
  decision.value = output.value.item<double>();
  return decision;
}

void XrlflowAgent::record(Observation observation, const AgentDecision& decision, double reward, bool done) {
  state_->transitions.push_back({std::move(observation), decision.action, decision.logProbability, decision.value, reward, done});
}

size_t XrlflowAgent::recorded() const { return state_->transitions.size(); }

PpoUpdateStats XrlflowAgent::update() {
  const auto start = std::chrono::steady_clock::now();
  State& s = *state_;
  const AgentConfig& c = s.config;
  PpoUpdateStats stats;
  stats.transitions = s.transitions.size();
  if (s.transitions.empty()) return stats;

  std::vector<double> rewards, values;
  std::vector<bool> done;
  for (const Transition& t : s.transitions) {
    rewards.push_back(t.reward);
    values.push_back(t.value);
    done.push_back(t.done);
  }
  AdvantageEstimate estimate = estimateAdvantages(rewards, values, done, c.gamma, c.lambda);

  std::vector<size_t> order(s.transitions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  int minibatches = 0;
  for (int epoch = 0; epoch < c.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), s.random);
    double epochKl = 0;
    int epochBatches = 0;
    for (size_t first = 0; first < order.size(); first += static_cast<size_t>(c.minibatch)) {
      const size_t last = std::min(order.size(), first + static_cast<size_t>(c.minibatch));
      std::vector<const Observation*> batch;
      for (size_t k = first; k < last; ++k) batch.push_back(&s.transitions[order[k]].observation);
      std::vector<PolicyOutput> outputs = s.network->forward(batch);
      std::vector<torch::Tensor> logProbabilities, entropies, newValues;
      std::vector<float> oldLogProbabilities, advantages, returns;
      for (size_t k = first; k < last; ++k) {
        const Transition& t = s.transitions[order[k]];
        const PolicyOutput& output = outputs[k - first];
        torch::Tensor all = torch::log_softmax(output.logits, 0);
        logProbabilities.push_back(all[static_cast<int64_t>(t.action)]);
        entropies.push_back(-(all.exp() * all).sum());
        newValues.push_back(output.value);
        oldLogProbabilities.push_back(static_cast<float>(t.logProbability));
        advantages.push_back(static_cast<float>(estimate.advantages[order[k]]));
        returns.push_back(static_cast<float>(estimate.returns[order[k]]));
      }
      const int64_t size = static_cast<int64_t>(last - first);
      torch::Tensor advantage = torch::tensor(advantages);
      if (size > 1) advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8); // per minibatch, as the original
      torch::Tensor logRatio = torch::stack(logProbabilities) - torch::tensor(oldLogProbabilities);
      torch::Tensor ratio = logRatio.exp();
      torch::Tensor policyLoss = -torch::min(ratio * advantage, ratio.clamp(1.0 - c.clip, 1.0 + c.clip) * advantage).mean();
      torch::Tensor valueLoss = (torch::stack(newValues) - torch::tensor(returns)).pow(2).mean();
      torch::Tensor entropy = torch::stack(entropies).mean();
      torch::Tensor loss = policyLoss + c.valueWeight * valueLoss - c.entropyWeight * entropy;

      s.optimizer->zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(s.network->parameters(), c.maxGradNorm);
      s.optimizer->step();

      const double kl = ((ratio - 1) - logRatio).mean().item<double>();
      stats.policyLoss += policyLoss.item<double>();
      stats.valueLoss += valueLoss.item<double>();
      stats.entropy += entropy.item<double>();
      stats.approxKl += kl;
      epochKl += kl;
      ++epochBatches;
      ++minibatches;
    }
    stats.epochs = epoch + 1;
    if (s.updates >= kUpdatesBeforeKlStop && epochKl / epochBatches > c.targetKl) break;
  }
  if (minibatches > 0) {
    stats.policyLoss /= minibatches;
    stats.valueLoss /= minibatches;
    stats.entropy /= minibatches;
    stats.approxKl /= minibatches;
  }
  ++s.updates;
  s.transitions.clear();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

} // namespace tessera
