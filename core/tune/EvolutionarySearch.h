// Evolutionary search with a learned cost model (MetaSchedule's EvolutionarySearch): each round
// starts a population from the best measured traces and fresh samples, evolves it for a few
// generations by mutating parents chosen in proportion to their predicted score, and measures the
// best-predicted unmeasured traces, with an epsilon of fresh samples; every measurement retrains
// the model.
#pragma once

#include "tune/CostModel.h"
#include "tune/SearchStrategy.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tessera::tune {

struct EvolutionaryOptions {
  // MetaSchedule's defaults.
  int population = 512;
  double initMeasuredRatio = 0.2; // of the population, from the best measured traces
  int initMinUnmeasured = 50;     // fresh samples, at least
  int generations = 4;
  double mutationProbability = 0.85;
  double epsilon = 0.05; // chance that a measured slot goes to a fresh sample
  int minSamplesToTrain = 8; // measured candidates before the model is trusted
};

class EvolutionarySearch : public SearchStrategy {
public:
  // The compute and space must outlive the strategy. Deterministic in `seed` (with a
  // deterministic model).
  EvolutionarySearch(const Compute& compute, const SpaceGenerator& space, std::unique_ptr<CostModel> model,
                     EvolutionaryOptions options, uint64_t seed);
  std::string name() const override { return "evolutionary"; }
  std::vector<Trace> nextBatch(int count) override;
  void notify(const std::vector<TrialOutcome>& outcomes) override;

  const CostModel& model() const { return *model_; }

private:
  // A trace replayed, with what the search needs of it.
  struct Individual {
    Trace trace;
    std::string hash; // of its kernel, as the tuner dedupes
    std::vector<float> features;
  };
  struct Measurement {
    Individual individual;
    double latencyMs = 0; // 0: failed
  };

  Individual replay(const Trace& trace) const;
  std::vector<Individual> freshSamples(int count);
  std::vector<Individual> initialPopulation(std::vector<Individual>& fresh);
  // The best-predicted individuals never measured nor proposed, at most `count`, best first.
  std::vector<Individual> evolve(std::vector<Individual> population, int count);
  std::vector<float> predict(const std::vector<Individual>& individuals) const;
  void retrain();

  const Compute& compute_;
  const SpaceGenerator& space_;
  std::unique_ptr<CostModel> model_;
  EvolutionaryOptions options_;
  Rng rng_;
  std::vector<Measurement> measured_;
  std::set<std::string> proposed_; // hashes handed out (measured, or skipped by the tuner)
};

} // namespace tessera::tune
