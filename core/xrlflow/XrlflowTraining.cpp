#include "xrlflow/XrlflowTraining.h"

#include "search/Strategy.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>

namespace tessera {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string format(const char* pattern, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, values...);
  return buffer;
}

} // namespace

RewriteEnvironmentOptions environmentOptionsFor(const AgentConfig& config) {
  RewriteEnvironmentOptions options;
  options.maxCandidates = static_cast<size_t>(config.maxCandidates);
  options.horizon = config.horizon;
  return options;
}

RewriteEnvironmentOptions argmaxOptionsFor(const AgentConfig& config) {
  RewriteEnvironmentOptions options = environmentOptionsFor(config);
  options.horizon = kArgmaxMaxSteps;
  return options;
}

size_t argmaxAction(const AgentDecision& decision, RewriteEnvironment& environment, const std::set<std::string>& pinned) {
  const std::vector<RewriteCandidate>& candidates = environment.candidates();
  auto isPinned = [&](const RewriteCandidate& c) { return pinned.count(environment.rule(c.ruleIndex).name()) > 0; };
  const bool pinnedOnly = std::any_of(candidates.begin(), candidates.end(), isPinned);
  size_t best = environment.stopAction();
  for (size_t a = 0; a < candidates.size(); ++a) {
    if (decision.probabilities[a] <= decision.probabilities[best]) continue; // ties: stop, then the cheaper
    if (pinnedOnly && !isPinned(candidates[a])) continue;
    if (environment.leadsBack(a)) continue;
    best = a;
  }
  return best;
}

std::vector<double> argmaxSpeedups(XrlflowAgent& agent, GraphEpisodes& models) {
  std::vector<double> speedups;
  RewriteEnvironment& environment = models.environment();
  for (const NamedGraph& model : models.models()) {
    environment.reset(model.graph);
    double best = environment.costMs();
    while (!environment.done()) {
      environment.step(argmaxAction(agent.decide(environment.observation(), /*explore=*/false), environment));
      best = std::min(best, environment.costMs());
    }
    const double initial = environment.initialCostMs();
    speedups.push_back(initial > 0 ? 100.0 * (initial - best) / initial : 0.0);
  }
  return speedups;
}

std::vector<double> greedySpeedups(const std::vector<NamedGraph>& models, std::span<const Rule* const> rules, CostModel& cost) {
  std::vector<double> speedups;
  for (const NamedGraph& model : models) {
    Control control;
    EventStream events;
    speedups.push_back(makeStrategy("greedy")->run(SearchInput{model.graph, rules, cost, control, events, {}}).speedupPct);
  }
  return speedups;
}

double gainOverBaseline(const std::vector<double>& speedups, const std::vector<double>& baseline, double lossWeight) {
  assert(speedups.size() == baseline.size() && "one baseline per model");
  double total = 0;
  for (size_t i = 0; i < speedups.size(); ++i) {
    const double gain = speedups[i] - baseline[i];
    total += gain < 0 ? lossWeight * gain : gain;
  }
  return speedups.empty() ? 0.0 : total / static_cast<double>(speedups.size());
}

double playEpisode(XrlflowAgent& agent, Environment& environment, bool explore,
                   const std::function<void(const AgentDecision&)>& onStep) {
  double total = 0;
  while (!environment.done()) {
    AgentDecision decision = agent.decide(environment.observation(), explore);
    if (onStep) onStep(decision);
    total += environment.step(decision.action).reward;
  }
  return total;
}

TrainingReport trainAgent(XrlflowAgent& agent, EpisodeSource& source, const TrainingOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const AgentConfig& config = agent.config();
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  TrainingReport report;
  std::string bestWeights;

  const bool evaluating = options.evaluateEvery > 0 && options.evaluate;
  auto evaluate = [&](int episodesDone) {
    EvaluationRecord evaluation{episodesDone, options.evaluate(agent)};
    report.evaluations.push_back(evaluation);
    const bool better = !report.best || evaluation.score > report.best->score;
    say(format("evaluation after episode %d: %.3f%s", episodesDone, evaluation.score, better ? " (best so far)" : ""));
    if (!better) return;
    report.best = evaluation;
    bestWeights = agent.weights();
  };
  auto updateAndEvaluate = [&](int episodesDone) {
    PpoUpdateStats update = agent.update();
    report.updates.push_back(update);
    say(format("update %zu after episode %d: %zu transitions, %d epochs, policy loss %.4f, value loss %.4f, entropy %.3f, KL %.4f, %.1f s",
               report.updates.size(), episodesDone, update.transitions, update.epochs, update.policyLoss, update.valueLoss,
               update.entropy, update.approxKl, update.seconds));
    if (evaluating && report.updates.size() % static_cast<size_t>(options.evaluateEvery) == 0) evaluate(episodesDone);
  };

  if (evaluating) evaluate(0); // the untrained agent is a candidate too: training must earn its keep

  for (int episode = 0; episode < options.episodes; ++episode) {
    if (options.stopRequested && options.stopRequested()) break;
    const auto episodeStart = std::chrono::steady_clock::now();
    Environment& environment = source.begin(episode);
    EpisodeRecord record{episode, source.label(episode), 0.0, 0, 0.0};
    while (!environment.done()) {
      Observation observation = environment.observation();
      AgentDecision decision = agent.decide(observation, /*explore=*/true);
      StepOutcome outcome = environment.step(decision.action);
      agent.record(std::move(observation), decision, outcome.reward, outcome.done || environment.done());
      record.reward += outcome.reward;
      ++record.steps;
    }
    record.seconds = secondsSince(episodeStart);
    report.episodes.push_back(record);
    say(format("episode %d/%d %s: reward %.3f in %d steps, %.1f s", episode + 1, options.episodes, record.label.c_str(), record.reward,
               record.steps, record.seconds));
    if ((episode + 1) % config.episodesPerUpdate == 0) updateAndEvaluate(episode + 1);
  }
  if (agent.recorded() > 0) updateAndEvaluate(static_cast<int>(report.episodes.size()));
  if (!bestWeights.empty()) agent.restoreWeights(bestWeights);
  report.seconds = secondsSince(start);
  return report;
}

} // namespace tessera
