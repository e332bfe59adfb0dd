#include "puct/PuctSelfPlay.h"

#include "search/MctsStrategy.h"
#include "support/Error.h"

#include <chrono>
#include <cstdio>
#include <deque>
#include <numeric>
#include <random>

namespace tessera {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string formatted(const char* pattern, double a, double b = 0, double c = 0) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

// The agent as MCTS's guide, keeping each planned root as a target, with noise in root priors.
class RecordingGuide final : public mcts::PriorModel {
public:
  RecordingGuide(PuctAgent& agent, double rootNoise, uint64_t seed) : agent_(agent), rootNoise_(rootNoise), random_(seed) {}
  mcts::Guidance evaluate(const mcts::SearchState& state) override {
    mcts::Guidance guidance = agent_.evaluate(state);
    if (state.root && rootNoise_ > 0) addNoise(guidance.prior);
    return guidance;
  }
  void planned(const mcts::SearchState& state, std::span<const uint32_t> visits) override {
    const double total = std::accumulate(visits.begin(), visits.end(), 0.0);
    if (total <= 0) return;
    PuctSample sample;
    sample.input = observeSearchState(state);
    for (uint32_t v : visits) sample.visitShares.push_back(static_cast<float>(v / total));
    samples.push_back(std::move(sample));
  }
  std::vector<PuctSample> samples;

private:
  void addNoise(std::vector<float>& prior) {
    std::gamma_distribution<double> gamma(0.3, 1.0);
    std::vector<double> noise(prior.size(), 0.0);
    double total = 0;
    for (size_t r = 0; r < prior.size(); ++r)
      if (prior[r] > 0) total += noise[r] = gamma(random_);
    if (total <= 0) return;
    for (size_t r = 0; r < prior.size(); ++r)
      prior[r] = static_cast<float>((1 - rootNoise_) * prior[r] + rootNoise_ * noise[r] / total);
  }

  PuctAgent& agent_;
  double rootNoise_;
  std::mt19937_64 random_;
};

struct GameOutcome {
  SelfPlayGame game;
  std::vector<PuctSample> samples;
};

GameOutcome playGame(PuctAgent& agent, const NamedGraph& model, std::span<const Rule* const> rules, CostModel& cost,
                     const SelfPlayOptions& options, uint64_t seed, double rootNoise) {
  const auto start = Clock::now();
  auto guide = std::make_shared<RecordingGuide>(agent, rootNoise, seed);
  std::unique_ptr<Strategy> strategy = makeMctsStrategy(guide);
  Control control;
  EventStream events;
  SearchOptions search;
  search.seed = seed;
  search.nodeLimit = options.nodeLimit;
  search.timeLimitSeconds = options.gameSeconds;
  search.parameters = {{"simulations", std::to_string(options.simulations)},
                       {"max_steps", std::to_string(options.maxSteps)},
                       {"value_mix", std::to_string(options.valueMix)}};
  SearchResult result = strategy->run(SearchInput{model.graph, rules, cost, control, events, search});
  verifySearchResult(model.graph, result, 1, seed);

  GameOutcome outcome;
  outcome.game.model = model.name;
  outcome.game.verified = result.verified;
  outcome.game.speedupPct = result.verified ? result.speedupPct : 0.0;
  outcome.game.steps = result.steps;
  for (PuctSample& sample : guide->samples) sample.valueTarget = std::max(0.0, outcome.game.speedupPct - sample.input.stateSpeedupPct);
  outcome.samples = std::move(guide->samples);
  outcome.game.samples = outcome.samples.size();
  outcome.game.seconds = secondsSince(start);
  return outcome;
}

} // namespace

SelfPlayReport trainBySelfPlay(PuctAgent& agent, std::span<const NamedGraph> models, std::span<const Rule* const> rules,
                               CostModel& cost, const SelfPlayOptions& options) {
  if (models.empty()) throw Error("puct self-play needs at least one model");
  if (options.games < 1 || options.gamesPerGeneration < 1) throw Error("puct self-play needs at least one game a generation");
  if (options.simulations < 1 || options.batch < 1) throw Error("puct self-play needs simulations and a batch of at least 1");
  const auto start = Clock::now();
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  SelfPlayReport report;
  std::deque<PuctSample> buffer;
  std::mt19937_64 random(options.seed);
  const int generations = (options.games + options.gamesPerGeneration - 1) / options.gamesPerGeneration;
  int game = 0;
  for (int generation = 0; generation < generations; ++generation) {
    const auto generationStart = Clock::now();
    SelfPlayGeneration record;
    record.generation = generation;
    double speedups = 0;
    int played = 0;
    for (; played < options.gamesPerGeneration && game < options.games; ++played, ++game) {
      const NamedGraph& model = models[static_cast<size_t>(game) % models.size()];
      GameOutcome outcome = playGame(agent, model, rules, cost, options, options.seed * 1000003 + static_cast<uint64_t>(game), options.rootNoise);
      outcome.game.generation = generation;
      speedups += outcome.game.speedupPct;
      for (PuctSample& sample : outcome.samples) buffer.push_back(std::move(sample));
      while (buffer.size() > options.replayCapacity) buffer.pop_front();
      say(formatted("generation %.0f, game %.0f", generation + 1, game + 1) + "/" + std::to_string(options.games) + " " + model.name +
          formatted(": speedup %.2f %%", outcome.game.speedupPct) + (outcome.game.verified ? " (verified)" : " (NOT verified: 0)") + ", " +
          std::to_string(outcome.game.steps) + " steps, " + std::to_string(outcome.game.samples) + " targets" +
          formatted(", %.1f s", outcome.game.seconds));
      report.games.push_back(std::move(outcome.game));
    }
    record.meanSpeedupPct = speedups / played;

    std::uniform_int_distribution<size_t> pick(0, buffer.empty() ? 0 : buffer.size() - 1);
    std::vector<const PuctSample*> batch;
    int updates = 0;
    for (; updates < options.updatesPerGeneration && !buffer.empty(); ++updates) {
      batch.clear();
      for (int i = 0; i < options.batch; ++i) batch.push_back(&buffer[pick(random)]);
      PuctLosses losses = agent.train(batch);
      record.losses.policy += losses.policy;
      record.losses.value += losses.value;
    }
    if (updates > 0) {
      record.losses.policy /= updates;
      record.losses.value /= updates;
    }
    record.bufferSamples = buffer.size();
    record.seconds = secondsSince(generationStart);
    say(formatted("generation %.0f: mean speedup %.2f %% (strength of the network that played), ", generation + 1, record.meanSpeedupPct) +
        std::to_string(updates) + " updates on " + std::to_string(buffer.size()) + " targets" +
        formatted(", policy loss %.3f, value loss %.2f", record.losses.policy, record.losses.value) + formatted(", %.1f s", record.seconds));
    report.generations.push_back(record);
  }

  double finalSpeedups = 0;
  for (size_t m = 0; m < models.size(); ++m) {
    GameOutcome outcome = playGame(agent, models[m], rules, cost, options, options.seed * 1000003 + static_cast<uint64_t>(options.games + m), 0.0);
    outcome.game.generation = -1;
    finalSpeedups += outcome.game.speedupPct;
    say("final network, " + models[m].name + formatted(": speedup %.2f %%", outcome.game.speedupPct) +
        (outcome.game.verified ? " (verified)" : " (NOT verified: 0)"));
    report.games.push_back(std::move(outcome.game));
  }
  report.finalMeanSpeedupPct = finalSpeedups / static_cast<double>(models.size());
  report.seconds = secondsSince(start);
  return report;
}

} // namespace tessera
