#include "rlflow/RlflowAgent.h"

#include "rl/Advantage.h"
#include "rlflow/RlflowNetworks.h"
#include "support/Error.h"
#include "xrlflow/ModuleWeights.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <tuple>
#include <utility>

namespace tessera {

namespace {

constexpr double kWorldModelGradNorm = 1.0;

// Present rules weigh this much more than absent ones in the mask's loss: a state has a rewrite
// for about 4 of the pack's 203 rules, and unweighted the head learns "none" (measured in
// resources/doc/agents-rlflow.md).
constexpr double kPresentRuleWeight = 5.0;

struct ControllerTransition {
  Latent z;
  ActionMask mask;
  RlflowDecision decision;
  double reward = 0;
  bool done = false;
};

// The three networks as one module, so that one archive holds them.
class RlflowNetworksImpl : public torch::nn::Module {
public:
  RlflowNetworksImpl(const AgentConfig& c, int format)
      : encoder(register_module("encoder", GraphEncoder(c.opKinds, c.nodeFigures, c.globalFeatures, c.rules, /*readsRewrites=*/format >= 2))),
        worldModel(register_module("world_model", WorldModel(c.rules, /*rewardPerRewrite=*/format >= 3))),
        controller(register_module("controller", Controller(c.rules, c.greedyPrior, c.stopPrior))) {}
  GraphEncoder encoder;
  WorldModel worldModel;
  Controller controller;
};
TORCH_MODULE(RlflowNetworks);

std::string withoutBacktrace(const std::exception& e) {
  if (const auto* torchError = dynamic_cast<const c10::Error*>(&e)) return torchError->what_without_backtrace();
  return e.what();
}

torch::Tensor latentTensor(const Latent& z) { return torch::tensor(z, torch::kFloat).reshape({1, kRlflowLatent}); }

Latent latentOf(const torch::Tensor& row) {
  const torch::Tensor values = row.reshape({kRlflowLatent}).contiguous();
  return Latent(values.data_ptr<float>(), values.data_ptr<float>() + kRlflowLatent);
}

// Tensors of a batch of masks: present [n, rules] (bool), savings [n, rules], location shares.
struct MaskTensors {
  torch::Tensor present, savings, shares;
};

MaskTensors maskTensors(const std::vector<const ActionMask*>& masks, int rules) {
  const auto n = static_cast<int64_t>(masks.size());
  std::vector<float> present, savings, shares;
  for (const ActionMask* mask : masks)
    for (int r = 0; r < rules; ++r) {
      present.push_back(mask->locations[static_cast<size_t>(r)] > 0 ? 1.0f : 0.0f);
      savings.push_back(mask->bestSaving[static_cast<size_t>(r)]);
      shares.push_back(static_cast<float>(mask->locations[static_cast<size_t>(r)]) / kRlflowLocations);
    }
  return {torch::tensor(present).reshape({n, rules}) > 0.5f, torch::tensor(savings).reshape({n, rules}),
          torch::tensor(shares).reshape({n, rules})};
}

int64_t sampleFrom(const torch::Tensor& logProbabilities, std::mt19937_64& random) {
  const torch::Tensor p = logProbabilities.exp().contiguous();
  const float* values = p.data_ptr<float>();
  double u = std::uniform_real_distribution<double>(0.0, 1.0)(random), cumulative = 0;
  int64_t last = 0;
  for (int64_t i = 0; i < p.numel(); ++i) {
    if (values[i] <= 0) continue;
    last = i;
    cumulative += values[i];
    if (u < cumulative) return i;
  }
  return last;
}

// The masks a prediction stands for: a rule is present when its logit is positive, with its
// location share rounded to at least one location.
std::vector<ActionMask> predictedMasks(const MaskPrediction& prediction) {
  const torch::Tensor present = (prediction.presentLogits > 0).contiguous();
  const torch::Tensor locations =
      torch::round(prediction.locationShare * kRlflowLocations).clamp(1, kRlflowLocations).to(torch::kInt).contiguous();
  const torch::Tensor savings = prediction.bestSaving.contiguous();
  const int64_t states = present.size(0), rules = present.size(1);
  std::vector<ActionMask> masks(static_cast<size_t>(states));
  for (int64_t i = 0; i < states; ++i) {
    ActionMask& mask = masks[static_cast<size_t>(i)];
    mask.locations.assign(static_cast<size_t>(rules), 0);
    mask.bestSaving.assign(static_cast<size_t>(rules), 0.0f);
    for (int64_t r = 0; r < rules; ++r) {
      const int64_t at = i * rules + r;
      if (!present.data_ptr<bool>()[at]) continue;
      mask.locations[static_cast<size_t>(r)] = locations.data_ptr<int>()[at];
      mask.bestSaving[static_cast<size_t>(r)] = savings.data_ptr<float>()[at];
    }
  }
  return masks;
}

} // namespace

struct RlflowAgent::State {
  AgentConfig config;
  int format = RlflowAgent::kFormat;
  CheckpointHeader loadedFrom;
  RlflowNetworks networks{nullptr};
  std::unique_ptr<torch::optim::Adam> worldModelOptimizer; // V and M
  std::unique_ptr<torch::optim::Adam> controllerOptimizer;
  std::mt19937_64 random;
  std::vector<ControllerTransition> transitions;
};

AgentConfig rlflowConfigFor(size_t rules) {
  AgentConfig config = agentConfigFor(rules);
  config.hidden = kRlflowLatent;
  config.messagePassingSteps = 1;
  config.learningRate = 1e-3;
  config.lambda = 1.0;
  config.minibatch = 64;
  return config;
}

RlflowAgent::RlflowAgent(std::unique_ptr<State> state) : state_(std::move(state)) {}

RlflowAgent::RlflowAgent(const AgentConfig& config, uint64_t seed, int format) : state_(std::make_unique<State>()) {
  checkAgentConfig(config, "rlflow agent");
  if (format < 1 || format > kFormat) throw Error("rlflow agent: no format " + std::to_string(format));
  torch::set_num_threads(1); // runs repeat exactly, and the machine's other cores stay free
  state_->config = config;
  state_->format = format;
  state_->random.seed(seed);
  state_->networks = RlflowNetworks(config, format);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  initialiseFrom(*state_->networks, generator);
  if (format >= 2) state_->networks->controller->startGreedy();
  std::vector<torch::Tensor> worldModelParameters = state_->networks->encoder->parameters();
  for (const torch::Tensor& p : state_->networks->worldModel->parameters()) worldModelParameters.push_back(p);
  state_->worldModelOptimizer = std::make_unique<torch::optim::Adam>(worldModelParameters, torch::optim::AdamOptions(8e-3));
  state_->controllerOptimizer = std::make_unique<torch::optim::Adam>(state_->networks->controller->parameters(),
                                                                     torch::optim::AdamOptions(config.learningRate).eps(1e-5));
}

RlflowAgent RlflowAgent::load(const std::string& path, std::span<const Rule* const> rules, uint64_t seed) {
  CheckpointContents contents = readCheckpointFile(path);
  checkCheckpointFits(contents.header, kName, rules, path);
  const int format = contents.header.agentFormat;
  if (format < 1 || format > kFormat)
    throw errorInFile(path, "holds an rlflow agent of format " + std::to_string(format) + "; this build reads formats 1 to " +
                                std::to_string(kFormat) + ": train it again with `tessera-cli rl train --agent rlflow`");
  RlflowAgent agent(contents.header.config, seed, format);
  try {
    agent.restoreWeights(contents.weights);
  } catch (const std::exception& e) {
    throw errorInFile(path, "the agent's weights do not load: " + withoutBacktrace(e));
  }
  agent.state_->loadedFrom = std::move(contents.header);
  return agent;
}

RlflowAgent::RlflowAgent(RlflowAgent&&) noexcept = default;
RlflowAgent& RlflowAgent::operator=(RlflowAgent&&) noexcept = default;
RlflowAgent::~RlflowAgent() = default;

const AgentConfig& RlflowAgent::config() const { return state_->config; }
const CheckpointHeader& RlflowAgent::loadedFrom() const { return state_->loadedFrom; }

void RlflowAgent::save(const std::string& path, CheckpointHeader header) const {
  header.agent = kName;
  header.agentFormat = state_->format;
  header.config = state_->config;
  header.rulePackSize = state_->config.rules;
  writeCheckpointFile(path, header, weights());
}

std::string RlflowAgent::weights() const { return moduleWeights(*state_->networks); }

void RlflowAgent::restoreWeights(const std::string& weights) { restoreModuleWeights(*state_->networks, weights); }

Latent RlflowAgent::encode(const Observation& observation) {
  torch::NoGradGuard noGrad;
  return latentOf(state_->networks->encoder->forward({&observation}));
}

namespace {

// A batch of episodes as padded tensors, with the encoder's z of every state.
struct EpisodeBatch {
  torch::Tensor z;         // [B, T + 1, 32]
  torch::Tensor rules;     // [B, T]
  torch::Tensor locations; // [B, T]
  torch::Tensor rewards;   // [B, T]
  torch::Tensor done;      // [B, T]
  torch::Tensor valid;     // [B, T]: a real transition
  torch::Tensor stateZ;    // [S, 32]: every state's z, in order
  MaskTensors masks;       // of every state, in order
  std::vector<ActionMask> realMasks;
  // Every rewrite every state lists (within kRlflowLocations of its rule): its state's row of
  // stateZ, its action and the reward taking it gives. A state's listing prices each of them, so
  // the reward of every one is known, not only of the one taken. Empty unless asked for.
  torch::Tensor listedState, listedRules, listedLocations, listedRewards;
};

// `listRewrites`: gather the listed rewrites too (a world model that reads a reward per rewrite).
EpisodeBatch batchOf(std::span<const WorldModelEpisode> episodes, GraphEncoder& encoder, int rules, bool listRewrites) {
  EpisodeBatch batch;
  std::vector<const Observation*> states;
  size_t longest = 0;
  std::vector<int64_t> listedState, listedRules, listedLocations;
  std::vector<float> listedRewards;
  for (const WorldModelEpisode& episode : episodes) {
    longest = std::max(longest, episode.actions.size());
    for (const Observation& state : episode.states) {
      for (size_t i = 0; listRewrites && i < state.candidates.size(); ++i) {
        const RlflowAction action = actionOf(state, i, rules);
        if (action.location >= kRlflowLocations) continue;
        listedState.push_back(static_cast<int64_t>(states.size()));
        listedRules.push_back(action.rule);
        listedLocations.push_back(action.location);
        listedRewards.push_back(-state.candidates[i].costDeltaPct);
      }
      states.push_back(&state);
      batch.realMasks.push_back(maskOf(state, rules));
    }
  }
  batch.listedState = torch::tensor(listedState, torch::kLong);
  batch.listedRules = torch::tensor(listedRules, torch::kLong);
  batch.listedLocations = torch::tensor(listedLocations, torch::kLong);
  batch.listedRewards = torch::tensor(listedRewards, torch::kFloat);
  batch.stateZ = encoder->forward(states);
  const auto b = static_cast<int64_t>(episodes.size()), t = static_cast<int64_t>(std::max<size_t>(longest, 1));
  std::vector<int64_t> ruleIds(static_cast<size_t>(b * t), rules), locationIds(static_cast<size_t>(b * t), 0);
  std::vector<float> rewards(static_cast<size_t>(b * t), 0), done(static_cast<size_t>(b * t), 0), valid(static_cast<size_t>(b * t), 0);
  int64_t first = 0;
  std::vector<torch::Tensor> rows;
  for (int64_t e = 0; e < b; ++e) {
    const WorldModelEpisode& episode = episodes[static_cast<size_t>(e)];
    const auto n = static_cast<int64_t>(episode.states.size());
    torch::Tensor own = batch.stateZ.narrow(0, first, n);
    rows.push_back(torch::cat({own, own.narrow(0, n - 1, 1).expand({t + 1 - n, kRlflowLatent})}, 0));
    first += n;
    for (size_t k = 0; k < episode.actions.size(); ++k) {
      const size_t at = static_cast<size_t>(e * t) + k;
      ruleIds[at] = episode.actions[k].rule;
      locationIds[at] = std::min(episode.actions[k].location, kRlflowLocations - 1);
      rewards[at] = static_cast<float>(episode.rewards[k]);
      done[at] = episode.done[k] ? 1.0f : 0.0f;
      valid[at] = 1.0f;
    }
  }
  batch.z = torch::stack(rows);
  batch.rules = torch::tensor(ruleIds, torch::kLong).reshape({b, t});
  batch.locations = torch::tensor(locationIds, torch::kLong).reshape({b, t});
  batch.rewards = torch::tensor(rewards).reshape({b, t});
  batch.done = torch::tensor(done).reshape({b, t});
  batch.valid = torch::tensor(valid).reshape({b, t});
  std::vector<const ActionMask*> maskPointers;
  for (const ActionMask& mask : batch.realMasks) maskPointers.push_back(&mask);
  batch.masks = maskTensors(maskPointers, rules);
  return batch;
}

struct WorldModelPass {
  WorldModelOutput output;
  MaskPrediction mask;
  torch::Tensor nll; // [B, T]
};

// `withSavings`: the mask's best savings too (mask()).
WorldModelPass runWorldModel(EpisodeBatch& batch, WorldModel& worldModel, bool withSavings) {
  const int64_t t = batch.rules.size(1);
  const torch::Tensor inputs = worldModel->stepInput(batch.rules, batch.locations, batch.z.narrow(1, 0, t));
  auto memory = worldModel->initialState(batch.rules.size(0));
  WorldModelPass pass;
  pass.output = worldModel->forward(inputs, memory);
  pass.nll = mixtureNegativeLogLikelihood(pass.output, batch.z.narrow(1, 1, t).detach());
  pass.mask = worldModel->mask(batch.stateZ, withSavings);
  return pass;
}

// The world model's reward of every listed rewrite of the batch, from its state's z ([listed]).
torch::Tensor listedRewardPredictions(const EpisodeBatch& batch, WorldModel& worldModel) {
  return worldModel->rewriteReward(
      worldModel->stepInput(batch.listedRules, batch.listedLocations, batch.stateZ.index_select(0, batch.listedState)));
}

// Of the (state, rule) pairs that have a rewrite, the share `predicted` says present; of those it
// says present, the share that have one.
std::pair<double, double> recallAndPrecision(const torch::Tensor& predicted, const torch::Tensor& real) {
  const double realCount = real.sum().item<double>(), predictedCount = predicted.sum().item<double>();
  const double both = (predicted & real).sum().item<double>();
  return {realCount > 0 ? both / realCount : 1.0, predictedCount > 0 ? both / predictedCount : 1.0};
}

// Rows of the batch's transitions in its [B, T] layout, and of the states they lead to.
struct TransitionRows {
  std::vector<int64_t> positions, nextStates;
};

TransitionRows transitionRows(const EpisodeBatch& batch, std::span<const WorldModelEpisode> episodes) {
  TransitionRows rows;
  const int64_t t = batch.rules.size(1);
  int64_t first = 0;
  for (size_t e = 0; e < episodes.size(); ++e) {
    for (size_t k = 0; k < episodes[e].actions.size(); ++k) {
      rows.positions.push_back(static_cast<int64_t>(e) * t + static_cast<int64_t>(k));
      rows.nextStates.push_back(first + static_cast<int64_t>(k) + 1);
    }
    first += static_cast<int64_t>(episodes[e].states.size());
  }
  return rows;
}

// What a dream sees one step on: the mask ([transitions, rules], present) of the next z as the
// mixture predicts it (its likeliest component's mean). On real states the mask reads the
// encoder's z of the state itself; a dream has only the predicted one.
torch::Tensor imaginedNextPresent(const EpisodeBatch& batch, const WorldModelPass& pass, WorldModel& worldModel,
                                  std::span<const WorldModelEpisode> episodes) {
  const int64_t b = batch.rules.size(0), t = batch.rules.size(1);
  const torch::Tensor likeliest = pass.output.logWeights.argmax(-1).unsqueeze(-1).unsqueeze(-1).expand({b, t, 1, kRlflowLatent});
  const torch::Tensor nextZ = pass.output.means.gather(2, likeliest).squeeze(2).reshape({b * t, kRlflowLatent});
  const TransitionRows rows = transitionRows(batch, episodes);
  return worldModel->mask(nextZ.index_select(0, torch::tensor(rows.positions, torch::kLong)), /*withSavings=*/false).presentLogits > 0;
}

// The real masks ([transitions, rules], present) of the states the transitions lead to.
torch::Tensor nextStatesPresent(const EpisodeBatch& batch, std::span<const WorldModelEpisode> episodes) {
  return batch.masks.present.index_select(0, torch::tensor(transitionRows(batch, episodes).nextStates, torch::kLong));
}

} // namespace

WorldModelLosses RlflowAgent::trainWorldModel(std::span<const WorldModelEpisode> episodes, double learningRate) {
  State& s = *state_;
  WorldModelLosses losses;
  if (episodes.empty()) return losses;
  EpisodeBatch batch = batchOf(episodes, s.networks->encoder, s.config.rules, s.networks->worldModel->readsRewardPerRewrite());
  WorldModel& worldModel = s.networks->worldModel;
  WorldModelPass pass = runWorldModel(batch, worldModel, /*withSavings=*/false);
  const torch::Tensor count = batch.valid.sum().clamp_min(1);
  const torch::Tensor nll = (pass.nll * batch.valid).sum() / count;
  // The reward's absolute error, not RLFlow's squared one: rewards are heavy-tailed (a few of
  // tens of % among many under 1 %), and the squared error lets those few pull every prediction
  // (measured in resources/doc/agents-rlflow.md).
  const torch::Tensor reward = ((pass.output.reward - batch.rewards).abs() * batch.valid).sum() / count;
  const torch::Tensor done =
      (torch::binary_cross_entropy_with_logits(pass.output.doneLogit, batch.done, {}, {}, at::Reduction::None) * batch.valid).sum() / count;
  const torch::Tensor present = batch.masks.present.to(torch::kFloat);
  torch::Tensor mask = torch::binary_cross_entropy_with_logits(pass.mask.presentLogits, present, {}, torch::full({1}, kPresentRuleWeight)) +
                       (pass.mask.locationShare - batch.masks.shares).pow(2).mean();
  // RLFlow's loss: the mixture's NLL over (latent size + 2), BCE(done) and the reward's error; and the mask.
  torch::Tensor total = nll / (kRlflowLatent + 2) + done + reward;
  if (worldModel->readsRewardPerRewrite()) {
    // Every listed rewrite's reward (the mask's savings are this head's), by its squared error, as
    // RLFlow's loss has it: the absolute error learns each rewrite's median where z does not yet
    // tell states apart, 0 for a rewrite that pays in a quarter of the states, and z then has no
    // reason to tell them apart (measured in resources/doc/agents-rlflow.md).
    if (batch.listedRewards.numel() > 0) {
      const torch::Tensor listed = (listedRewardPredictions(batch, worldModel) - batch.listedRewards).pow(2).mean();
      losses.listedReward = listed.item<double>();
      total = total + listed;
    }
  } else {
    mask = mask + ((pass.mask.bestSaving - batch.masks.savings).pow(2) * present).sum() / present.sum().clamp_min(1);
  }
  total = total + mask;

  for (auto& group : s.worldModelOptimizer->param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(learningRate);
  s.worldModelOptimizer->zero_grad();
  total.backward();
  std::vector<torch::Tensor> parameters = s.networks->encoder->parameters();
  for (const torch::Tensor& p : s.networks->worldModel->parameters()) parameters.push_back(p);
  torch::nn::utils::clip_grad_norm_(parameters, kWorldModelGradNorm);
  s.worldModelOptimizer->step();
  losses.total = total.item<double>();
  losses.latentNll = nll.item<double>();
  losses.reward = reward.item<double>();
  losses.done = done.item<double>();
  losses.mask = mask.item<double>();
  return losses;
}

WorldModelScores RlflowAgent::scoreWorldModel(std::span<const WorldModelEpisode> episodes) {
  torch::NoGradGuard noGrad;
  State& s = *state_;
  WorldModelScores scores;
  if (episodes.empty()) return scores;
  EpisodeBatch batch = batchOf(episodes, s.networks->encoder, s.config.rules, s.networks->worldModel->readsRewardPerRewrite());
  WorldModelPass pass = runWorldModel(batch, s.networks->worldModel, /*withSavings=*/true);
  const double transitions = batch.valid.sum().item<double>();
  scores.transitions = static_cast<size_t>(transitions);
  scores.states = batch.realMasks.size();
  if (transitions > 0) {
    scores.latentNll = (pass.nll * batch.valid).sum().item<double>() / transitions;
    scores.rewardMae = ((pass.output.reward - batch.rewards).abs() * batch.valid).sum().item<double>() / transitions;
    scores.meanAbsReward = (batch.rewards.abs() * batch.valid).sum().item<double>() / transitions;
    const torch::Tensor doneRight = (pass.output.doneLogit > 0) == (batch.done > 0.5f);
    scores.doneAccuracy = (doneRight.to(torch::kFloat) * batch.valid).sum().item<double>() / transitions;
  }
  WorldModel& worldModel = s.networks->worldModel;
  if (worldModel->readsRewardPerRewrite() && batch.listedRewards.numel() > 0) {
    scores.listedRewrites = static_cast<size_t>(batch.listedRewards.numel());
    scores.listedRewardMae = (listedRewardPredictions(batch, worldModel) - batch.listedRewards).abs().mean().item<double>();
    scores.meanAbsListedReward = batch.listedRewards.abs().mean().item<double>();
  }
  const torch::Tensor predictedPresent = pass.mask.presentLogits > 0;
  const torch::Tensor presentRight = predictedPresent == batch.masks.present;
  scores.maskAccuracy = presentRight.to(torch::kFloat).mean().item<double>();
  scores.allAbsentAccuracy = 1.0 - batch.masks.present.to(torch::kFloat).mean().item<double>();
  std::tie(scores.presentRecall, scores.presentPrecision) = recallAndPrecision(predictedPresent, batch.masks.present);
  std::tie(scores.imaginedRecall, scores.imaginedPrecision) =
      recallAndPrecision(imaginedNextPresent(batch, pass, s.networks->worldModel, episodes), nextStatesPresent(batch, episodes));
  const std::vector<ActionMask> predicted = predictedMasks(pass.mask);
  size_t state = 0, offered = 0;
  for (const WorldModelEpisode& episode : episodes) {
    for (size_t k = 0; k < episode.actions.size(); ++k) offered += offers(predicted[state + k], episode.actions[k]) ? 1 : 0;
    state += episode.states.size();
  }
  if (transitions > 0) scores.actionOffered = static_cast<double>(offered) / transitions;
  scores.maskExact = presentRight.all(1).to(torch::kFloat).mean().item<double>();
  const torch::Tensor predictedLocations = torch::round(pass.mask.locationShare * kRlflowLocations).clamp(1, kRlflowLocations);
  const torch::Tensor realLocations = torch::round(batch.masks.shares * kRlflowLocations);
  const torch::Tensor present = batch.masks.present.to(torch::kFloat);
  const double presentCount = present.sum().item<double>();
  if (presentCount > 0)
    scores.locationAccuracy = ((predictedLocations == realLocations).to(torch::kFloat) * present).sum().item<double>() / presentCount;
  return scores;
}

ActionMask RlflowAgent::predictMask(const Latent& z) {
  torch::NoGradGuard noGrad;
  return predictedMasks(state_->networks->worldModel->mask(latentTensor(z))).front();
}

DreamMemory RlflowAgent::dreamStart() const {
  return {std::vector<float>(kRlflowLstm, 0.0f), std::vector<float>(kRlflowLstm, 0.0f)};
}

DreamStep RlflowAgent::dream(DreamMemory& memory, const Latent& z, const RlflowAction& action, double temperature) {
  torch::NoGradGuard noGrad;
  State& s = *state_;
  WorldModel& worldModel = s.networks->worldModel;
  const torch::Tensor input = worldModel->stepInput(torch::tensor({int64_t{action.rule}}, torch::kLong).reshape({1, 1}),
                                                    torch::tensor({int64_t{std::min(action.location, kRlflowLocations - 1)}}, torch::kLong).reshape({1, 1}),
                                                    latentTensor(z).reshape({1, 1, kRlflowLatent}));
  std::tuple<torch::Tensor, torch::Tensor> lstm{torch::tensor(memory.hidden).reshape({1, 1, kRlflowLstm}),
                                                torch::tensor(memory.cell).reshape({1, 1, kRlflowLstm})};
  WorldModelOutput output = worldModel->forward(input, lstm);
  const torch::Tensor hidden = std::get<0>(lstm).reshape({kRlflowLstm}).contiguous(), cell = std::get<1>(lstm).reshape({kRlflowLstm}).contiguous();
  memory.hidden.assign(hidden.data_ptr<float>(), hidden.data_ptr<float>() + kRlflowLstm);
  memory.cell.assign(cell.data_ptr<float>(), cell.data_ptr<float>() + kRlflowLstm);
  const torch::Tensor weights = torch::log_softmax(output.logWeights.reshape({kRlflowGaussians}) / std::max(temperature, 1e-3), 0);
  const int64_t component = sampleFrom(weights, s.random);
  DreamStep step;
  step.next = latentOf(output.means.reshape({kRlflowGaussians, kRlflowLatent})[component]);
  step.reward = output.reward.item<double>();
  step.done = output.doneLogit.item<double>() > 0;
  return step;
}

RlflowDecision RlflowAgent::decide(const Latent& z, const ActionMask& mask, bool explore) {
  torch::NoGradGuard noGrad;
  State& s = *state_;
  const int rules = s.config.rules;
  const torch::Tensor zt = latentTensor(z);
  MaskTensors m = maskTensors({&mask}, rules);
  ControllerOutput output = s.networks->controller->forward(zt, m.present, m.savings);
  const torch::Tensor ruleLog = output.ruleLogProbabilities[0];
  RlflowDecision decision;
  decision.value = output.value.item<double>();
  const int64_t rule = explore ? sampleFrom(ruleLog, s.random) : ruleLog.argmax().item<int64_t>();
  decision.action.rule = static_cast<int>(rule);
  decision.logProbability = ruleLog[rule].item<double>();
  if (rule == rules) return decision;
  const int64_t locations = std::max(1, mask.locations[static_cast<size_t>(rule)]);
  const torch::Tensor locationLog = s.networks->controller->locationLogProbabilities(zt, torch::tensor({rule}, torch::kLong),
                                                                                    torch::tensor({locations}, torch::kLong))[0];
  const int64_t location = explore ? sampleFrom(locationLog, s.random) : locationLog.argmax().item<int64_t>();
  decision.action.location = static_cast<int>(location);
  decision.logProbability += locationLog[location].item<double>();
  return decision;
}

double RlflowAgent::value(const Latent& z) {
  torch::NoGradGuard noGrad;
  return state_->networks->controller->value(latentTensor(z)).item<double>();
}

void RlflowAgent::record(const Latent& z, const ActionMask& mask, const RlflowDecision& decision, double reward, bool done) {
  state_->transitions.push_back({z, mask, decision, reward, done});
}

size_t RlflowAgent::recorded() const { return state_->transitions.size(); }

PpoUpdateStats RlflowAgent::update() {
  const auto start = std::chrono::steady_clock::now();
  State& s = *state_;
  const AgentConfig& c = s.config;
  PpoUpdateStats stats;
  stats.transitions = s.transitions.size();
  if (s.transitions.empty()) return stats;
  std::vector<double> rewards, values;
  std::vector<bool> done;
  for (const ControllerTransition& t : s.transitions) {
    rewards.push_back(t.reward);
    values.push_back(t.decision.value);
    done.push_back(t.done);
  }
  AdvantageEstimate estimate = estimateAdvantages(rewards, values, done, c.gamma, c.lambda);
  std::vector<size_t> order(s.transitions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  int minibatches = 0;
  for (int epoch = 0; epoch < c.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), s.random);
    for (size_t first = 0; first < order.size(); first += static_cast<size_t>(c.minibatch)) {
      const size_t last = std::min(order.size(), first + static_cast<size_t>(c.minibatch));
      const auto n = static_cast<int64_t>(last - first);
      std::vector<float> zs, oldLog, advantages, returns;
      std::vector<const ActionMask*> masks;
      std::vector<int64_t> ruleIds, locationIds, locationCounts;
      for (size_t k = first; k < last; ++k) {
        const ControllerTransition& t = s.transitions[order[k]];
        zs.insert(zs.end(), t.z.begin(), t.z.end());
        masks.push_back(&t.mask);
        ruleIds.push_back(t.decision.action.rule);
        locationIds.push_back(t.decision.action.location);
        locationCounts.push_back(t.decision.action.rule < c.rules ? std::max(1, t.mask.locations[static_cast<size_t>(t.decision.action.rule)]) : 1);
        oldLog.push_back(static_cast<float>(t.decision.logProbability));
        advantages.push_back(static_cast<float>(estimate.advantages[order[k]]));
        returns.push_back(static_cast<float>(estimate.returns[order[k]]));
      }
      const torch::Tensor z = torch::tensor(zs).reshape({n, kRlflowLatent});
      MaskTensors m = maskTensors(masks, c.rules);
      const torch::Tensor rules = torch::tensor(ruleIds, torch::kLong), locations = torch::tensor(locationIds, torch::kLong);
      ControllerOutput output = s.networks->controller->forward(z, m.present, m.savings);
      const torch::Tensor isRewrite = (rules < c.rules).to(torch::kFloat);
      const torch::Tensor locationLog = s.networks->controller->locationLogProbabilities(z, rules, torch::tensor(locationCounts, torch::kLong));
      const torch::Tensor logProbability = output.ruleLogProbabilities.gather(1, rules.unsqueeze(1)).squeeze(1) +
                                           isRewrite * locationLog.gather(1, locations.unsqueeze(1)).squeeze(1);
      const torch::Tensor ruleP = output.ruleLogProbabilities.exp(), locationP = locationLog.exp();
      const torch::Tensor entropy = -(ruleP * output.ruleLogProbabilities).sum(1).mean() - (isRewrite * (locationP * locationLog).sum(1)).mean();
      torch::Tensor advantage = torch::tensor(advantages);
      if (n > 1) advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8);
      const torch::Tensor logRatio = logProbability - torch::tensor(oldLog);
      const torch::Tensor ratio = logRatio.exp();
      const torch::Tensor policyLoss = -torch::min(ratio * advantage, ratio.clamp(1.0 - c.clip, 1.0 + c.clip) * advantage).mean();
      const torch::Tensor valueLoss = (output.value - torch::tensor(returns)).pow(2).mean();
      const torch::Tensor loss = policyLoss + c.valueWeight * valueLoss - c.entropyWeight * entropy;
      s.controllerOptimizer->zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(s.networks->controller->parameters(), c.maxGradNorm);
      s.controllerOptimizer->step();
      stats.policyLoss += policyLoss.item<double>();
      stats.valueLoss += valueLoss.item<double>();
      stats.entropy += entropy.item<double>();
      stats.approxKl += ((ratio - 1) - logRatio).mean().item<double>();
      ++minibatches;
    }
    stats.epochs = epoch + 1;
  }
  if (minibatches > 0) {
    stats.policyLoss /= minibatches;
    stats.valueLoss /= minibatches;
    stats.entropy /= minibatches;
    stats.approxKl /= minibatches;
  }
  s.transitions.clear();
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

AgentDecision RlflowAgent::decideReal(const Observation& observation) {
  torch::NoGradGuard noGrad;
  State& s = *state_;
  const int rules = s.config.rules;
  const torch::Tensor z = s.networks->encoder->forward({&observation});
  const ActionMask mask = maskOf(observation, rules);
  MaskTensors m = maskTensors({&mask}, rules);
  ControllerOutput output = s.networks->controller->forward(z, m.present, m.savings);
  const torch::Tensor ruleP = output.ruleLogProbabilities[0].exp().contiguous();
  // Every present rule's location distribution at once.
  std::vector<int64_t> presentRules, counts;
  for (int r = 0; r < rules; ++r)
    if (mask.locations[static_cast<size_t>(r)] > 0) {
      presentRules.push_back(r);
      counts.push_back(mask.locations[static_cast<size_t>(r)]);
    }
  torch::Tensor locationP;
  if (!presentRules.empty())
    locationP = s.networks->controller
                    ->locationLogProbabilities(z.expand({static_cast<int64_t>(presentRules.size()), kRlflowLatent}),
                                               torch::tensor(presentRules, torch::kLong), torch::tensor(counts, torch::kLong))
                    .exp()
                    .contiguous();
  std::vector<int64_t> rowOfRule(static_cast<size_t>(rules), -1);
  for (size_t i = 0; i < presentRules.size(); ++i) rowOfRule[static_cast<size_t>(presentRules[i])] = static_cast<int64_t>(i);

  AgentDecision decision;
  decision.value = output.value.item<double>();
  const size_t candidates = observation.candidates.size();
  decision.probabilities.assign(candidates + 1, 0.0f);
  for (size_t i = 0; i < candidates; ++i) {
    const RlflowAction action = actionOf(observation, i, rules);
    if (action.location >= kRlflowLocations) continue;
    const int64_t row = rowOfRule[static_cast<size_t>(action.rule)];
    decision.probabilities[i] = ruleP[action.rule].item<float>() * locationP[row][action.location].item<float>();
  }
  decision.probabilities[candidates] = ruleP[rules].item<float>();
  decision.action = static_cast<size_t>(std::max_element(decision.probabilities.begin(), decision.probabilities.end()) - decision.probabilities.begin());
  decision.logProbability = std::log(std::max(1e-30f, decision.probabilities[decision.action]));
  return decision;
}

} // namespace tessera
