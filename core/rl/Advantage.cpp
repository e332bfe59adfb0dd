#include "rl/Advantage.h"

#include <cassert>

namespace tessera {

AdvantageEstimate estimateAdvantages(std::span<const double> rewards, std::span<const double> values,
                                     const std::vector<bool>& done, double gamma, double lambda) {
  assert(rewards.size() == values.size() && rewards.size() == done.size() && "one value and done flag per reward");
  const size_t n = rewards.size();
  AdvantageEstimate estimate;
  estimate.advantages.assign(n, 0.0);
  estimate.returns.assign(n, 0.0);
  double next = 0;     // advantage of the following transition
  double nextValue = 0;
  for (size_t i = n; i-- > 0;) {
    if (done[i]) next = nextValue = 0;
    const double delta = rewards[i] + gamma * nextValue - values[i];
    next = delta + gamma * lambda * next;
    estimate.advantages[i] = next;
    estimate.returns[i] = next + values[i];
    nextValue = values[i];
  }
  return estimate;
}

} // namespace tessera
