// Evolutionary search: population, generations of score-weighted mutation, epsilon-greedy picks.
#include "tune/EvolutionarySearch.h"

#include "tune/Builder.h"
#include "tune/Features.h"
#include "tune/Mutator.h"
#include "tune/RankCorrelation.h"

#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tessera::tune {

namespace {

double unitInterval(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

// Mutations of one slot tried before the slot keeps its parent (MetaSchedule's max fail count).
constexpr int kMaxMutationFailures = 10;

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double mean(const std::vector<float>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (float v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

} // namespace

std::string microKernelOf(const LoopNest& nest) {
  std::vector<int64_t> innermost(static_cast<size_t>(nest.compute.spatialAxes()), 1);
  for (const Loop& loop : nest.loops) // the last loop of an axis is its innermost
    if (!nest.compute.axes[loop.axis].reduction) innermost[loop.axis] = loop.extent;
  std::string key;
  for (size_t a = 0; a < innermost.size(); ++a) key += (a ? "x" : "") + std::to_string(innermost[a]);
  return key;
}

EvolutionarySearch::EvolutionarySearch(const Compute& compute, const SpaceGenerator& space, std::unique_ptr<CostModel> model,
                                       EvolutionaryOptions options, uint64_t seed)
    : compute_(compute), space_(space), model_(std::move(model)), options_(options), rng_(seed) {
  if (!model_) throw Error("evolutionary search: no cost model");
}

EvolutionarySearch::Individual EvolutionarySearch::individualOf(const Schedule& schedule) const {
  // Equal nests are the same kernel, and the nest's text is cheaper to hash than its C.
  return {schedule.trace(), contentHash(schedule.nest().toString()), microKernelOf(schedule.nest()), extractFeatures(schedule.nest())};
}

EvolutionarySearch::Individual EvolutionarySearch::replay(const Trace& trace) const {
  return individualOf(replaySchedule(compute_, trace));
}

std::vector<EvolutionarySearch::Individual> EvolutionarySearch::freshSamples(int count) {
  std::vector<Individual> fresh;
  std::set<std::string> seen;
  for (int i = 0; i < count; ++i) {
    Individual individual = individualOf(space_.sample(compute_, rng_()));
    if (proposed_.count(individual.hash) || !seen.insert(individual.hash).second) continue;
    fresh.push_back(std::move(individual));
  }
  return fresh;
}

std::vector<EvolutionarySearch::Individual> EvolutionarySearch::initialPopulation(std::vector<Individual>& fresh) {
  std::vector<const Measurement*> ok;
  for (const Measurement& m : measured_)
    if (m.latencyMs > 0) ok.push_back(&m);
  std::stable_sort(ok.begin(), ok.end(), [](const Measurement* a, const Measurement* b) { return a->latencyMs < b->latencyMs; });
  const size_t fromMeasured = std::min(ok.size(), static_cast<size_t>(options_.population * options_.initMeasuredRatio));
  std::vector<Individual> population;
  for (size_t i = 0; i < fromMeasured; ++i) population.push_back(ok[i]->individual);
  for (const Individual& individual : fresh) {
    if (static_cast<int>(population.size()) >= options_.population) break;
    population.push_back(individual);
  }
  return population;
}

std::vector<float> EvolutionarySearch::predict(const std::vector<Individual>& individuals) const {
  FeatureRows rows;
  rows.reserve(individuals.size());
  for (const Individual& individual : individuals) rows.push_back(individual.features);
  return model_->predict(rows);
}

std::vector<EvolutionarySearch::Individual> EvolutionarySearch::evolve(std::vector<Individual> population) {
  // The best-scored unmeasured individuals seen in any generation, by kernel, with the score of
  // the generation that first saw them.
  std::vector<std::pair<float, Individual>> best;
  std::set<std::string> seen;
  for (int generation = 0;; ++generation) {
    std::vector<float> scores = predict(population);
    for (size_t i = 0; i < population.size(); ++i) {
      if (proposed_.count(population[i].hash) || !seen.insert(population[i].hash).second) continue;
      best.emplace_back(scores[i], population[i]);
    }
    if (generation == options_.generations || population.empty()) break;
    // Parents in proportion to their predicted score, clamped at 0 as MetaSchedule does (and a
    // little more, so that a population the model scores 0 throughout still has parents).
    std::vector<double> weights(scores.size());
    for (size_t i = 0; i < scores.size(); ++i) weights[i] = std::max<double>(scores[i], 0.0) + 1e-6;
    std::vector<Individual> next;
    next.reserve(population.size());
    // A parent passes on unmutated at most once a generation (MetaSchedule's bitmask), so that
    // copies of the favourite do not crowd the population out.
    std::vector<bool> copied(population.size(), false);
    for (size_t slot = 0; slot < population.size(); ++slot) {
      size_t parent = 0;
      bool filled = false;
      for (int failures = 0; failures <= kMaxMutationFailures && !filled; ++failures) {
        parent = static_cast<size_t>(sampleCategorical(rng_, weights.size(), weights));
        if (unitInterval(rng_) < options_.mutationProbability) {
          if (std::optional<Schedule> child = mutateSchedule(compute_, population[parent].trace, space_, rng_())) {
            next.push_back(individualOf(*child));
            filled = true;
          }
        } else if (!copied[parent]) {
          copied[parent] = true;
          next.push_back(population[parent]);
          filled = true;
        }
      }
      if (!filled) next.push_back(population[parent]); // out of tries: the last parent stays
    }
    population = std::move(next);
  }
  std::stable_sort(best.begin(), best.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Individual> ranked;
  ranked.reserve(best.size());
  for (auto& [score, individual] : best) ranked.push_back(std::move(individual));
  return ranked;
}

std::vector<Trace> EvolutionarySearch::nextBatch(int count) {
  const auto start = std::chrono::steady_clock::now();
  SearchRound round;
  round.modelTrained = model_->trained();
  size_t fromMeasured = 0;
  for (const Measurement& m : measured_) fromMeasured += m.latencyMs > 0;
  fromMeasured = std::min(fromMeasured, static_cast<size_t>(options_.population * options_.initMeasuredRatio));
  std::vector<Individual> fresh =
      freshSamples(std::max(options_.population - static_cast<int>(fromMeasured), options_.initMinUnmeasured));
  // Until the model has learned something its ranking is noise: measure fresh samples.
  std::vector<Individual> ranked;
  if (round.modelTrained) ranked = evolve(initialPopulation(fresh));
  // A model sure of one micro-kernel would fill every batch with its variants (one search stayed
  // on one for 151 of 200 trials and never measured the micro-kernel random search won with):
  // each takes at most its share of the model's picks, and the next-best others take the rest.
  const int perMicroKernel = std::max(1, static_cast<int>(std::ceil(options_.maxShareOfOneMicroKernel * count)));
  std::map<std::string, int> picksOf;
  std::vector<Trace> batch;
  std::vector<Individual> picks;
  size_t nextRanked = 0, nextFresh = 0;
  auto take = [&](std::vector<Individual>& from, size_t& next, bool capped) {
    for (; next < from.size(); ++next) {
      if (proposed_.count(from[next].hash)) continue;
      if (capped && picksOf[from[next].microKernel] >= perMicroKernel) continue;
      proposed_.insert(from[next].hash);
      ++picksOf[from[next].microKernel];
      batch.push_back(from[next].trace);
      picks.push_back(from[next++]);
      return true;
    }
    return false;
  };
  while (static_cast<int>(batch.size()) < count) {
    const bool explore = unitInterval(rng_) < options_.epsilon;
    if (explore && take(fresh, nextFresh, false)) continue;
    if (take(ranked, nextRanked, true)) {
      ++round.fromModel;
      continue;
    }
    if (take(fresh, nextFresh, false)) continue;
    break; // nothing new left this round
  }
  round.proposed = static_cast<int>(batch.size());
  predictedThisRound_.clear();
  if (round.modelTrained) {
    const std::vector<float> pickScores = predict(picks), freshScores = predict(fresh);
    for (size_t i = 0; i < picks.size(); ++i) predictedThisRound_[picks[i].hash] = pickScores[i];
    round.meanPredictedPicked = mean(pickScores);
    round.meanPredictedFresh = mean(freshScores);
  }
  round.proposeSeconds = secondsSince(start);
  rounds_.push_back(round);
  return batch;
}

void EvolutionarySearch::notify(const std::vector<TrialOutcome>& outcomes) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> predicted, throughput;
  int measured = 0, failed = 0;
  for (const TrialOutcome& outcome : outcomes) {
    Measurement m;
    try {
      m.individual = replay(outcome.trace);
    } catch (const Error&) {
      continue; // not a trace of this space: nothing to learn from it
    }
    m.latencyMs = outcome.status == TrialStatus::Ok ? outcome.latencyMs : 0;
    ++measured;
    failed += m.latencyMs <= 0;
    if (auto at = predictedThisRound_.find(m.individual.hash); at != predictedThisRound_.end()) {
      predicted.push_back(at->second);
      throughput.push_back(m.latencyMs > 0 ? 1.0 / m.latencyMs : 0.0);
    }
    proposed_.insert(m.individual.hash);
    measured_.push_back(std::move(m));
  }
  retrain();
  if (!rounds_.empty()) {
    SearchRound& round = rounds_.back();
    round.measured += measured;
    round.failed += failed;
    if (round.modelTrained) round.spearman = spearman(predicted, throughput);
    round.learnSeconds += secondsSince(start);
  }
  predictedThisRound_.clear();
}

void EvolutionarySearch::retrain() {
  double bestMs = 0;
  int ok = 0;
  for (const Measurement& m : measured_) {
    if (m.latencyMs <= 0) continue;
    ++ok;
    if (bestMs == 0 || m.latencyMs < bestMs) bestMs = m.latencyMs;
  }
  if (ok < options_.minSamplesToTrain) return;
  FeatureRows rows;
  std::vector<float> scores;
  for (const Measurement& m : measured_) {
    rows.push_back(m.individual.features);
    scores.push_back(m.latencyMs > 0 ? static_cast<float>(bestMs / m.latencyMs) : 0.0f);
  }
  model_->fit(rows, scores);
}

} // namespace tessera::tune
