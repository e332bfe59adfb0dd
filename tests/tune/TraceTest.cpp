// Traces: sampling is deterministic in the seed, a trace replays to the same loop nest, a
// mutation changes exactly one decision (deterministically), and JSON round-trips.
#include "TuneTestSupport.h"

#include "tune/CodegenC.h"
#include "tune/DesignSpace.h"
#include "tune/Mutator.h"
#include "tune/Primitives.h"
#include "tune/Schedule.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

namespace tessera::tune {
namespace {

Compute matmul() { return computeOf(parseWorkload("matmul:64x48x32,bias,relu")); }

using test::decisionsOf;

TEST(Trace, SameSeedSameScheduleOtherSeedsDiffer) {
  const Compute c = matmul();
  MultiLevelTilingSpace space;
  EXPECT_EQ(space.sample(c, 11).trace(), space.sample(c, 11).trace());
  std::set<std::string> sources;
  for (uint64_t seed = 0; seed < 8; ++seed) sources.insert(generateC(space.sample(c, seed).nest()));
  EXPECT_GT(sources.size(), 4u);
}

TEST(Trace, SsrsrsStructureAndDecisions) {
  const Compute c = matmul();
  Schedule s = MultiLevelTilingSpace().sample(c, 3);
  std::vector<std::string> names;
  for (const Loop& loop : s.nest().loops) names.push_back(loop.name);
  EXPECT_EQ(names, (std::vector<std::string>{"i.0", "j.0", "i.1", "j.1", "k.0", "i.2", "j.2", "k.1", "i.3", "j.3"}));
  // 3 tiles, cache-write, epilogue placement, register tile, unroll
  EXPECT_EQ(s.trace().samplingInstructions().size(), 7u);
  for (const auto& decision : decisionsOf(s.trace())) EXPECT_FALSE(decision.empty());
  EXPECT_GE(s.nest().parallelLoops(), 1);
}

TEST(Trace, ReplayRebuildsTheSameLoopNest) {
  const Compute c = matmul();
  MultiLevelTilingSpace space;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Schedule sampled = space.sample(c, seed);
    Schedule replayed = replaySchedule(c, sampled.trace(), /*seed for missing decisions=*/999);
    EXPECT_EQ(replayed.nest(), sampled.nest()) << seed;
    EXPECT_EQ(replayed.trace(), sampled.trace());
    EXPECT_EQ(generateC(replayed.nest()), generateC(sampled.nest()));
  }
}

// The unroll bound counts a vector loop as the instructions a C compiler makes of it (full
// vectors plus a scalar remainder), so a body of 64 steps stays 64 instructions; a trace written
// before the lanes were recorded (no attribute) replays as it did, the vector loop one step.
TEST(Trace, UnrollCountsAVectorLoopAsItsInstructions) {
  const Compute c = computeOf(parseWorkload("matmul:4x7x4")); // i 4, j 7, k 4
  auto unrolledWith = [&](int64_t vectorLanes) {
    Schedule s(c, 1);
    s.reorder({"i", "k", "j"});
    s.vectorize(64);
    s.unroll(s.sampleCategorical({64}), vectorLanes);
    std::vector<std::string> unrolled;
    for (const Loop& loop : s.nest().loops)
      if (loop.annotation == LoopAnnotation::Unrolled) unrolled.push_back(loop.name);
    return std::make_pair(unrolled, s.trace());
  };
  // One step for the vector loop: k (4) and i (4 x 4 = 16) fit in 64.
  EXPECT_EQ(unrolledWith(0).first, (std::vector<std::string>{"i", "k"}));
  // 7 lanes of 8 are 7 scalar steps: k makes 28, i would make 112.
  const auto [unrolled, trace] = unrolledWith(8);
  EXPECT_EQ(unrolled, (std::vector<std::string>{"k"}));
  auto unrolledLoops = [](const LoopNest& nest) {
    int count = 0;
    for (const Loop& loop : nest.loops) count += loop.annotation == LoopAnnotation::Unrolled;
    return count;
  };
  EXPECT_EQ(unrolledLoops(replaySchedule(c, traceFromJson(traceToJson(trace))).nest()), 1); // the lanes survive JSON
  Trace legacy = trace;
  for (Instruction& instruction : legacy.instructions)
    if (instruction.kind == InstructionKind::Unroll) instruction.attrs.clear();
  EXPECT_EQ(unrolledLoops(replaySchedule(c, legacy).nest()), 2);
  Trace badLanes = trace;
  for (Instruction& instruction : badLanes.instructions)
    if (instruction.kind == InstructionKind::Unroll) instruction.attrs = {0};
  EXPECT_THROW(replaySchedule(c, badLanes), Error);
  EXPECT_NE(traceToText(trace).find("vector lanes 8"), std::string::npos) << traceToText(trace);
}

TEST(Trace, JsonRoundTrip) {
  const Compute c = computeOf(parseWorkload("conv2d:1x8x9x9,16x8x3x3,s1,p1,bias"));
  Schedule s = MultiLevelTilingSpace().sample(c, 5);
  const std::string json = traceToJson(s.trace());
  Trace parsed = traceFromJson(json);
  EXPECT_EQ(parsed, s.trace());
  EXPECT_EQ(traceToJson(parsed), json);
  EXPECT_EQ(replaySchedule(c, parsed).nest(), s.nest());
}

// The readable form: one line per instruction, each sampling instruction with what it chose and
// each instruction that reads a variable with the value it read.
TEST(Trace, TextShowsEveryInstructionWithItsDecisions) {
  const Compute c = matmul();
  const Trace trace = MultiLevelTilingSpace().sample(c, 4).trace();
  const std::string text = traceToText(trace);
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), trace.instructions.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const Instruction& instruction = trace.instructions[i];
    EXPECT_NE(lines[i].find(instructionName(instruction.kind)), std::string::npos) << lines[i];
    if (instruction.kind == InstructionKind::SamplePerfectTile) {
      std::string decision = "[";
      for (size_t d = 0; d < instruction.decision.size(); ++d) decision += (d ? ", " : "") + std::to_string(instruction.decision[d]);
      EXPECT_EQ(lines[i].rfind(instruction.output + " = " + decision + "] by ", 0), 0u) << lines[i];
    }
    if (instruction.kind == InstructionKind::Split) {
      EXPECT_NE(lines[i].find(instruction.inputs.front() + " = ["), std::string::npos) << "the factors' value: " << lines[i];
    }
  }
}

TEST(Trace, MalformedJsonIsAnError) {
  EXPECT_THROW(traceFromJson("{not json"), Error);
  EXPECT_THROW(traceFromJson("[1, 2]"), Error);
  EXPECT_THROW(traceFromJson(R"({"version": 1, "workload": "matmul:2x2x2"})"), Error);
  EXPECT_THROW(traceFromJson(R"({"version": 9, "workload": "matmul:2x2x2", "instructions": []})"), Error);
  EXPECT_THROW(traceFromJson(R"({"version": 1, "workload": "matmul:2x2x2", "instructions": [{"kind": "Fuse"}]})"), Error);
  EXPECT_THROW(traceFromJson(R"({"version": 1, "workload": "m", "instructions": [{"kind": "Split", "loops": [1]}]})"), Error);
  // A float where an integer belongs is refused by name, not cast (out of range, casting is undefined).
  for (const char* attrs : {"[1e30]", "[2.5]", "[18446744073709551615]"}) {
    try {
      traceFromJson(std::string(R"({"version": 1, "workload": "m", "instructions": [{"kind": "Parallel", "attrs": )") + attrs + "}]}");
      ADD_FAILURE() << attrs << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("'attrs' has"), std::string::npos) << e.what();
    }
  }
}

TEST(Trace, ReplayRejectsDecisionsThatDoNotFit) {
  const Compute c = matmul();
  Trace trace = MultiLevelTilingSpace().sample(c, 1).trace();
  Trace badTile = trace;
  badTile.instructions[0].decision = {2, 2, 2, 2}; // 16, not i's extent 64
  EXPECT_THROW(replaySchedule(c, badTile), Error);
  badTile.instructions[0].decision = {1, 7, 2000000000000000000, 1}; // the product overflows int64 (fuzz_tuning_trace)
  EXPECT_THROW(replaySchedule(c, badTile), Error);
  Trace badIndex = trace;
  for (size_t i : badIndex.samplingInstructions())
    if (badIndex.instructions[i].kind == InstructionKind::SampleCategorical) badIndex.instructions[i].decision = {7};
  EXPECT_THROW(replaySchedule(c, badIndex), Error);
  EXPECT_THROW(replaySchedule(computeOf(parseWorkload("matmul:8x8x8")), trace), Error); // another workload
}

TEST(Trace, MutationChangesOneDecisionDeterministically) {
  const Compute c = matmul();
  MultiLevelTilingSpace space;
  const Trace original = space.sample(c, 21).trace();
  std::optional<Trace> a = mutateTrace(c, original, space, 77);
  std::optional<Trace> b = mutateTrace(c, original, space, 77);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(test::changedDecisions(original, *a), 1);
  EXPECT_NO_THROW(replaySchedule(c, *a));
  // Other seeds reach other decisions.
  std::set<std::vector<std::vector<int64_t>>> reached;
  for (uint64_t seed = 0; seed < 12; ++seed)
    if (auto m = mutateTrace(c, original, space, seed)) reached.insert(decisionsOf(*m));
  EXPECT_GT(reached.size(), 3u);
}

TEST(Primitives, CheckTheirPreconditions) {
  LoopNest nest = initialNest(matmul());
  EXPECT_THROW(split(nest, "i", {3, 3}), Error);   // 9 != 64
  EXPECT_THROW(split(nest, "q", {64}), Error);     // no such loop
  EXPECT_THROW(split(nest, "i", {0, 64}), Error);  // non-positive
  EXPECT_EQ(split(nest, "i", {4, 16}), (std::vector<std::string>{"i.0", "i.1"}));
  EXPECT_EQ(nest.loops[0].stride, 16);
  EXPECT_EQ(nest.loops[1].stride, 1);
  reorder(nest, {"k", "i.0"}); // k takes i.0's place
  EXPECT_EQ(nest.loops[0].name, "k");
  EXPECT_THROW(cacheWrite(nest, 1), Error); // the reduction loop would be outside
  reorder(nest, {"i.0", "k"});
  EXPECT_THROW(reorder(nest, {"i.0", "i.0"}), Error);
  // i.1 outside and i.0 inside: the tile of i would not be contiguous.
  reorder(nest, {"i.1", "i.0"});
  EXPECT_THROW(cacheWrite(nest, 1), Error);
  reorder(nest, {"i.0", "i.1"});
  cacheWrite(nest, 1);
  EXPECT_EQ(nest.accumulatorElements(), 16 * 48);
  EXPECT_THROW(registerTile(nest, 1), Error); // not inside the accumulator
  registerTile(nest, 2);                       // j and k inside: a 1x48 tile across the reduction
  EXPECT_EQ(nest.registerTileElements(), 48);
  EXPECT_THROW(cacheWrite(nest, 3), Error); // the register tile would be outside the accumulator
}

} // namespace
} // namespace tessera::tune
