// Every generated kernel, in C and in LLVM IR, matches the reference interpreter: random schedules of
// matmul, batched matmul and conv (with and without the epilogue), plus each cache-write and
// epilogue placement forced on one schedule.
#include "TuneTestSupport.h"

#include "tune/CodegenC.h"
#include "tune/CodegenLlvm.h"
#include "tune/DesignSpace.h"

#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

void expectAllMatch(const std::string& workload, const std::vector<Trace>& traces, TuneContext& context) {
  std::vector<Candidate> candidates;
  for (const Trace& trace : traces) candidates.push_back(lowerCandidate(context.compute, trace, context.language));
  std::vector<MeasuredCandidate> measured = measureCandidates(context, candidates);
  ASSERT_EQ(measured.size(), traces.size());
  for (const MeasuredCandidate& m : measured) {
    EXPECT_EQ(m.status, TrialStatus::Ok) << workload << ": " << statusName(m.status) << " " << m.error << "\n"
                                         << m.candidate.nest.toString() << m.candidate.source;
    EXPECT_LE(m.maxAbsError, 1e-2) << workload;
    EXPECT_GT(m.latencyMs, 0) << workload;
  }
}

class GeneratedKernels : public testing::TestWithParam<std::tuple<const char*, KernelLanguage>> {
protected:
  const char* workloadKey() const { return std::get<0>(GetParam()); }
  std::unique_ptr<TuneContext> context() const {
    CpuTuneSettings settings = test::quickSettings();
    settings.language = std::get<1>(GetParam());
    return makeCpuTuneContext(parseWorkload(workloadKey()), settings);
  }
};

TEST_P(GeneratedKernels, RandomSchedulesMatchTheInterpreter) {
  auto context = this->context();
  std::vector<Trace> traces;
  for (uint64_t seed = 0; seed < 5; ++seed) traces.push_back(context->space->sample(context->compute, 100 + seed).trace());
  expectAllMatch(workloadKey(), traces, *context);
}

TEST_P(GeneratedKernels, EveryCacheWriteAndEpiloguePlacementMatches) {
  const Workload workload = parseWorkload(workloadKey());
  auto context = this->context();
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
  expectAllMatch(workloadKey(), traces, *context);
}

INSTANTIATE_TEST_SUITE_P(Tune, GeneratedKernels,
                         testing::Combine(testing::Values("matmul:37x45x29", "matmul:37x45x29,bias,relu", "matmul:1x16x64,relu",
                                                          "bmm:3x17x20x9,bias", "conv2d:1x8x9x9,16x8x3x3,s1,p1",
                                                          "conv2d:2x3x10x9,5x3x3x2,s2,p1,bias,relu", "conv2d:1x4x6x6,8x4x1x1,s1,p0,relu",
                                                          "matmul:1x1x64,bias,relu"),
                                          testing::ValuesIn(test::cpuLanguages())),
                         [](const testing::TestParamInfo<GeneratedKernels::ParamType>& info) {
                           std::string name = std::string(std::get<0>(info.param)) + "_" + languageName(std::get<1>(info.param));
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name + "_" + std::to_string(info.index);
                         });

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

TEST(Codegen, LlvmIrUnrollsVectorizesAndRunsParallelLoopsOnOpenMpThreads) {
  if (!llvmAvailable()) {
    EXPECT_THROW(generateLlvmIr(initialNest(computeOf(parseWorkload("matmul:8x8x8")))), Error);
    return;
  }
  const Compute c = computeOf(parseWorkload("matmul:64x64x64"));
  LoopNest nest = MultiLevelTilingSpace().sample(c, 1).nest();
  for (Loop& loop : nest.loops) loop.annotation = LoopAnnotation::Serial;
  nest.loops[0].annotation = LoopAnnotation::Parallel;
  nest.loops.back().annotation = LoopAnnotation::Vectorized;
  const std::string ir = generateLlvmIr(nest);
  EXPECT_NE(ir.find("@GOMP_parallel"), std::string::npos) << ir;
  EXPECT_NE(ir.find("<" + std::to_string(nest.loops.back().extent) + " x float>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("@llvm.fmuladd"), std::string::npos) << ir;

  // Unrolled, a loop of the nest is written out: one loop fewer (each ends in a "loop.end" block).
  LoopNest unrolled = nest;
  unrolled.loops[unrolled.loops.size() - 2].annotation = LoopAnnotation::Unrolled;
  const std::string unrolledIr = generateLlvmIr(unrolled);
  auto loops = [](const std::string& text) {
    size_t count = 0;
    for (size_t at = text.find("\nloop.end"); at != std::string::npos; at = text.find("\nloop.end", at + 1)) ++count;
    return count;
  };
  EXPECT_GT(loops(ir), 1u);
  EXPECT_EQ(loops(unrolledIr) + 1, loops(ir)) << unrolledIr;

  EXPECT_THROW(generateLlvmIr(GpuMultiLevelTilingSpace().sample(c, 1).nest()), Error);
}

} // namespace
} // namespace tessera::tune
