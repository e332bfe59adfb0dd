// Redrawing one decision of a trace.
#include "tune/Mutator.h"

#include "support/Error.h"

namespace tessera::tune {

std::optional<Trace> mutateTrace(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed) {
  const std::vector<size_t> sampling = trace.samplingInstructions();
  if (sampling.empty()) return std::nullopt;
  Rng rng(seed);
  for (int attempt = 0; attempt < 64; ++attempt) {
    Trace mutated = trace;
    Instruction& chosen = mutated.instructions[sampling[uniformBelow(rng, sampling.size())]];
    const std::vector<int64_t> old = chosen.decision;
    if (chosen.kind == InstructionKind::SampleCategorical) {
      if (chosen.attrs.size() < 2) continue;
      // Another index, uniformly among the others.
      int64_t index = static_cast<int64_t>(uniformBelow(rng, chosen.attrs.size() - 1));
      chosen.decision = {index >= old.at(0) ? index + 1 : index};
    } else {
      int64_t extent = 1;
      for (int64_t f : old) extent *= f;
      chosen.decision = samplePerfectTile(rng, extent, static_cast<int>(old.size()), chosen.attrs.at(1));
      if (chosen.decision == old) continue;
    }
    try {
      Schedule replayed = replaySchedule(compute, mutated);
      if (space.reject(replayed.nest()).empty()) return mutated;
    } catch (const Error&) {
      continue; // the new decision does not apply (a cache-write a new tiling cannot hold)
    }
  }
  return std::nullopt;
}

} // namespace tessera::tune
