// A candidate that does not compile, crashes, hangs or computes the wrong thing is a failed
// trial with its error recorded; the tuner carries on.
#include "TuneTestSupport.h"

#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera::tune {
namespace {

const char* kWorkload = "matmul:8x8x8";

// A candidate of the workload whose source is replaced.
Candidate withSource(const TuneContext& context, const std::string& source) {
  Candidate c = lowerCandidate(context.compute, context.space->sample(context.compute, 1).trace());
  c.source = source;
  c.hash = contentHash(source);
  c.openmp = false;
  return c;
}

const char* kWrongKernel = "void tessera_kernel(const float* const* in, float* out) { for (int i = 0; i < 64; ++i) out[i] = 0; }\n";
const char* kPartialKernel = "void tessera_kernel(const float* const* in, float* out) { out[0] = 0; }\n";
const char* kCrashingKernel = "void tessera_kernel(const float* const* in, float* out) { *(volatile int*)0 = 1; }\n";
const char* kHangingKernel = "void tessera_kernel(const float* const* in, float* out) { for (volatile int i = 0; ; ++i) {} }\n";
const char* kMissingSymbol = "void another_name(void) {}\n";

TEST(TrialFailure, EachFailureIsAnOutcome) {
  CpuTuneSettings settings = test::quickSettings();
  settings.run.timeoutSeconds = 3;
  auto context = makeCpuTuneContext(parseWorkload(kWorkload), settings);
  std::vector<Candidate> candidates{
      withSource(*context, "void tessera_kernel(const float* const* in, float* out) { this is not C; }\n"),
      withSource(*context, kWrongKernel),
      withSource(*context, kPartialKernel),
      withSource(*context, kCrashingKernel),
      withSource(*context, kHangingKernel),
      withSource(*context, kMissingSymbol),
      lowerCandidate(context->compute, context->space->sample(context->compute, 2).trace()),
  };
  std::vector<MeasuredCandidate> measured = measureCandidates(*context, candidates);
  ASSERT_EQ(measured.size(), candidates.size());
  EXPECT_EQ(measured[0].status, TrialStatus::CompileError);
  EXPECT_NE(measured[0].error.find("error"), std::string::npos) << measured[0].error;
  EXPECT_EQ(measured[1].status, TrialStatus::WrongResult);
  EXPECT_NE(measured[1].error.find("off by"), std::string::npos) << measured[1].error;
  EXPECT_EQ(measured[2].status, TrialStatus::WrongResult); // unwritten elements stay NaN
  EXPECT_EQ(measured[3].status, TrialStatus::Crashed);
  EXPECT_NE(measured[3].error.find("signal 11"), std::string::npos) << measured[3].error;
  EXPECT_EQ(measured[4].status, TrialStatus::Timeout);
  EXPECT_EQ(measured[5].status, TrialStatus::RuntimeError);
  EXPECT_NE(measured[5].error.find("tessera_kernel"), std::string::npos) << measured[5].error;
  EXPECT_EQ(measured[6].status, TrialStatus::Ok) << measured[6].error;
}

TEST(TrialFailure, LlvmIrThatDoesNotParseOrCrashesIsAnOutcomeToo) {
  auto context = makeCpuTuneContext(parseWorkload(kWorkload), test::quickSettings());
  const Trace trace = context->space->sample(context->compute, 2).trace();
  if (!llvmAvailable()) {
    EXPECT_THROW(lowerCandidate(context->compute, trace, KernelLanguage::LlvmIr), Error);
    return;
  }
  auto inIr = [&](const std::string& source) {
    Candidate c = withSource(*context, source);
    c.language = KernelLanguage::LlvmIr;
    return c;
  };
  std::vector<Candidate> candidates{
      inIr("define void @tessera_kernel(this is not LLVM IR\n"),
      inIr("define void @tessera_kernel(float** %in, float* %out) {\n  store volatile i32 1, i32* null\n  ret void\n}\n"),
      lowerCandidate(context->compute, trace, KernelLanguage::LlvmIr),
  };
  std::vector<MeasuredCandidate> measured = measureCandidates(*context, candidates);
  ASSERT_EQ(measured.size(), candidates.size());
  EXPECT_EQ(measured[0].status, TrialStatus::CompileError);
  EXPECT_NE(measured[0].error.find("invalid LLVM IR"), std::string::npos) << measured[0].error;
  EXPECT_EQ(measured[1].status, TrialStatus::Crashed) << measured[1].error;
  EXPECT_EQ(measured[2].status, TrialStatus::Ok) << measured[2].error;
}

TEST(TrialFailure, TuningRecordsCompileErrorsAndCarriesOn) {
  auto context = makeCpuTuneContext(parseWorkload("matmul:16x16x16,relu"), test::quickSettings());
  context->builder = std::make_unique<test::BreakingBuilder>(std::move(context->builder));
  TuningDatabase database(":memory:");
  context->database = &database;
  TuneOptions options;
  options.trials = 6;
  options.batchSize = 3;
  int progressCalls = 0;
  TuneResult result = tune(*context, options, [&](const TuneProgress& p) {
    ++progressCalls;
    EXPECT_EQ(p.trial, progressCalls);
    EXPECT_NE(p.last, nullptr);
  });
  EXPECT_EQ(result.trials, 6);
  EXPECT_EQ(progressCalls, 6);
  EXPECT_EQ(result.failed, 3);
  EXPECT_EQ(result.verified, 3);
  ASSERT_TRUE(result.best.has_value());
  EXPECT_EQ(result.best->status, TrialStatus::Ok);
  std::vector<TuningRecord> records = database.records();
  ASSERT_EQ(records.size(), 6u);
  int compileErrors = 0;
  for (const TuningRecord& r : records) {
    if (r.status != TrialStatus::CompileError) continue;
    ++compileErrors;
    EXPECT_NE(r.error.find("does not compile"), std::string::npos) << r.error;
    EXPECT_EQ(r.gflops, 0);
  }
  EXPECT_EQ(compileErrors, 3);
}

// Counts the kernels it runs.
class CountingRunner final : public Runner {
public:
  CountingRunner(std::unique_ptr<Runner> inner, int& runs) : inner_(std::move(inner)), runs_(runs) {}
  RunResult run(const std::string& library) override {
    ++runs_;
    return inner_->run(library);
  }

private:
  std::unique_ptr<Runner> inner_;
  int& runs_;
};

// A stop asked for mid-run (here once two kernels of the first batch of four have run) ends the
// run with what was measured, recorded, and says why it ended.
TEST(TrialFailure, AStopEndsTheRunWithWhatWasMeasured) {
  auto context = makeCpuTuneContext(parseWorkload("matmul:16x16x16"), test::quickSettings());
  int runs = 0;
  context->runner = std::make_unique<CountingRunner>(std::move(context->runner), runs);
  TuningDatabase database(":memory:");
  context->database = &database;
  TuneOptions options;
  options.trials = 8;
  options.batchSize = 4;
  options.shouldStop = [&] { return runs >= 2; };
  int progressCalls = 0;
  TuneResult result = tune(*context, options, [&](const TuneProgress&) { ++progressCalls; });
  EXPECT_EQ(result.stopReason, "stopped");
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(result.trials, 2);
  EXPECT_EQ(progressCalls, 2);
  EXPECT_EQ(database.records().size(), 2u);
}

TEST(TrialFailure, ARunnerThatFlushesTheCachesStillChecksAndTimesEveryCandidate) {
  CpuTuneSettings settings = test::quickSettings();
  settings.run.flushCaches = true;
  settings.run.repeats = 3;
  settings.run.minRepeatMs = 1; // several flushed runs per repeat
  auto context = makeCpuTuneContext(parseWorkload(kWorkload), settings);
  // Its records are kept apart from a warm runner's: the two timings do not compare.
  EXPECT_EQ(context->target, cpuTarget(settings.threads, true));
  EXPECT_NE(context->target, cpuTarget(settings.threads));
  std::vector<Candidate> candidates{withSource(*context, kWrongKernel),
                                    lowerCandidate(context->compute, context->space->sample(context->compute, 2).trace())};
  std::vector<MeasuredCandidate> measured = measureCandidates(*context, candidates);
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_EQ(measured[0].status, TrialStatus::WrongResult);
  EXPECT_EQ(measured[1].status, TrialStatus::Ok) << measured[1].error;
  EXPECT_EQ(measured[1].runMs.size(), 3u);
  EXPECT_GT(measured[1].latencyMs, 0.0);
}

TEST(TrialFailure, UnknownSearchIsAnError) {
  CpuTuneSettings settings = test::quickSettings();
  settings.search = "annealing";
  EXPECT_THROW(makeCpuTuneContext(parseWorkload(kWorkload), settings), Error);
}

} // namespace
} // namespace tessera::tune
