#include "puct/PuctSelfPlay.h"

#include "search/MctsStrategy.h"
#include "support/Error.h"

#include <algorithm>
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
  RecordingGuide(PuctAgent& agent, double rootNoise, mcts::PolicyTarget target, uint64_t seed)
      : agent_(agent), rootNoise_(rootNoise), target_(target), random_(seed) {}
  mcts::Guidance evaluate(const mcts::SearchState& state) override {
    mcts::Guidance guidance = agent_.evaluate(state);
    if (state.root && rootNoise_ > 0) addNoise(guidance.prior);
    return guidance;
  }
  void planned(const mcts::SearchState& state, const mcts::PlannedRoot& root) override {
    std::vector<float> target =
        target_ == mcts::PolicyTarget::CompletedQ ? mcts::completedQPolicy(root) : mcts::visitShares(root);
    if (target.empty()) return;
    PuctSample sample;
    sample.input = observeSearchState(state);
    sample.policyTarget = std::move(target);
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
  mcts::PolicyTarget target_;
  std::mt19937_64 random_;
};

// Game g's seed of its root noise and its rollouts: its own, whoever plays it.
uint64_t seedOfGame(const SelfPlayOptions& options, int game) { return options.seed * 1000003 + static_cast<uint64_t>(game); }

PlayedGame playGame(PuctAgent& agent, const NamedGraph& model, std::span<const Rule* const> rules, CostModel& cost,
                    const SelfPlayOptions& options, int game, double rootNoise) {
  const auto start = Clock::now();
  const uint64_t seed = seedOfGame(options, game);
  auto guide = std::make_shared<RecordingGuide>(agent, rootNoise, options.policyTarget, seed);
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

  PlayedGame outcome;
  outcome.game.index = game;
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

std::vector<PlayedGame> playSelfPlayGames(PuctAgent& agent, std::span<const NamedGraph> models, std::span<const Rule* const> rules,
                                          CostModel& cost, const SelfPlayOptions& options, int first, int count) {
  if (models.empty()) throw Error("puct self-play needs at least one model");
  std::vector<PlayedGame> played;
  for (int game = first; game < first + count; ++game) {
    const bool finalRound = game >= options.games;
    const size_t model = finalRound ? static_cast<size_t>(game - options.games) : static_cast<size_t>(game) % models.size();
    if (model >= models.size()) throw Error("puct self-play: game " + std::to_string(game + 1) + " is past the final round");
    PlayedGame outcome = playGame(agent, models[model], rules, cost, options, game, finalRound ? 0.0 : options.rootNoise);
    outcome.game.generation = finalRound ? -1 : game / options.gamesPerGeneration;
    if (options.progress) options.progress(selfPlayGameLine(outcome.game, options));
    played.push_back(std::move(outcome));
  }
  return played;
}

std::string selfPlayGameLine(const SelfPlayGame& game, const SelfPlayOptions& options) {
  const std::string verified = game.verified ? " (verified)" : " (NOT verified: 0)";
  if (game.generation < 0) return "final network, " + game.model + formatted(": speedup %.2f %%", game.speedupPct) + verified;
  return formatted("generation %.0f, game %.0f", game.generation + 1, game.index + 1) + "/" + std::to_string(options.games) + " " + game.model +
         formatted(": speedup %.2f %%", game.speedupPct) + verified + ", " + std::to_string(game.steps) + " steps, " +
         std::to_string(game.samples) + " targets" + formatted(", %.1f s", game.seconds);
}

SelfPlayReport trainBySelfPlay(PuctAgent& agent, std::span<const NamedGraph> models, std::span<const Rule* const> rules,
                               CostModel& cost, const SelfPlayOptions& options) {
  if (models.empty()) throw Error("puct self-play needs at least one model");
  if (options.games < 1 || options.gamesPerGeneration < 1) throw Error("puct self-play needs at least one game a generation");
  if (options.simulations < 1 || options.batch < 1) throw Error("puct self-play needs simulations and a batch of at least 1");
  const auto start = Clock::now();
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  auto play = options.play ? options.play : [&](PuctAgent& network, int, int first, int count) {
    return playSelfPlayGames(network, models, rules, cost, options, first, count);
  };
  auto expectGames = [](const std::vector<PlayedGame>& games, int first, int count) {
    if (games.size() != static_cast<size_t>(count))
      throw Error("puct self-play: " + std::to_string(games.size()) + " games came back of " + std::to_string(count));
    for (int i = 0; i < count; ++i)
      if (games[static_cast<size_t>(i)].game.index != first + i) throw Error("puct self-play: the games came back out of order");
  };
  SelfPlayReport report;
  std::deque<PuctSample> buffer;
  std::mt19937_64 random(options.seed);
  const int generations = (options.games + options.gamesPerGeneration - 1) / options.gamesPerGeneration;
  for (int generation = 0; generation < generations; ++generation) {
    const auto generationStart = Clock::now();
    SelfPlayGeneration record;
    record.generation = generation;
    const int first = generation * options.gamesPerGeneration, count = std::min(options.gamesPerGeneration, options.games - first);
    std::vector<PlayedGame> games = play(agent, generation, first, count);
    expectGames(games, first, count);
    double speedups = 0;
    for (PlayedGame& outcome : games) {
      speedups += outcome.game.speedupPct;
      for (PuctSample& sample : outcome.samples) buffer.push_back(std::move(sample));
      while (buffer.size() > options.replayCapacity) buffer.pop_front();
      report.games.push_back(std::move(outcome.game));
    }
    record.meanSpeedupPct = speedups / count;

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

  const int finalCount = static_cast<int>(models.size());
  std::vector<PlayedGame> finalGames = play(agent, -1, options.games, finalCount);
  expectGames(finalGames, options.games, finalCount);
  double finalSpeedups = 0;
  for (PlayedGame& outcome : finalGames) {
    finalSpeedups += outcome.game.speedupPct;
    report.games.push_back(std::move(outcome.game));
  }
  report.finalMeanSpeedupPct = finalSpeedups / static_cast<double>(models.size());
  report.seconds = secondsSince(start);
  return report;
}

} // namespace tessera
