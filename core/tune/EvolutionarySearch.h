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
#include <optional>
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
  // Tessera's addition: the share of a batch's model picks that may hold one micro-kernel (the
  // innermost tile of every spatial axis, see microKernelOf); 1 lets the model fill a batch with one.
  double maxShareOfOneMicroKernel = 0.25;
  int minSamplesToTrain = 8; // measured candidates before the model is trusted
};

// What one round of the search did (`tune --json`'s search_rounds): how good the model's ranking
// was on what was measured, and where the round's time went.
struct SearchRound {
  int proposed = 0;  // traces handed to the tuner
  int fromModel = 0; // of them, picked by the model (the rest are fresh samples)
  int measured = 0;  // outcomes notified
  int failed = 0;
  bool modelTrained = false; // when the round was proposed
  // Spearman's rho of the predicted score and the measured throughput (0 for a failed trial) of
  // this round's measured candidates, predicted before the model saw them; none before the model
  // is trained or with fewer than 3.
  std::optional<double> spearman;
  double meanPredictedPicked = 0; // the model's score of the picks...
  double meanPredictedFresh = 0;  // ...and of the round's fresh samples
  double proposeSeconds = 0;      // nextBatch(): sampling, evolution, prediction
  double learnSeconds = 0;        // notify(): replay, features, retraining
};

// The innermost tile of each spatial axis, as "1x4x4x8" in the compute's axis order: the
// micro-kernel of outputs that the register tile and the vector loop hold, which decides most of a
// kernel's speed.
std::string microKernelOf(const LoopNest& nest);

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
  const std::vector<SearchRound>& rounds() const { return rounds_; }

private:
  // A trace replayed, with what the search needs of it.
  struct Individual {
    Trace trace;
    std::string hash; // of its kernel, as the tuner dedupes
    std::string microKernel;
    std::vector<float> features;
  };
  struct Measurement {
    Individual individual;
    double latencyMs = 0; // 0: failed
  };

  Individual replay(const Trace& trace) const;
  Individual individualOf(const Schedule& schedule) const;
  std::vector<Individual> freshSamples(int count);
  std::vector<Individual> initialPopulation(std::vector<Individual>& fresh);
  // The best-predicted individuals never measured nor proposed, best first.
  std::vector<Individual> evolve(std::vector<Individual> population);
  std::vector<float> predict(const std::vector<Individual>& individuals) const;
  void retrain();

  const Compute& compute_;
  const SpaceGenerator& space_;
  std::unique_ptr<CostModel> model_;
  EvolutionaryOptions options_;
  Rng rng_;
  std::vector<Measurement> measured_;
  std::set<std::string> proposed_; // hashes handed out (measured, or skipped by the tuner)
  std::vector<SearchRound> rounds_;
  std::map<std::string, float> predictedThisRound_; // by hash, for the round's Spearman
};

} // namespace tessera::tune
