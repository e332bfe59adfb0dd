// Search strategies (MetaSchedule's search_strategy): what to measure next. Random search draws
// fresh schedules from the design space; an evolutionary search would mutate the best measured
// traces, ranked by a cost model, and learns from notify().
#pragma once

#include "tune/DesignSpace.h"
#include "tune/TrialStatus.h"

#include <string>
#include <vector>

namespace tessera::tune {

// What a strategy learns of one measured trace.
struct TrialOutcome {
  Trace trace;
  TrialStatus status = TrialStatus::Ok;
  double latencyMs = 0; // Ok only
};

class SearchStrategy {
public:
  virtual ~SearchStrategy() = default;
  virtual std::string name() const = 0;
  // Up to `count` traces to measure next (the tuner skips kernels it has measured before).
  virtual std::vector<Trace> nextBatch(int count) = 0;
  virtual void notify(const std::vector<TrialOutcome>& outcomes) { (void)outcomes; }
};

class RandomSearch : public SearchStrategy {
public:
  // The compute and space must outlive the strategy.
  RandomSearch(const Compute& compute, const SpaceGenerator& space, uint64_t seed);
  std::string name() const override { return "random"; }
  std::vector<Trace> nextBatch(int count) override;

private:
  const Compute& compute_;
  const SpaceGenerator& space_;
  Rng rng_;
};

} // namespace tessera::tune
