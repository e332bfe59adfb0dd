// Mutating one decision: a mutator drawn by MetaSchedule's probabilities, then one of its decisions.
#include "tune/Mutator.h"

#include "support/Error.h"

#include <algorithm>
#include <array>

namespace tessera::tune {

namespace {

// MetaSchedule's Mutator::DefaultLLVM() probabilities, in DecisionGroup's order.
constexpr std::array<double, 3> kGroupProbability{0.9, 0.05, 0.03};

// The divisors of n above 1, ascending.
std::vector<int64_t> divisorsAbove1(int64_t n) {
  std::vector<int64_t> result;
  for (int64_t d = 2; d <= n; ++d)
    if (n % d == 0) result.push_back(d);
  return result;
}

// Another index of a categorical decision, uniformly among the others.
std::vector<int64_t> otherCategory(Rng& rng, const Instruction& instruction) {
  const int64_t old = instruction.decision.at(0);
  const int64_t index = static_cast<int64_t>(uniformBelow(rng, instruction.attrs.size() - 1));
  return {index >= old ? index + 1 : index};
}

} // namespace

DecisionGroup decisionGroupOf(const Trace& trace, size_t samplingInstruction) {
  const Instruction& sampling = trace.instructions.at(samplingInstruction);
  if (sampling.kind == InstructionKind::SamplePerfectTile) return DecisionGroup::TileSize;
  for (const Instruction& reader : trace.instructions) {
    if (std::find(reader.inputs.begin(), reader.inputs.end(), sampling.output) == reader.inputs.end()) continue;
    if (reader.kind == InstructionKind::Unroll) return DecisionGroup::Unroll;
    if (reader.kind == InstructionKind::CacheReadShared) return DecisionGroup::TileSize;
    return DecisionGroup::ComputeLocation;
  }
  return DecisionGroup::ComputeLocation;
}

std::optional<std::vector<int64_t>> moveTileFactor(Rng& rng, std::vector<int64_t> tiles, int64_t maxInnermost) {
  const size_t parts = tiles.size();
  if (parts < 2) return std::nullopt;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const size_t from = uniformBelow(rng, parts);
    if (tiles[from] <= 1) continue;
    size_t to = uniformBelow(rng, parts - 1);
    if (to >= from) ++to;
    std::vector<int64_t> divisors = divisorsAbove1(tiles[from]);
    if (to == parts - 1) // the innermost factor keeps within its bound
      std::erase_if(divisors, [&](int64_t d) { return d * tiles[to] > maxInnermost; });
    if (divisors.empty()) continue;
    const int64_t d = divisors[uniformBelow(rng, divisors.size())];
    tiles[from] /= d;
    tiles[to] *= d;
    return tiles;
  }
  return std::nullopt;
}

std::optional<Schedule> mutateSchedule(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed) {
  // The decisions each mutator may change; one that cannot change (one category) is left out.
  std::array<std::vector<size_t>, 3> groups;
  for (size_t index : trace.samplingInstructions()) {
    const Instruction& instruction = trace.instructions[index];
    const bool changeable = instruction.kind == InstructionKind::SamplePerfectTile ? instruction.decision.size() >= 2
                                                                                   : instruction.attrs.size() >= 2;
    if (changeable) groups[static_cast<size_t>(decisionGroupOf(trace, index))].push_back(index);
  }
  std::vector<double> weights(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) weights[g] = groups[g].empty() ? 0.0 : kGroupProbability[g];
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0; })) return std::nullopt;
  Rng rng(seed);
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::vector<size_t>& group = groups[sampleCategorical(rng, weights.size(), weights)];
    Trace mutated = trace;
    Instruction& chosen = mutated.instructions[group[uniformBelow(rng, group.size())]];
    if (chosen.kind == InstructionKind::SampleCategorical) {
      chosen.decision = otherCategory(rng, chosen);
    } else {
      std::optional<std::vector<int64_t>> moved = moveTileFactor(rng, chosen.decision, chosen.attrs.at(1));
      if (!moved) continue;
      chosen.decision = std::move(*moved);
    }
    try {
      Schedule replayed = replaySchedule(compute, mutated);
      if (space.reject(replayed.nest()).empty()) return replayed;
    } catch (const Error&) {
      continue; // the new decision does not apply (a cache-write a new tiling cannot hold)
    }
  }
  return std::nullopt;
}

std::optional<Trace> mutateTrace(const Compute& compute, const Trace& trace, const SpaceGenerator& space, uint64_t seed) {
  std::optional<Schedule> schedule = mutateSchedule(compute, trace, space, seed);
  if (!schedule) return std::nullopt;
  return schedule->trace();
}

} // namespace tessera::tune
