// The speedup of a candidate graph over the original from paired end-to-end timings, with a
// confidence interval, so that "faster" means faster beyond the noise of the machine.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessera {

struct SpeedupEstimate {
  double pct = 0;     // (1 - median of the pairs' candidate/original ratios) x 100
  double lowPct = 0;  // the interval on pct
  double highPct = 0;
  double confidence = 0.95;
};

// originalMs[i] and candidateMs[i] were timed back to back, so each ratio cancels the load the
// machine had at that moment. The point estimate is the median ratio (robust to a run stretched
// by another process); the interval is the percentile bootstrap of that median over resampled
// pairs, seeded, so the same timings always give the same interval. Throws tessera::Error for
// fewer than two pairs, unequal lengths or a time that is not positive.
SpeedupEstimate pairedSpeedup(std::span<const double> originalMs, std::span<const double> candidateMs, double confidence = 0.95,
                              uint64_t seed = 1, int resamples = 2000);

double medianOf(std::vector<double> values);

} // namespace tessera
