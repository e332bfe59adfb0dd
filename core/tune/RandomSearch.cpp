// Random search: independent draws from the design space, one seed each from the search's RNG.
#include "tune/SearchStrategy.h"

namespace tessera::tune {

RandomSearch::RandomSearch(const Compute& compute, const SpaceGenerator& space, uint64_t seed)
    : compute_(compute), space_(space), rng_(seed) {}

std::vector<Trace> RandomSearch::nextBatch(int count) {
  std::vector<Trace> batch;
  for (int i = 0; i < count; ++i) batch.push_back(space_.sample(compute_, rng_()).trace());
  return batch;
}

} // namespace tessera::tune
