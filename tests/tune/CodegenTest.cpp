// Every generated kernel matches the reference interpreter: random schedules of matmul, batched
// matmul and conv (with and without the epilogue), plus each cache-write and epilogue placement
// forced on one schedule.
#include "TuneTestSupport.h"

#include "tune/CodegenC.h"
#include "tune/DesignSpace.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

void expectAllMatch(const std::string& workload, const std::vector<Trace>& traces, TuneContext& context) {
  std::vector<Candidate> candidates;
  for (const Trace& trace : traces) candidates.push_back(lowerCandidate(context.compute, trace));
  std::vector<MeasuredCandidate> measured = measureCandidates(context, candidates);
  ASSERT_EQ(measured.size(), traces.size());
  for (const MeasuredCandidate& m : measured) {
    EXPECT_EQ(m.status, TrialStatus::Ok) << workload << ": " << statusName(m.status) << " " << m.error << "\n"
                                         << m.candidate.nest.toString() << m.candidate.source;
    EXPECT_LE(m.maxAbsError, 1e-2) << workload;
    EXPECT_GT(m.latencyMs, 0) << workload;
  }
}

class GeneratedKernels : public testing::TestWithParam<const char*> {};

TEST_P(GeneratedKernels, RandomSchedulesMatchTheInterpreter) {
  const Workload workload = parseWorkload(GetParam());
  auto context = makeCpuTuneContext(workload, test::quickSettings());
  std::vector<Trace> traces;
  for (uint64_t seed = 0; seed < 5; ++seed) traces.push_back(context->space->sample(context->compute, 100 + seed).trace());
  expectAllMatch(GetParam(), traces, *context);
}

TEST_P(GeneratedKernels, EveryCacheWriteAndEpiloguePlacementMatches) {
  const Workload workload = parseWorkload(GetParam());
  auto context = makeCpuTuneContext(workload, test::quickSettings());
  const Trace base = context->space->sample(context->compute, 7).trace();
  // The categorical decisions in order: cache-write level, [epilogue placement,] register tile,
  // unroll.
  std::vector<size_t> categorical;
  for (size_t i : base.samplingInstructions())
    if (base.instructions[i].kind == InstructionKind::SampleCategorical) categorical.push_back(i);
  ASSERT_GE(categorical.size(), 3u);
  const bool hasEpilogue = workload.bias || workload.relu;
  std::vector<Trace> traces;
  for (int64_t level = 0; level < 3; ++level)
    for (int64_t placement = 0; placement < (hasEpilogue ? 2 : 1); ++placement)
      for (int64_t reg = 0; reg < 2; ++reg) {
      Trace trace = base;
      trace.instructions[categorical[0]].decision = {level};
      if (hasEpilogue) trace.instructions[categorical[1]].decision = {placement};
      trace.instructions[categorical[categorical.size() - 2]].decision = {reg};
      trace.instructions[categorical.back()].decision = {level}; // unroll 0, 16, 64 along
      Schedule replayed = replaySchedule(context->compute, trace);
      if (!context->space->reject(replayed.nest()).empty()) continue; // accumulator too large
      EXPECT_EQ(replayed.nest().cacheWriteAt < 0, level == 0);
      EXPECT_EQ(replayed.nest().registerTileAt < 0, reg == 0);
      traces.push_back(trace);
    }
  EXPECT_GE(traces.size(), 2u);
  expectAllMatch(GetParam(), traces, *context);
}

INSTANTIATE_TEST_SUITE_P(Tune, GeneratedKernels,
                         testing::Values("matmul:37x45x29", "matmul:37x45x29,bias,relu", "matmul:1x16x64,relu",
                                         "bmm:3x17x20x9,bias", "conv2d:1x8x9x9,16x8x3x3,s1,p1",
                                         "conv2d:2x3x10x9,5x3x3x2,s2,p1,bias,relu", "conv2d:1x4x6x6,8x4x1x1,s1,p0,relu"));

TEST(Codegen, AnnotationsBecomePragmas) {
  const Compute c = computeOf(parseWorkload("matmul:64x64x64"));
  LoopNest nest = MultiLevelTilingSpace().sample(c, 1).nest();
  for (Loop& loop : nest.loops) loop.annotation = LoopAnnotation::Serial;
  nest.loops[0].annotation = LoopAnnotation::Parallel;
  nest.loops[1].annotation = LoopAnnotation::Parallel;
  nest.loops.back().annotation = LoopAnnotation::Vectorized;
  nest.loops[nest.loops.size() - 2].annotation = LoopAnnotation::Unrolled;
  const std::string source = generateC(nest);
  EXPECT_NE(source.find("#pragma omp parallel for collapse(2)"), std::string::npos) << source;
  EXPECT_NE(source.find("#pragma omp simd"), std::string::npos);
  EXPECT_NE(source.find("#pragma GCC unroll " + std::to_string(nest.loops[nest.loops.size() - 2].extent)), std::string::npos);
  EXPECT_TRUE(needsOpenMp(nest));
}

} // namespace
} // namespace tessera::tune
