#include "rlflow/RlflowTraining.h"

#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tessera {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string format(const char* pattern, auto... values) {
  char buffer[320];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

// RLFlow's schedule: linear (polynomial of power 1) decay from lr to lr/40 over the updates.
double decayedRate(double initial, int update, int updates) {
  const double end = initial / 40.0;
  const double left = updates > 0 ? 1.0 - std::min(1.0, static_cast<double>(update) / updates) : 0.0;
  return (initial - end) * left + end;
}

// A uniformly random rule among those with a rewrite, then a uniformly random location.
size_t randomAction(const Observation& observation, int rules, double stopProbability, std::mt19937_64& random) {
  const ActionMask mask = maskOf(observation, rules);
  std::vector<int> present;
  for (int r = 0; r < rules; ++r)
    if (mask.locations[static_cast<size_t>(r)] > 0) present.push_back(r);
  if (present.empty() || std::uniform_real_distribution<double>(0, 1)(random) < stopProbability) return observation.candidates.size();
  const int rule = present[std::uniform_int_distribution<size_t>(0, present.size() - 1)(random)];
  const int location = std::uniform_int_distribution<int>(0, mask.locations[static_cast<size_t>(rule)] - 1)(random);
  return candidateOf(observation, {rule, location}, rules);
}

} // namespace

DreamMode dreamModeNamed(const std::string& name) {
  if (name == "imagined") return DreamMode::Imagined;
  if (name == "lockstep") return DreamMode::Lockstep;
  if (name == "branch") return DreamMode::Branch;
  throw Error("unknown dream mode '" + name + "' (use imagined, lockstep or branch)");
}

const char* dreamModeName(DreamMode mode) {
  switch (mode) {
  case DreamMode::Lockstep: return "lockstep";
  case DreamMode::Branch: return "branch";
  default: return "imagined";
  }
}

namespace {

// One real episode of the random agent on model `e` of `models`.
WorldModelEpisode playRandomEpisode(GraphEpisodes& models, int e, int rules, double stopProbability, std::mt19937_64& random,
                                    size_t& realSteps) {
  Environment& environment = models.begin(e);
  WorldModelEpisode episode;
  episode.model = models.label(e);
  episode.states.push_back(environment.observation());
  while (!environment.done()) {
    const Observation& observation = environment.observation();
    const size_t action = randomAction(observation, rules, stopProbability, random);
    episode.actions.push_back(actionOf(observation, action, rules));
    const StepOutcome outcome = environment.step(action);
    ++realSteps;
    episode.rewards.push_back(outcome.reward);
    episode.done.push_back(outcome.done || environment.done());
    episode.states.push_back(environment.observation());
  }
  return episode;
}

void reportEpisode(const std::function<void(const std::string&)>& progress, int e, int episodes, const WorldModelEpisode& episode,
                   size_t realSteps) {
  if (!progress) return;
  double total = 0;
  for (double reward : episode.rewards) total += reward;
  progress(format("world-model episode %d/%d %s: random agent, reward %.3f in %zu steps, %zu real steps so far", e + 1, episodes,
                  episode.model.c_str(), total, episode.actions.size(), realSteps));
}

} // namespace

std::vector<WorldModelEpisode> collectRandomEpisodes(GraphEpisodes& models, int episodes, int rules, double stopProbability,
                                                     std::mt19937_64& random, size_t& realSteps,
                                                     const std::function<void(const std::string&)>& progress) {
  std::vector<WorldModelEpisode> collected;
  for (int e = 0; e < episodes; ++e) {
    collected.push_back(playRandomEpisode(models, e, rules, stopProbability, random, realSteps));
    reportEpisode(progress, e, episodes, collected.back(), realSteps);
  }
  return collected;
}

std::vector<WorldModelEpisode> collectSeededEpisodes(GraphEpisodes& models, int first, int count, int rules, double stopProbability,
                                                     uint64_t seed, size_t& realSteps,
                                                     const std::function<void(const std::string&)>& progress) {
  std::vector<WorldModelEpisode> collected;
  for (int e = first; e < first + count; ++e) {
    std::seed_seq streamOfEpisode{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(e)};
    std::mt19937_64 random(streamOfEpisode);
    collected.push_back(playRandomEpisode(models, e, rules, stopProbability, random, realSteps));
    reportEpisode(progress, e, first + count, collected.back(), realSteps);
  }
  return collected;
}

std::vector<double> rlflowArgmaxSpeedups(RlflowAgent& agent, GraphEpisodes& models, size_t& realSteps, std::vector<double>* rewards) {
  std::vector<double> speedups;
  RewriteEnvironment& environment = models.environment();
  for (const NamedGraph& model : models.models()) {
    environment.reset(model.graph);
    double best = environment.costMs(), total = 0;
    while (!environment.done()) {
      total += environment.step(argmaxAction(agent.decideReal(environment.observation()), environment)).reward;
      ++realSteps;
      best = std::min(best, environment.costMs());
    }
    const double initial = environment.initialCostMs();
    speedups.push_back(initial > 0 ? 100.0 * (initial - best) / initial : 0.0);
    if (rewards) rewards->push_back(total);
  }
  return speedups;
}

RlflowTrainingReport trainRlflow(RlflowAgent& agent, GraphEpisodes& models, const RlflowTrainingOptions& options, size_t& realSteps) {
  const auto start = std::chrono::steady_clock::now();
  const AgentConfig& config = agent.config();
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  RlflowTrainingReport report;

  // 1. The world model's data, each episode on a stream of its own so that shards can collect it.
  std::vector<WorldModelEpisode> data =
      options.collect ? options.collect(realSteps)
                      : collectSeededEpisodes(models, 0, options.worldModelEpisodes, config.rules, options.randomStopProbability, options.seed,
                                              realSteps, options.progress);
  std::mt19937_64 random(options.seed); // the world model's batches
  size_t stepsAfter = realSteps;
  for (const WorldModelEpisode& episode : data) stepsAfter -= episode.actions.size(); // the count before collecting
  for (const WorldModelEpisode& episode : data) {
    double total = 0;
    for (double reward : episode.rewards) total += reward;
    stepsAfter += episode.actions.size();
    report.realEpisodes.push_back({"world-model", episode.model, total, static_cast<int>(episode.actions.size()), stepsAfter});
  }

  // 2. V and M.
  const size_t batchSize = static_cast<size_t>(config.episodesPerUpdate);
  std::vector<size_t> order(data.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  size_t next = order.size();
  for (int update = 0; update < options.worldModelUpdates && !data.empty(); ++update) {
    if (options.stopRequested && options.stopRequested()) break;
    std::vector<WorldModelEpisode> batch;
    while (batch.size() < std::min(batchSize, data.size())) {
      if (next == order.size()) {
        std::shuffle(order.begin(), order.end(), random);
        next = 0;
      }
      batch.push_back(data[order[next++]]);
    }
    const double rate = decayedRate(options.worldModelLearningRate, update, options.worldModelUpdates);
    report.worldModel.push_back(agent.trainWorldModel(batch, rate));
    const WorldModelLosses& l = report.worldModel.back();
    if ((update + 1) % 10 == 0 || update + 1 == options.worldModelUpdates)
      say(format("world-model update %d/%d: loss %.4f (z NLL %.3f, reward MAE %.4f, listed MSE %.4f, done BCE %.4f, mask %.4f), lr %.5f", update + 1,
                 options.worldModelUpdates, l.total, l.latentNll, l.reward, l.listedReward, l.done, l.mask, rate));
  }

  // 3. C in dreams, from each model's real first state (a reset, not a step). Every dream starts
  // from a real state, whose mask and rewrites' savings are listed: its first step takes the real
  // mask and reward, and only the steps after it are the world model's.
  std::vector<Observation> firstObservations;
  std::vector<Latent> firstStates;
  for (size_t m = 0; m < models.models().size(); ++m) {
    firstObservations.push_back(models.begin(static_cast<int>(m)).observation());
    firstStates.push_back(agent.encode(firstObservations.back()));
  }
  std::string bestWeights;
  auto evaluate = [&](int dreamsDone) {
    RlflowEvaluation evaluation{dreamsDone, 0, options.evaluate(agent)};
    evaluation.realStepsAfter = realSteps;
    report.evaluations.push_back(evaluation);
    const bool better = !report.best || evaluation.score > report.best->score;
    say(format("evaluation after dream episode %d: %.3f%s, %zu real steps so far", dreamsDone, evaluation.score, better ? " (best so far)" : "",
               realSteps));
    if (!better) return;
    report.best = evaluation;
    bestWeights = agent.weights();
  };
  const bool evaluating = options.evaluateEvery > 0 && static_cast<bool>(options.evaluate);
  if (evaluating) evaluate(0);
  const bool lockstep = options.dream == DreamMode::Lockstep, branching = options.dream == DreamMode::Branch;
  const int episodeHorizon = options.dreamHorizon > 0 ? options.dreamHorizon : config.horizon;
  const int horizon = branching ? std::min(episodeHorizon, std::max(1, options.branchLength)) : episodeHorizon;
  // MBPO's branch points: every state of the world model's data with an action after it.
  std::vector<std::pair<size_t, size_t>> branchPoints;
  for (size_t e = 0; branching && e < data.size(); ++e)
    for (size_t k = 0; k < data[e].actions.size(); ++k) branchPoints.emplace_back(e, k);
  if (branching && branchPoints.empty()) throw Error("dream=branch needs world-model episodes with at least one step");
  for (int episode = 0; episode < options.dreamEpisodes; ++episode) {
    if (options.stopRequested && options.stopRequested()) break;
    const size_t model = static_cast<size_t>(episode) % firstStates.size();
    Environment* real = lockstep ? &models.begin(episode) : nullptr;
    Latent z = firstStates[model];
    const Observation* start = &firstObservations[model];
    DreamEpisodeRecord record{episode, models.label(episode), 0, 0};
    if (branching) {
      const auto [e, k] = branchPoints[std::uniform_int_distribution<size_t>(0, branchPoints.size() - 1)(random)];
      start = &data[e].states[k];
      z = agent.encode(*start);
      record.label = data[e].model;
    }
    DreamMemory memory = agent.dreamStart();
    double realReward = 0;
    int realStepsOfEpisode = 0;
    while (record.steps < horizon) {
      const bool fromRealState = record.steps == 0 && !lockstep; // lockstep dreams its rewards, as published
      const ActionMask mask = lockstep ? maskOf(real->observation(), config.rules) : fromRealState ? maskOf(*start, config.rules) : agent.predictMask(z);
      const RlflowDecision decision = agent.decide(z, mask, /*explore=*/true);
      if (decision.action.rule == config.rules) {
        agent.record(z, mask, decision, 0.0, true);
        break;
      }
      DreamStep step = agent.dream(memory, z, decision.action, options.temperature);
      if (fromRealState) step.reward = rewardOf(*start, decision.action, config.rules);
      bool done = step.done || record.steps + 1 >= horizon;
      if (lockstep) {
        const StepOutcome outcome = real->step(candidateOf(real->observation(), decision.action, config.rules));
        ++realSteps;
        ++realStepsOfEpisode;
        realReward += outcome.reward;
        done = outcome.done || real->done(); // the real terminal flag, as published
      }
      // A branch cut short by its length has not ended: what follows is the value of where it got
      // to, as MBPO bootstraps; without, a branch of 5 steps learns only 5 steps' rewards and the
      // controller cannot learn a rewrite that pays later. A whole dream ends where a real episode does.
      const bool cutShort = horizon < episodeHorizon && !step.done && record.steps + 1 >= horizon;
      if (cutShort) record.bootstrapped = config.gamma * agent.value(step.next);
      agent.record(z, mask, decision, step.reward + record.bootstrapped, done);
      record.reward += step.reward;
      ++record.steps;
      z = std::move(step.next);
      if (done) break;
    }
    if (lockstep) report.realEpisodes.push_back({"lockstep", record.label, realReward, realStepsOfEpisode, realSteps});
    report.dreams.push_back(record);
    if ((episode + 1) % config.episodesPerUpdate != 0) continue;
    report.updates.push_back(agent.update());
    const PpoUpdateStats& u = report.updates.back();
    double dreamt = 0;
    for (int k = 0; k < config.episodesPerUpdate; ++k) dreamt += report.dreams[report.dreams.size() - 1 - static_cast<size_t>(k)].reward;
    say(format("dream episodes %d/%d (%s): mean dreamt reward %.3f; update %zu: %zu transitions, policy loss %.4f, value loss %.4f, "
               "entropy %.3f; %zu real steps so far",
               episode + 1, options.dreamEpisodes, dreamModeName(options.dream), dreamt / config.episodesPerUpdate, report.updates.size(),
               u.transitions, u.policyLoss, u.valueLoss, u.entropy, realSteps));
    if (evaluating && report.updates.size() % static_cast<size_t>(options.evaluateEvery) == 0) evaluate(episode + 1);
  }
  if (agent.recorded() > 0) report.updates.push_back(agent.update());
  if (!bestWeights.empty()) agent.restoreWeights(bestWeights);
  report.realSteps = realSteps;
  report.seconds = secondsSince(start);
  return report;
}

} // namespace tessera
