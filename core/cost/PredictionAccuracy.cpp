#include "cost/PredictionAccuracy.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

namespace tessera {

std::vector<double> fractionalRanks(std::span<const double> values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (size_t first = 0; first < order.size();) {
    size_t last = first;
    while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]]) ++last;
    const double shared = (static_cast<double>(first + last) / 2.0) + 1.0;
    for (size_t i = first; i <= last; ++i) ranks[order[i]] = shared;
    first = last + 1;
  }
  return ranks;
}

double spearmanCorrelation(std::span<const double> predicted, std::span<const double> measured) {
  assert(predicted.size() == measured.size() && "one prediction per measurement");
  const size_t n = predicted.size();
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a = fractionalRanks(predicted), b = fractionalRanks(measured);
  const double mean = (static_cast<double>(n) + 1.0) / 2.0; // the mean of any set of fractional ranks
  double covariance = 0, varianceA = 0, varianceB = 0;
  for (size_t i = 0; i < n; ++i) {
    covariance += (a[i] - mean) * (b[i] - mean);
    varianceA += (a[i] - mean) * (a[i] - mean);
    varianceB += (b[i] - mean) * (b[i] - mean);
  }
  if (varianceA == 0 || varianceB == 0) return std::numeric_limits<double>::quiet_NaN();
  return covariance / std::sqrt(varianceA * varianceB);
}

double meanAbsolutePercentageError(std::span<const double> predicted, std::span<const double> measured) {
  assert(predicted.size() == measured.size() && "one prediction per measurement");
  double sum = 0;
  size_t count = 0;
  for (size_t i = 0; i < predicted.size(); ++i) {
    if (!(measured[i] > 0)) continue;
    sum += std::abs(predicted[i] - measured[i]) / measured[i];
    ++count;
  }
  return count ? sum / static_cast<double>(count) * 100.0 : std::numeric_limits<double>::quiet_NaN();
}

} // namespace tessera
