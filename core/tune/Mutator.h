// Mutation: one sampling decision of a trace changed, the rest kept (MetaSchedule's mutators).
// The instructions never change. As MetaSchedule's CPU default, the mutator is drawn with
// probabilities 0.9 tile size, 0.05 compute location, 0.03 unroll (its fourth, 0.02 parallel, has
// no decision here: the parallel extent is fixed), renormalised over those the trace has.
#pragma once

#include "tune/DesignSpace.h"

#include <cstdint>
#include <optional>

namespace tessera::tune {

// What a sampling instruction decides, by the instruction that reads its variable.
enum class DecisionGroup {
  TileSize,        // SamplePerfectTile, and a GPU fetch's vector length (MetaSchedule's MutateTileSize)
  ComputeLocation, // where the accumulator, register tile or epilogue sits (MutateComputeLocation)
  Unroll,          // the unroll depth (MutateUnroll)
};
DecisionGroup decisionGroupOf(const Trace& trace, size_t samplingInstruction);

// MetaSchedule's tile-size move: a divisor d > 1 of one factor moves to another factor (the
// product stays the extent), the innermost kept at most `maxInnermost`. nullopt when no move fits.
std::optional<std::vector<int64_t>> moveTileFactor(Rng& rng, std::vector<int64_t> tiles, int64_t maxInnermost);

// A schedule whose trace differs from `trace` in one decision and that the space accepts, or
// nullopt when none was found in a few dozen draws (every decision is forced). Deterministic in
// `seed`.
std::optional<Schedule> mutateSchedule(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed);

// mutateSchedule()'s trace.
std::optional<Trace> mutateTrace(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed);

} // namespace tessera::tune
