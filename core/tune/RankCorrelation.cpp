// Spearman's rho as Pearson's correlation of the ranks (correct with ties).
#include "tune/RankCorrelation.h"

#include "support/Error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace tessera::tune {

std::vector<double> ranksOf(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    for (size_t t = i; t <= j; ++t) rank[order[t]] = static_cast<double>(i + j) / 2.0;
    i = j + 1;
  }
  return rank;
}

std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw Error("spearman: " + std::to_string(a.size()) + " values against " + std::to_string(b.size()));
  if (a.size() < 3) return std::nullopt;
  const std::vector<double> ra = ranksOf(a), rb = ranksOf(b);
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n, mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < ra.size(); ++i) {
    cov += (ra[i] - ma) * (rb[i] - mb);
    va += (ra[i] - ma) * (ra[i] - ma);
    vb += (rb[i] - mb) * (rb[i] - mb);
  }
  if (va == 0 || vb == 0) return std::nullopt;
  return cov / std::sqrt(va * vb);
}

} // namespace tessera::tune
