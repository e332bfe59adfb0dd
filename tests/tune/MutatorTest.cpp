// The mutators: MetaSchedule's tile-size move (a divisor passes from one factor to another), its
// mutator probabilities, and mutated schedules that stay in the space.
#include "TuneTestSupport.h"

#include "tune/GpuDesignSpace.h"
#include "tune/Mutator.h"

#include <gtest/gtest.h>

#include <numeric>

namespace tessera::tune {
namespace {

int64_t product(const std::vector<int64_t>& v) { return std::accumulate(v.begin(), v.end(), int64_t{1}, std::multiplies<>()); }

TEST(Mutator, TileMoveKeepsTheExtentAndTheInnermostBound) {
  Rng rng(3);
  const std::vector<int64_t> tiles{4, 2, 8, 8};
  std::set<std::vector<int64_t>> reached;
  for (int i = 0; i < 200; ++i) {
    std::optional<std::vector<int64_t>> moved = moveTileFactor(rng, tiles, 16);
    ASSERT_TRUE(moved.has_value());
    EXPECT_EQ(product(*moved), 512);
    EXPECT_LE(moved->back(), 16);
    int changed = 0;
    for (size_t p = 0; p < tiles.size(); ++p) changed += (*moved)[p] != tiles[p];
    EXPECT_EQ(changed, 2) << "one factor divided, one multiplied";
    reached.insert(*moved);
  }
  EXPECT_GT(reached.size(), 8u);
}

TEST(Mutator, TileMoveNeedsAFactorToMove) {
  Rng rng(1);
  EXPECT_FALSE(moveTileFactor(rng, {1, 1, 1}, 64).has_value());
  EXPECT_FALSE(moveTileFactor(rng, {64}, 64).has_value());
  // Only 8 can move, and only outwards: the innermost may not grow past 8.
  for (int i = 0; i < 20; ++i) EXPECT_EQ(moveTileFactor(rng, {1, 8}, 8)->back() < 8, true);
}

TEST(Mutator, DecisionsAreGroupedByWhatReadsThem) {
  const Compute matmul = computeOf(parseWorkload("matmul:64x64x64,relu"));
  const Trace cpu = MultiLevelTilingSpace().sample(matmul, 1).trace();
  int tiles = 0, locations = 0, unrolls = 0;
  for (size_t i : cpu.samplingInstructions()) {
    switch (decisionGroupOf(cpu, i)) {
    case DecisionGroup::TileSize: ++tiles; break;
    case DecisionGroup::ComputeLocation: ++locations; break;
    case DecisionGroup::Unroll: ++unrolls; break;
    }
  }
  EXPECT_EQ(tiles, 3);     // i, j, k
  EXPECT_EQ(locations, 3); // cache-write, epilogue, register tile
  EXPECT_EQ(unrolls, 1);
  // On the GPU a fetch's vector length is MetaSchedule's tile-size mutator's too.
  const Trace gpu = GpuMultiLevelTilingSpace().sample(matmul, 1).trace();
  int fetches = 0;
  for (size_t i : gpu.samplingInstructions())
    if (gpu.instructions[i].kind == InstructionKind::SampleCategorical) fetches += decisionGroupOf(gpu, i) == DecisionGroup::TileSize;
  EXPECT_EQ(fetches, 2);
}

TEST(Mutator, MostMutationsMoveATileFactorLikeMetaSchedule) {
  const Compute c = computeOf(parseWorkload("matmul:512x512x512"));
  MultiLevelTilingSpace space;
  const Trace original = space.sample(c, 5).trace();
  int tileMoves = 0, mutations = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::optional<Schedule> mutated = mutateSchedule(c, original, space, seed);
    if (!mutated) continue;
    ++mutations;
    EXPECT_EQ(space.reject(mutated->nest()), "");
    EXPECT_EQ(mutateTrace(c, original, space, seed), mutated->trace());
    ASSERT_EQ(test::changedDecisions(original, mutated->trace()), 1);
    for (size_t i : original.samplingInstructions()) {
      const Instruction& before = original.instructions[i];
      const Instruction& after = mutated->trace().instructions[i];
      if (before.decision == after.decision || before.kind != InstructionKind::SamplePerfectTile) continue;
      ++tileMoves;
      EXPECT_EQ(product(after.decision), product(before.decision));
      int changed = 0;
      for (size_t p = 0; p < before.decision.size(); ++p) changed += after.decision[p] != before.decision[p];
      EXPECT_EQ(changed, 2) << "a move, not a fresh draw";
    }
  }
  ASSERT_GT(mutations, 250);
  // 0.9 of 0.98 (tile size, compute location, unroll), less the moves the space rejects.
  EXPECT_GT(static_cast<double>(tileMoves) / mutations, 0.8);
  EXPECT_LT(static_cast<double>(tileMoves) / mutations, 0.99);
}

} // namespace
} // namespace tessera::tune
