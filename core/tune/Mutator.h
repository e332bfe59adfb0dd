// Mutation: one sampling decision of a trace redrawn, the rest kept (MetaSchedule's tile-size and
// categorical mutators). The instructions never change.
#pragma once

#include "tune/DesignSpace.h"

#include <cstdint>
#include <optional>

namespace tessera::tune {

// A trace that differs from `trace` in one decision and replays into the space, or nullopt when
// none was found in a few dozen draws (every decision is forced). Deterministic in `seed`.
std::optional<Trace> mutateTrace(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed);

} // namespace tessera::tune
