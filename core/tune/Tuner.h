// The tuning loop (MetaSchedule's TuneContext and task scheduler for one task): the strategy
// proposes traces, each is replayed and lowered (to LLVM IR or C on a CPU, CUDA C++ on a GPU), kernels measured before are skipped, the
// rest are built together and run one at a time, and every outcome becomes a record.
#pragma once

#include "tune/Builder.h"
#include "tune/DesignSpace.h"
#include "tune/EvolutionarySearch.h"
#include "tune/GpuDesignSpace.h"
#include "tune/Runner.h"
#include "tune/SearchStrategy.h"
#include "tune/TuningDatabase.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tune {

struct Candidate {
  Trace trace;
  LoopNest nest;
  std::string source;
  std::string hash; // structural hash: of the generated source
  bool openmp = false;
  KernelLanguage language = KernelLanguage::C;
};

// Replays the trace and generates its kernel. Throws tessera::Error when the trace does not apply
// (or for LLVM IR in a build without LLVM).
Candidate lowerCandidate(const Compute& compute, const Trace& trace, KernelLanguage language = KernelLanguage::C);

// What CPU candidates are lowered to by default: LLVM IR in a build with LLVM, else C.
KernelLanguage defaultCpuLanguage();
// "llvm" or "c" (throws tessera::Error naming both for anything else, and for "llvm" in a build without it).
KernelLanguage parseCpuLanguage(const std::string& name);

struct MeasuredCandidate {
  Candidate candidate;
  TrialStatus status = TrialStatus::Ok;
  std::string error;
  double latencyMs = 0;
  std::vector<double> runMs;
  double gflops = 0;
  double maxAbsError = 0;
  double buildSeconds = 0;
};

// One of each part. The strategy refers to compute and space, so the context is not copied.
struct TuneContext {
  Compute compute;
  std::unique_ptr<SpaceGenerator> space;
  std::unique_ptr<SearchStrategy> strategy;
  std::unique_ptr<Builder> builder;
  std::unique_ptr<Runner> runner;
  TuningDatabase* database = nullptr; // optional
  std::string target;                 // the records' target (cpuTarget(), or "cuda:<device>")
  KernelLanguage language = KernelLanguage::C;
};

struct CpuTuneSettings {
  uint64_t seed = 1;
  std::string search = "random"; // or "evolutionary" (needs XGBoost: availableSearches())
  int threads = 2;
  CpuSpaceOptions space;
  EvolutionaryOptions evolutionary;
  BuildOptions build; // its jobs are the kernels' threads: the run owns those cores
  RunnerOptions run;
  KernelLanguage language = defaultCpuLanguage();
};

// The CPU parts: MultiLevelTilingSpace, the named search ("random", or "evolutionary" with the
// XGBoost model; another name, or evolutionary in a build without XGBoost, is tessera::Error),
// the settings' code generation (makeCpuBuilder()) and a LocalRunner on makeProblem(workload, seed).
std::unique_ptr<TuneContext> makeCpuTuneContext(const Workload& workload, const CpuTuneSettings& settings);

struct GpuTuneSettings {
  uint64_t seed = 1;
  std::string search = "random";
  GpuSpaceOptions space;
  EvolutionaryOptions evolutionary;
};

// The GPU parts: GpuMultiLevelTilingSpace, the named search (as makeCpuTuneContext), CUDA
// lowering, and the builder and runner a device backend provides (plugins/cuda: NVRTC and the
// CUDA driver), recording under `target`.
std::unique_ptr<TuneContext> makeGpuTuneContext(const Workload& workload, const GpuTuneSettings& settings,
                                                std::unique_ptr<Builder> builder, std::unique_ptr<Runner> runner,
                                                std::string target);

// The searches makeCpuTuneContext() knows in this build, the default first.
std::vector<std::string> availableSearches();

// "cpu:<hostCpuName()> x<threads>", with ", caches flushed" for a runner that flushes them:
// timings belong to a kind of CPU, a thread count and where the operands start from.
std::string cpuTarget(int threads, bool cachesFlushed = false);

struct TuneOptions {
  int trials = 64;
  int batchSize = 16;
  uint64_t seed = 1; // recorded with each record
  // Asked before each batch and between the runs of a batch's kernels: true ends the run early
  // (stop reason "stopped"), keeping every candidate measured so far. Called on the tuning thread.
  std::function<bool()> shouldStop;
};

struct TuneProgress {
  int trial = 0; // measured so far, this one included
  int trials = 0;
  const MeasuredCandidate* last = nullptr;
  double bestGflops = 0;
};

// Where a tuning run's time went, in seconds (`tune --json`'s time_breakdown).
struct TuneTimes {
  double propose = 0; // the strategy's nextBatch()
  double lower = 0;   // replaying the traces and generating their kernels
  double build = 0;   // compiling (several at a time)
  double run = 0;     // verifying and timing, one at a time
  double learn = 0;   // the strategy's notify() (the cost model's retraining)
};

struct TuneResult {
  int trials = 0;   // measured candidates, failures included
  int verified = 0; // candidates that matched the reference (and were timed)
  int failed = 0;
  int skipped = 0; // proposals whose kernel was measured before (this run or the database)
  std::optional<MeasuredCandidate> best;
  std::string stopReason; // "trials", "space exhausted" or "stopped"
  double seconds = 0;
  TuneTimes times;
};

// Builds and runs the candidates (a failure is an outcome, never an exception). When `shouldStop`
// says so before a kernel runs, that one and the rest are left out of the result. Adds the time
// spent building and running to `times` when given.
std::vector<MeasuredCandidate> measureCandidates(TuneContext& context, const std::vector<Candidate>& candidates,
                                                 const std::function<bool()>& shouldStop = {}, TuneTimes* times = nullptr);

// What the database keeps of a measured candidate, the `trial`-th (1-based) of a run with these options.
TuningRecord recordOf(const TuneContext& context, const TuneOptions& options, const MeasuredCandidate& measured, int trial);

TuneResult tune(TuneContext& context, const TuneOptions& options, const std::function<void(const TuneProgress&)>& progress = {});

} // namespace tessera::tune
