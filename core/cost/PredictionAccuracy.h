// How well predicted costs match measured latencies: Spearman's rank correlation (does the model
// order graphs as the device does?) and the mean absolute percentage error (how far off it is).
#pragma once

#include <span>
#include <vector>

namespace tessera {

// Ranks from 1, ties sharing the mean of the ranks they span (so [5, 1, 5] ranks [2.5, 1, 2.5]).
std::vector<double> fractionalRanks(std::span<const double> values);

// Pearson's correlation of the fractional ranks. NaN with fewer than two pairs, or when either side
// is constant (no ordering to compare). Precondition: equal sizes.
double spearmanCorrelation(std::span<const double> predicted, std::span<const double> measured);

// mean(|predicted - measured| / measured) x 100 over pairs with measured > 0; NaN when none.
// Precondition: equal sizes.
double meanAbsolutePercentageError(std::span<const double> predicted, std::span<const double> measured);

} // namespace tessera
