// Interleaved timing and its interval.
#include "sip/InterleavedTiming.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>

namespace tessera::sip {

namespace {

// Student's t at 97.5 % for 1..30 degrees of freedom; the normal quantile beyond.
double tQuantile(int degrees) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (degrees < 1) return 0;
  return degrees <= 30 ? table[degrees - 1] : 1.960;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

Improvement summarize(const std::vector<double>& baselineMs, const std::vector<double>& candidateMs) {
  Improvement result;
  result.baselineMs = baselineMs;
  result.candidateMs = candidateMs;
  result.rounds = static_cast<int>(std::min(baselineMs.size(), candidateMs.size()));
  if (result.rounds == 0) return result;
  // On the logarithm of each round's ratio: a round the load slowed tenfold is one large log, not
  // a -900 % cut that outweighs every other round (the mean of plain cuts had the opposite sign
  // of the medians' ratio in three of four runs on the shared machine).
  std::vector<double> logs;
  for (int r = 0; r < result.rounds; ++r) logs.push_back(std::log(baselineMs[r] / candidateMs[r]));
  double mean = 0;
  for (double l : logs) mean += l;
  mean /= result.rounds;
  double variance = 0;
  for (double l : logs) variance += (l - mean) * (l - mean);
  const double half = result.rounds > 1 ? tQuantile(result.rounds - 1) * std::sqrt(variance / (result.rounds - 1) / result.rounds) : 0;
  auto cutPct = [](double logRatio) { return (1 - std::exp(-logRatio)) * 100; };
  result.meanPct = cutPct(mean);
  result.lowPct = cutPct(mean - half);
  result.highPct = cutPct(mean + half);
  result.baselineMedianMs = median(baselineMs);
  result.candidateMedianMs = median(candidateMs);
  return result;
}

Improvement timeInterleaved(tune::Runner& runner, const std::string& baselineLibrary, const std::string& candidateLibrary, int rounds,
                            const std::function<void(int round)>& onRound) {
  std::vector<double> baseline, candidate;
  auto time = [&](const std::string& library, std::vector<double>& into) {
    tune::RunResult run = runner.run(library);
    if (run.status != tune::TrialStatus::Ok) throw Error("interleaved timing: " + library + ": " + run.error);
    into.push_back(*std::min_element(run.runMs.begin(), run.runMs.end())); // the repeat the load slowed least
  };
  for (int r = 0; r < rounds; ++r) {
    // Alternating which goes first, so neither always meets the caches or the clock the other left.
    if (r % 2 == 0) {
      time(baselineLibrary, baseline);
      time(candidateLibrary, candidate);
    } else {
      time(candidateLibrary, candidate);
      time(baselineLibrary, baseline);
    }
    if (onRound) onRound(r + 1);
  }
  return summarize(baseline, candidate);
}

} // namespace tessera::sip
