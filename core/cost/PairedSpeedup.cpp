#include "cost/PairedSpeedup.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace tessera {

double medianOf(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2) return upper;
  return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle)) + upper) / 2;
}

SpeedupEstimate pairedSpeedup(std::span<const double> originalMs, std::span<const double> candidateMs, double confidence,
                              uint64_t seed, int resamples) {
  if (originalMs.size() != candidateMs.size())
    throw Error("paired timings need as many original as candidate runs, got " + std::to_string(originalMs.size()) + " and " +
                std::to_string(candidateMs.size()));
  if (originalMs.size() < 2) throw Error("a speedup interval needs at least two pairs of runs, got " + std::to_string(originalMs.size()));
  std::vector<double> ratios;
  for (size_t i = 0; i < originalMs.size(); ++i) {
    if (!(originalMs[i] > 0) || !(candidateMs[i] > 0))
      throw Error("run " + std::to_string(i) + " has a time that is not positive (" + std::to_string(originalMs[i]) + " ms, " +
                  std::to_string(candidateMs[i]) + " ms)");
    ratios.push_back(candidateMs[i] / originalMs[i]);
  }
  SpeedupEstimate estimate;
  estimate.confidence = confidence;
  estimate.pct = (1 - medianOf(ratios)) * 100;

  std::mt19937_64 random(seed);
  std::uniform_int_distribution<size_t> pick(0, ratios.size() - 1);
  std::vector<double> medians, sample(ratios.size());
  medians.reserve(static_cast<size_t>(std::max(resamples, 1)));
  for (int r = 0; r < std::max(resamples, 1); ++r) {
    for (double& value : sample) value = ratios[pick(random)];
    medians.push_back(medianOf(sample));
  }
  std::sort(medians.begin(), medians.end());
  const auto quantile = [&](double q) {
    const double position = q * static_cast<double>(medians.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(position));
    const size_t above = std::min(below + 1, medians.size() - 1);
    return medians[below] + (position - static_cast<double>(below)) * (medians[above] - medians[below]);
  };
  const double tail = (1 - confidence) / 2;
  // A high ratio is a low speedup.
  estimate.lowPct = (1 - quantile(1 - tail)) * 100;
  estimate.highPct = (1 - quantile(tail)) * 100;
  return estimate;
}

} // namespace tessera
