// The GPU design space: SSSRRSRS with blockIdx/vthread/threadIdx bindings and shared reads, its
// traces deterministic in the seed, replayable, mutable and serialisable like the CPU's, within
// the device limits it is given; and the CUDA source each schedule lowers to.
#include "TuneTestSupport.h"

#include "tune/CodegenC.h"
#include "tune/CodegenCuda.h"
#include "tune/CostModel.h"
#include "tune/EvolutionarySearch.h"
#include "tune/GpuDesignSpace.h"
#include "tune/Mutator.h"
#include "tune/Primitives.h"
#include "tune/Schedule.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <set>

namespace tessera::tune {
namespace {

Compute matmul() { return computeOf(parseWorkload("matmul:128x64x32,bias,relu")); }
Compute conv() { return computeOf(parseWorkload("conv2d:1x8x14x14,16x8x3x3,s1,p1,bias")); }

using test::decisionsOf;

TEST(GpuSpace, SssrrsrsStructureWithBindingsAndSharedReads) {
  const Compute c = matmul();
  Schedule s = GpuMultiLevelTilingSpace().sample(c, 3);
  std::vector<std::string> names;
  for (const Loop& loop : s.nest().loops) names.push_back(loop.name);
  EXPECT_EQ(names, (std::vector<std::string>{"i.0", "j.0", "i.1", "j.1", "i.2", "j.2", "k.0", "k.1", "i.3", "j.3", "k.2", "i.4", "j.4"}));
  const LoopAnnotation expected[] = {LoopAnnotation::BlockIdx, LoopAnnotation::BlockIdx, LoopAnnotation::VThread,
                                     LoopAnnotation::VThread,  LoopAnnotation::ThreadIdx, LoopAnnotation::ThreadIdx};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s.nest().loops[i].annotation, expected[i]) << names[i];
  EXPECT_EQ(boundLoops(s.nest()), 6);
  EXPECT_EQ(s.nest().cacheWriteAt, 6);
  EXPECT_EQ(s.nest().epilogue, EpiloguePlacement::Inline);
  ASSERT_EQ(s.nest().sharedReads.size(), 2u);
  for (const SharedRead& read : s.nest().sharedReads) EXPECT_EQ(read.at, 7); // below k.0 (R0)
  // 3 tiles, cache-write, epilogue, 2 fetch vector lengths, unroll
  EXPECT_EQ(s.trace().samplingInstructions().size(), 8u);
  const std::string text = s.nest().toString();
  EXPECT_NE(text.find("blockIdx.x for i.0"), std::string::npos) << text;
  EXPECT_NE(text.find("shared lhs = cooperative fetch"), std::string::npos) << text;
  // The explorer's trace pane names the bindings and the shared reads too.
  const std::string trace = traceToText(s.trace());
  EXPECT_NE(trace.find("Bind(i.0, j.0 to blockIdx.x)"), std::string::npos) << trace;
  EXPECT_NE(trace.find("Bind(i.2, j.2 to threadIdx.x)"), std::string::npos) << trace;
  EXPECT_NE(trace.find("CacheReadShared(lhs, vector length"), std::string::npos) << trace;
  EXPECT_NE(trace.find("CacheReadShared(rhs, vector length"), std::string::npos) << trace;
}

TEST(GpuSpace, SameSeedSameTraceOtherSeedsDiffer) {
  const Compute c = conv();
  GpuMultiLevelTilingSpace space;
  EXPECT_EQ(space.sample(c, 11).trace(), space.sample(c, 11).trace());
  std::set<std::string> sources;
  for (uint64_t seed = 0; seed < 8; ++seed) sources.insert(generateCuda(space.sample(c, seed).nest()).source);
  EXPECT_GT(sources.size(), 5u);
}

TEST(GpuSpace, ReplayRebuildsTheSameKernel) {
  for (const Compute& c : {matmul(), conv()}) {
    GpuMultiLevelTilingSpace space;
    for (uint64_t seed = 0; seed < 8; ++seed) {
      Schedule sampled = space.sample(c, seed);
      Schedule replayed = replaySchedule(c, sampled.trace(), /*seed for missing decisions=*/999);
      EXPECT_EQ(replayed.nest(), sampled.nest()) << seed;
      EXPECT_EQ(replayed.trace(), sampled.trace());
      EXPECT_EQ(generateCuda(replayed.nest()).source, generateCuda(sampled.nest()).source);
      // Through JSON too: Bind and CacheReadShared round-trip.
      const Trace parsed = traceFromJson(traceToJson(sampled.trace()));
      EXPECT_EQ(parsed, sampled.trace());
      EXPECT_EQ(replaySchedule(c, parsed).nest(), sampled.nest());
    }
  }
}

TEST(GpuSpace, MutationChangesOneDecisionAndStaysInTheSpace) {
  const Compute c = matmul();
  GpuMultiLevelTilingSpace space;
  const Trace original = space.sample(c, 21).trace();
  std::optional<Trace> a = mutateTrace(c, original, space, 77), b = mutateTrace(c, original, space, 77);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(test::changedDecisions(original, *a), 1);
  std::set<std::vector<std::vector<int64_t>>> reached;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    std::optional<Trace> m = mutateTrace(c, original, space, seed);
    if (!m) continue;
    reached.insert(decisionsOf(*m));
    Schedule replayed = replaySchedule(c, *m);
    EXPECT_EQ(space.reject(replayed.nest()), "") << seed;
    EXPECT_NO_THROW(generateCuda(replayed.nest())) << seed;
  }
  EXPECT_GT(reached.size(), 4u);
}

TEST(GpuSpace, SchedulesKeepWithinTheDeviceLimits) {
  GpuSpaceOptions options;
  options.maxThreadsPerBlock = 64;
  options.maxSharedMemoryBytes = 8 * 1024;
  options.maxThreadAccumulatorElements = 16;
  GpuMultiLevelTilingSpace space(options);
  for (const Compute& c : {matmul(), conv()}) {
    for (uint64_t seed = 0; seed < 24; ++seed) {
      const CudaKernel kernel = generateCuda(space.sample(c, seed).nest());
      EXPECT_LE(kernel.threadsPerBlock, 64);
      EXPECT_LE(kernel.sharedBytes, 8 * 1024);
      EXPECT_LE(kernel.localElements, 16);
      // Every output element belongs to exactly one (block, thread, accumulator slot).
      EXPECT_EQ(kernel.gridBlocks * kernel.threadsPerBlock * kernel.localElements, c.outputElements);
    }
  }
  GpuSpaceOptions impossible;
  impossible.maxThreadAccumulatorElements = 0;
  EXPECT_THROW(GpuMultiLevelTilingSpace(impossible).sample(matmul(), 1), Error);
}

TEST(GpuSpace, CudaSourceHasTheKernelItsGeometryAndItsStages) {
  const Compute c = conv();
  const CudaKernel kernel = generateCuda(GpuMultiLevelTilingSpace().sample(c, 5).nest());
  EXPECT_NE(kernel.source.find("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kernel.threadsPerBlock) +
                               ") tessera_kernel("),
            std::string::npos)
      << kernel.source;
  EXPECT_NE(kernel.source.find("tessera_launch[2] = {" + std::to_string(kernel.gridBlocks) + "u, " +
                               std::to_string(kernel.threadsPerBlock) + "u}"),
            std::string::npos)
      << kernel.source;
  EXPECT_NE(kernel.source.find("__shared__ float shared_lhs["), std::string::npos);
  EXPECT_NE(kernel.source.find("__syncthreads();"), std::string::npos);
  EXPECT_NE(kernel.source.find("load_padded("), std::string::npos); // p1: zeros outside the input
  EXPECT_NE(kernel.source.find("+ bias["), std::string::npos);
}

TEST(GpuSpace, EachCodeGeneratorRefusesTheOthersSchedules) {
  const Compute c = matmul();
  EXPECT_THROW(generateC(GpuMultiLevelTilingSpace().sample(c, 1).nest()), Error);
  EXPECT_THROW(generateCuda(MultiLevelTilingSpace().sample(c, 1).nest()), Error);
  EXPECT_THROW(generateCuda(initialNest(c)), Error); // no accumulator
}

TEST(GpuSpace, MultiLevelTilingReadsItsStructure) {
  Schedule s(matmul(), 1);
  EXPECT_THROW(multiLevelTile(s, "SSXR", 64), Error);
  Schedule t(matmul(), 1);
  const std::vector<std::vector<std::string>> levels = multiLevelTile(t, "SRS", 64);
  EXPECT_EQ(levels, (std::vector<std::vector<std::string>>{{"i.0", "j.0"}, {"k.0"}, {"i.1", "j.1"}}));
}

// The evolutionary search runs on the GPU space unchanged (MetaSchedule's population of 512 on
// the CLI's default workload): its proposals are new, replay and lie in the space. Synthetic
// latencies: fewer, larger thread blocks are "faster".
TEST(GpuSpace, EvolutionarySearchProposesGpuSchedules) {
  if (!xgboostAvailable()) GTEST_SKIP() << "this build has no XGBoost";
  const Compute c = computeOf(parseWorkload("matmul:512x512x512"));
  GpuMultiLevelTilingSpace space;
  EvolutionaryOptions options;
  options.minSamplesToTrain = 4;
  EvolutionarySearch search(c, space, makeXGBoostModel(1), options, 1);
  std::set<std::string> seen;
  for (int round = 0; round < 2; ++round) {
    std::vector<TrialOutcome> outcomes;
    for (const Trace& trace : search.nextBatch(16)) {
      const LoopNest nest = replaySchedule(c, trace).nest();
      EXPECT_EQ(space.reject(nest), "");
      EXPECT_TRUE(seen.insert(generateCuda(nest).source).second) << "proposed twice";
      outcomes.push_back({trace, TrialStatus::Ok, 1.0 + 256.0 / static_cast<double>(nest.boundExtent(LoopAnnotation::ThreadIdx))});
    }
    search.notify(outcomes);
  }
  EXPECT_EQ(seen.size(), 32u);
}

TEST(Primitives, BindAndSharedReadsCheckTheirPreconditions) {
  LoopNest nest = initialNest(matmul());
  EXPECT_THROW(bind(nest, "k", LoopAnnotation::ThreadIdx), Error); // a reduction loop
  EXPECT_THROW(bind(nest, "j", LoopAnnotation::BlockIdx), Error);  // not outermost
  EXPECT_THROW(bind(nest, "i", LoopAnnotation::Parallel), Error);  // not a GPU axis
  bind(nest, "i", LoopAnnotation::ThreadIdx);
  EXPECT_THROW(bind(nest, "j", LoopAnnotation::BlockIdx), Error); // a block inside a thread
  bind(nest, "j", LoopAnnotation::ThreadIdx);
  EXPECT_EQ(nest.boundExtent(LoopAnnotation::ThreadIdx), 128 * 64);
  EXPECT_THROW(cacheReadShared(nest, 2, 2, 1), Error); // not lhs or rhs
  EXPECT_THROW(cacheReadShared(nest, 0, 1, 1), Error); // outside a bound loop
  EXPECT_THROW(cacheReadShared(nest, 0, 2, 0), Error); // vector length 0
  cacheReadShared(nest, 0, 2, 4);
  cacheReadShared(nest, 0, 3, 2); // replaces the first
  ASSERT_EQ(nest.sharedReads.size(), 1u);
  EXPECT_EQ(nest.sharedReads[0], (SharedRead{0, 3, 2}));
}

} // namespace
} // namespace tessera::tune
