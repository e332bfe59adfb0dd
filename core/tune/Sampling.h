// The random choices behind sampling instructions, from a seeded 64-bit Mersenne Twister with
// Tessera's own integer mapping (std::uniform_int_distribution differs between libraries, and a
// seed must mean the same schedules everywhere).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace tessera::tune {

using Rng = std::mt19937_64;

// Uniform in [0, bound); bound > 0.
uint64_t uniformBelow(Rng& rng, uint64_t bound);

// `parts` factors multiplying to `extent`, innermost (last) at most maxInnermost: each prime
// factor of the extent goes to a uniformly chosen part (MetaSchedule's SamplePerfectTile).
std::vector<int64_t> samplePerfectTile(Rng& rng, int64_t extent, int parts, int64_t maxInnermost);

// An index in [0, count), with the given weights (uniform when empty).
int64_t sampleCategorical(Rng& rng, size_t count, const std::vector<double>& weights);

} // namespace tessera::tune
