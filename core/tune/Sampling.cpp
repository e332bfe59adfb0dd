// Sampling decisions: perfect tiles and categorical choices.
#include "tune/Sampling.h"

namespace tessera::tune {

uint64_t uniformBelow(Rng& rng, uint64_t bound) {
  // Rejection keeps it unbiased; the loop almost never repeats for the small bounds used here.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t value = rng();
  while (value >= limit) value = rng();
  return value % bound;
}

std::vector<int64_t> samplePerfectTile(Rng& rng, int64_t extent, int parts, int64_t maxInnermost) {
  std::vector<int64_t> primes;
  for (int64_t rest = extent, p = 2; rest > 1; ++p) {
    if (p * p > rest) p = rest;
    while (rest % p == 0) primes.push_back(p), rest /= p;
  }
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::vector<int64_t> factors(parts, 1);
    for (int64_t prime : primes) factors[uniformBelow(rng, parts)] *= prime;
    if (factors.back() <= maxInnermost) return factors;
  }
  // A large prime extent may never fit the innermost part: keep it outside.
  std::vector<int64_t> factors(parts, 1);
  factors[0] = extent;
  return factors;
}

int64_t sampleCategorical(Rng& rng, size_t count, const std::vector<double>& weights) {
  if (weights.size() != count) return static_cast<int64_t>(uniformBelow(rng, count));
  double total = 0;
  for (double w : weights) total += w;
  double point = total * (static_cast<double>(rng() >> 11) * 0x1p-53);
  for (size_t i = 0; i < count; ++i) {
    point -= weights[i];
    if (point < 0) return static_cast<int64_t>(i);
  }
  return static_cast<int64_t>(count - 1);
}

} // namespace tessera::tune
