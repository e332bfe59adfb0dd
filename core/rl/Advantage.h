// Generalised advantage estimation (Schulman et al. 2016), the targets PPO learns from.
#pragma once

#include <span>
#include <vector>

namespace tessera {

struct AdvantageEstimate {
  std::vector<double> advantages; // GAE(gamma, lambda) per transition
  std::vector<double> returns;    // advantage + value: the value head's target
};

// Over consecutive transitions of whole episodes: `done[i]` ends an episode at transition i,
// after which nothing is bootstrapped (a buffer that ends mid-episode bootstraps nothing either).
AdvantageEstimate estimateAdvantages(std::span<const double> rewards, std::span<const double> values,
                                     const std::vector<bool>& done, double gamma, double lambda);

} // namespace tessera
