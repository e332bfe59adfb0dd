// Spearman's rank correlation: how well a cost model orders candidates, which is all the search
// needs of it (the scores' scale does not matter).
#pragma once

#include <optional>
#include <vector>

namespace tessera::tune {

// The ranks of the values, 0-based, ties sharing their mean rank.
std::vector<double> ranksOf(const std::vector<double>& values);

// Spearman's rho of two equally long series; nullopt with fewer than 3 values or when either
// series is constant (no order to compare).
std::optional<double> spearman(const std::vector<double>& a, const std::vector<double>& b);

} // namespace tessera::tune
