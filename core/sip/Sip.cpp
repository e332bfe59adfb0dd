// A SIP run: lowering, annealing with tested candidates, the final test and timing.
#include "sip/Sip.h"

#include "sip/KernelLibrary.h"
#include "sip/SampleTester.h"

#include "support/Error.h"
#include "tune/CodegenLlvm.h"
#include "tune/Compute.h"
#include "tune/Reference.h"
#include "tune/Trace.h"
#include "tune/Tuner.h"

#include <algorithm>

namespace tessera::sip {

RecordKernel lowerRecord(const tune::TuningRecord& record) {
  const std::string what = "tuned kernel " + record.hash + " of " + record.workload;
  if (!tune::llvmAvailable()) throw Error(what + ": this build has no LLVM code generation");
  RecordKernel kernel;
  tune::Candidate candidate;
  try {
    kernel.workload = tune::parseWorkload(record.workload);
    candidate = tune::lowerCandidate(tune::computeOf(kernel.workload), tune::traceFromJson(record.trace), tune::KernelLanguage::LlvmIr);
  } catch (const Error& e) {
    throw Error(what + ": its trace does not replay: " + e.what());
  }
  if (candidate.hash != record.hash)
    throw Error(what + ": its trace now generates LLVM kernel " + candidate.hash +
                " (a C kernel, or the code generator changed since it was tuned): SIP reorders the machine code of the kernel "
                "the record measured, so tune the workload again");
  kernel.openmp = candidate.openmp;
  try {
    kernel.listing = lowerToListing(candidate.source);
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
  return kernel;
}

SipRun runSip(const tune::TuningRecord& record, const SipOptions& options, const std::function<void(const SipProgress&)>& onProgress) {
  RecordKernel kernel = lowerRecord(record);
  SipRun run;
  run.workload = kernel.workload;
  run.baseHash = record.hash;
  run.listing = std::move(kernel.listing);
  run.openmp = kernel.openmp;

  tune::RunnerOptions runOptions = options.run;
  runOptions.cacheDir = options.cacheDir;
  const std::string tunedAssembly = run.listing.text();
  run.baselineLibrary = buildKernelLibrary(tunedAssembly, kernel.openmp, options.cacheDir, runOptions.compiler).library;
  if (run.baselineLibrary.empty()) throw Error("tuned kernel " + record.hash + " of " + record.workload + ": its reassembled listing does not build");
  // Each candidate meets inputs it has not seen: the problem's seed moves on with every evaluation.
  uint64_t problemSeed = options.annealing.seed * 1000003;
  int evaluations = 0;
  const Evaluate evaluate = [&](const std::string& assembly) {
    Evaluation evaluation;
    KernelLibrary built = buildKernelLibrary(assembly, kernel.openmp, options.cacheDir, runOptions.compiler);
    if (!built.ok()) {
      evaluation.outcome = Outcome::FailedAssemble;
      evaluation.error = built.error;
      return evaluation;
    }
    tune::LocalRunner runner(tune::makeProblem(run.workload, ++problemSeed), runOptions);
    // The tuned kernel is timed beside the candidate (in alternating order) and the candidate scored
    // by the ratio, on the tuned record's GFLOP/s scale: on a shared machine the load changes from
    // one step to the next by more than a move changes the kernel, and a ratio of neighbours in time
    // cancels most of it.
    const bool candidateFirst = ++evaluations % 2 == 1;
    tune::RunResult tuned;
    if (!candidateFirst) tuned = runner.run(run.baselineLibrary);
    tune::RunResult result = runner.run(built.library);
    if (candidateFirst) tuned = runner.run(run.baselineLibrary);
    evaluation.error = result.error;
    if (result.status == tune::TrialStatus::WrongResult) {
      evaluation.outcome = Outcome::FailedTest;
    } else if (result.status != tune::TrialStatus::Ok) {
      evaluation.outcome = Outcome::FailedRun;
    } else if (tuned.status != tune::TrialStatus::Ok) {
      throw Error("tuned kernel " + record.hash + " of " + record.workload + " failed beside a candidate: " + tuned.error);
    } else {
      // The fastest repeat of each: a repeat the machine's load slowed says nothing about the kernel.
      const double tunedMs = *std::min_element(tuned.runMs.begin(), tuned.runMs.end());
      const double candidateMs = *std::min_element(result.runMs.begin(), result.runMs.end());
      const double scale = record.gflops > 0 ? record.gflops : run.workload.gflopsAt(tunedMs);
      // The tuned kernel's own order scores the scale itself: timed beside itself its ratio is 1 by
      // definition, and a measured one is noise that the search then takes as the bar every move
      // must clear (one such start at 1.3x rejected all 998 moves).
      evaluation.gflops = assembly == tunedAssembly ? scale : scale * tunedMs / candidateMs;
    }
    return evaluation;
  };
  run.search = anneal(run.listing, evaluate, options.annealing, [&](const AnnealingStep& step) {
    if (!onProgress) return;
    SipProgress progress;
    progress.step = &step;
    onProgress(progress);
  });

  run.bestAssembly = run.listing.render(run.search.best.order);
  run.bestDiffers = run.bestAssembly != tunedAssembly;
  run.bestLibrary = buildKernelLibrary(run.bestAssembly, kernel.openmp, options.cacheDir, runOptions.compiler).library;
  if (run.bestLibrary.empty()) throw Error("the best kernel the search evaluated no longer builds");
  if (!run.bestDiffers) {
    run.finalTestPassed = true; // the tuned kernel itself: nothing to test
    return run;
  }

  SampleTestOptions test;
  test.samples = options.testSamples;
  test.seed = options.annealing.seed;
  test.atol = tune::makeProblem(run.workload, 0).atol;
  test.cacheDir = options.cacheDir;
  test.threads = runOptions.threads;
  test.compiler = runOptions.compiler;
  SampleTestResult tested = testOnSamples(run.workload, run.baselineLibrary, run.bestLibrary, test, [&](int64_t samples) {
    if (!onProgress) return;
    SipProgress progress;
    progress.samplesTested = samples;
    onProgress(progress);
  });
  run.samplesTested = tested.tested;
  run.finalTestPassed = tested.passed;
  run.finalTestError = tested.error;
  if (!tested.passed) return run;

  tune::LocalRunner timer(tune::makeProblem(run.workload, options.annealing.seed), runOptions);
  run.improvement = timeInterleaved(timer, run.baselineLibrary, run.bestLibrary, options.timingRounds, [&](int round) {
    if (!onProgress) return;
    SipProgress progress;
    progress.timingRound = round;
    onProgress(progress);
  });
  return run;
}

} // namespace tessera::sip
