// The tuning loop and the CPU tuning context.
#include "tune/Tuner.h"

#include "tune/CodegenC.h"
#include "tune/CodegenCuda.h"
#include "tune/CodegenLlvm.h"
#include "tune/Schedule.h"

#include "support/Error.h"
#include "support/HostCpu.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace tessera::tune {

Candidate lowerCandidate(const Compute& compute, const Trace& trace, KernelLanguage language) {
  Schedule schedule = replaySchedule(compute, trace);
  Candidate candidate;
  candidate.trace = schedule.trace();
  candidate.nest = schedule.nest();
  candidate.language = language;
  switch (language) {
  case KernelLanguage::Cuda: candidate.source = generateCuda(candidate.nest).source; break;
  case KernelLanguage::LlvmIr: candidate.source = generateLlvmIr(candidate.nest); break;
  case KernelLanguage::C: candidate.source = generateC(candidate.nest); break;
  case KernelLanguage::Asm: throw Error("a trace lowers to C, LLVM IR or CUDA; assembly comes from SIP's refinements");
  }
  candidate.openmp = language != KernelLanguage::Cuda && needsOpenMp(candidate.nest);
  candidate.hash = contentHash(candidate.source);
  return candidate;
}

KernelLanguage defaultCpuLanguage() { return llvmAvailable() ? KernelLanguage::LlvmIr : KernelLanguage::C; }

KernelLanguage parseCpuLanguage(const std::string& name) {
  if (name == "c") return KernelLanguage::C;
  if (name == "llvm") {
    if (!llvmAvailable()) throw Error("this build of Tessera has no LLVM code generation (install llvm-dev and configure again); c compiles C");
    return KernelLanguage::LlvmIr;
  }
  throw Error("unknown code generation '" + name + "' (llvm or c)");
}

std::vector<std::string> availableSearches() {
  if (xgboostAvailable()) return {"evolutionary", "random"};
  return {"random"};
}

std::string cpuTarget(int threads, bool cachesFlushed) {
  return "cpu:" + hostCpuName() + " x" + std::to_string(threads) + (cachesFlushed ? ", caches flushed" : "");
}

namespace {

// The named search over the context's compute and space.
std::unique_ptr<SearchStrategy> makeSearch(const TuneContext& context, const std::string& search, uint64_t seed,
                                           const EvolutionaryOptions& evolutionary) {
  if (search == "random") return std::make_unique<RandomSearch>(context.compute, *context.space, seed);
  // makeXGBoostModel() explains what is missing in a build without XGBoost.
  if (search == "evolutionary")
    return std::make_unique<EvolutionarySearch>(context.compute, *context.space, makeXGBoostModel(seed), evolutionary, seed);
  throw Error("unknown search '" + search + "' (evolutionary or random)");
}

} // namespace

std::unique_ptr<TuneContext> makeCpuTuneContext(const Workload& workload, const CpuTuneSettings& settings) {
  auto context = std::make_unique<TuneContext>();
  context->compute = computeOf(workload);
  CpuSpaceOptions space = settings.space;
  space.threads = settings.threads;
  context->space = std::make_unique<MultiLevelTilingSpace>(space);
  context->strategy = makeSearch(*context, settings.search, settings.seed, settings.evolutionary);
  BuildOptions build = settings.build;
  build.jobs = std::max(settings.threads, 1); // the run owns the cores its kernels run on
  context->builder = makeCpuBuilder(build);
  context->language = settings.language;
  RunnerOptions run = settings.run;
  run.threads = settings.threads;
  context->runner = std::make_unique<LocalRunner>(makeProblem(workload, settings.seed), run);
  context->target = cpuTarget(settings.threads, run.flushCaches);
  return context;
}

std::unique_ptr<TuneContext> makeGpuTuneContext(const Workload& workload, const GpuTuneSettings& settings,
                                                std::unique_ptr<Builder> builder, std::unique_ptr<Runner> runner,
                                                std::string target) {
  auto context = std::make_unique<TuneContext>();
  context->compute = computeOf(workload);
  context->space = std::make_unique<GpuMultiLevelTilingSpace>(settings.space);
  context->strategy = makeSearch(*context, settings.search, settings.seed, settings.evolutionary);
  context->builder = std::move(builder);
  context->runner = std::move(runner);
  context->target = std::move(target);
  context->language = KernelLanguage::Cuda;
  return context;
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

} // namespace

std::vector<MeasuredCandidate> measureCandidates(TuneContext& context, const std::vector<Candidate>& candidates,
                                                 const std::function<bool()>& shouldStop, TuneTimes* times) {
  std::vector<BuildInput> inputs;
  for (const Candidate& c : candidates) inputs.push_back({c.source, c.openmp, c.language});
  const auto buildStart = Clock::now();
  std::vector<BuildResult> built = context.builder->build(inputs);
  if (times) times->build += secondsSince(buildStart);
  const auto runStart = Clock::now();
  std::vector<MeasuredCandidate> measured;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (shouldStop && shouldStop()) break;
    MeasuredCandidate m;
    m.candidate = candidates[i];
    m.buildSeconds = built[i].seconds;
    if (!built[i].ok()) {
      m.status = TrialStatus::CompileError;
      m.error = built[i].error;
      measured.push_back(std::move(m));
      continue;
    }
    RunResult run = context.runner->run(built[i].library);
    m.status = run.status;
    m.error = run.error;
    m.runMs = run.runMs;
    m.latencyMs = run.medianMs;
    m.maxAbsError = run.maxAbsError;
    if (run.status == TrialStatus::Ok && run.medianMs > 0) m.gflops = context.compute.workload.gflopsAt(run.medianMs);
    measured.push_back(std::move(m));
  }
  if (times) times->run += secondsSince(runStart);
  return measured;
}

TuningRecord recordOf(const TuneContext& context, const TuneOptions& options, const MeasuredCandidate& m, int trial) {
  TuningRecord record;
  record.workload = context.compute.workload.key();
  record.target = context.target;
  record.trace = traceToJson(m.candidate.trace);
  record.hash = m.candidate.hash;
  record.status = m.status;
  record.error = m.error;
  record.latencyMs = m.latencyMs;
  record.runMs = m.runMs;
  record.gflops = m.gflops;
  record.maxAbsError = m.maxAbsError;
  record.search = context.strategy->name();
  record.seed = options.seed;
  record.trial = trial;
  record.buildSeconds = m.buildSeconds;
  return record;
}

TuneResult tune(TuneContext& context, const TuneOptions& options, const std::function<void(const TuneProgress&)>& progress) {
  const auto start = Clock::now();
  const std::string workload = context.compute.workload.key();
  TuneResult result;
  std::set<std::string> seen;
  int fruitlessBatches = 0;
  result.stopReason = "trials";
  auto stopped = [&] {
    if (!options.shouldStop || !options.shouldStop()) return false;
    result.stopReason = "stopped";
    return true;
  };
  while (result.trials < options.trials && !stopped()) {
    const int want = std::min(options.batchSize, options.trials - result.trials);
    std::vector<Candidate> batch;
    auto phase = Clock::now();
    const std::vector<Trace> proposed = context.strategy->nextBatch(want);
    result.times.propose += secondsSince(phase);
    phase = Clock::now();
    for (const Trace& trace : proposed) {
      Candidate candidate = lowerCandidate(context.compute, trace, context.language);
      const bool measuredBefore = context.database && context.database->contains(workload, context.target, candidate.hash);
      if (!seen.insert(candidate.hash).second || measuredBefore) {
        ++result.skipped;
        continue;
      }
      batch.push_back(std::move(candidate));
      if (static_cast<int>(batch.size()) == want) break;
    }
    result.times.lower += secondsSince(phase);
    if (batch.empty()) {
      // Small spaces run dry: a few batches of nothing new and the search stops.
      if (++fruitlessBatches == 8) {
        result.stopReason = "space exhausted";
        break;
      }
      continue;
    }
    fruitlessBatches = 0;
    std::vector<MeasuredCandidate> measured = measureCandidates(context, batch, stopped, &result.times);
    std::vector<TrialOutcome> outcomes;
    for (MeasuredCandidate& m : measured) {
      ++result.trials;
      if (m.status == TrialStatus::Ok) {
        ++result.verified;
        if (!result.best || m.latencyMs < result.best->latencyMs) result.best = m;
      } else {
        ++result.failed;
      }
      if (context.database) context.database->add(recordOf(context, options, m, result.trials));
      outcomes.push_back({m.candidate.trace, m.status, m.latencyMs});
      if (progress) progress({result.trials, options.trials, &m, result.best ? result.best->gflops : 0});
    }
    phase = Clock::now();
    context.strategy->notify(outcomes);
    result.times.learn += secondsSince(phase);
  }
  result.seconds = secondsSince(start);
  return result;
}

} // namespace tessera::tune
