// `tessera-cli tune WORKLOAD|MODEL.onnx [--target cpu|cuda] [--trials N] [--search evolutionary|random] [--seed S] [--db F] [--json F]`:
// tunes one matmul, batched matmul or conv2d kernel (core/tune), or each distinct one of a model, on
// the CPU against oneDNN's primitive on the same number of threads, or on the GPU of the cuda
// plugin (NVRTC and the driver) against cuBLAS/cuDNN through the plugin's op profiler.
#include "CommandContext.h"
#include "Commands.h"
#include "LauncherOptions.h"
#include "ModelShapeOptions.h"

#include "cost/OpProfiler.h"
#include "cost/OpSignature.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"
#include "tune/DiagnosticsJson.h"
#include "tune/ModelWorkloads.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "PluginHost.h"
#endif

#include "ExecutorThreads.h"
#include "OneDnnBaseline.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace tessera::cli {

namespace {

struct TuneCommandOptions {
  std::string workload;
  std::string target = "cpu";
  int trials = 64;
  std::string search = tune::availableSearches().front();
  uint64_t seed = 1;
  std::string db;
  std::string json;
  std::string records; // JSON lines export
  int threads = 0;      // 0: the CPU executor's (tuning::executorThreads())
  int batch = 16;
  int population = tune::EvolutionaryOptions{}.population;
  bool pin = true;
  bool flushCaches = false;
  std::string codegen = tune::languageName(tune::defaultCpuLanguage()); // cpu: llvm or c
  ModelShapeOptions shapes; // MODEL.onnx only
  LauncherOptions launcher; // MODEL.onnx only: its signatures as shards
};

using tuning::LibraryBaseline;

// Where the kernels run: the tuning context for a workload and the library baseline to beat.
struct TuneTarget {
  std::function<std::unique_ptr<tune::TuneContext>(const tune::Workload&)> makeContext;
  std::function<std::optional<LibraryBaseline>(const tune::Workload&)> baseline;
  std::string baselineLibrary; // "oneDNN", "cuBLAS/cuDNN"
};

TuneTarget cpuTarget(const TuneCommandOptions& options) {
  TuneTarget target;
  target.makeContext = [options](const tune::Workload& workload) {
    tune::CpuTuneSettings settings;
    settings.seed = options.seed;
    settings.search = options.search;
    settings.threads = options.threads;
    settings.run.pinThreads = options.pin;
    settings.run.flushCaches = options.flushCaches;
    settings.evolutionary.population = options.population;
    settings.language = tune::parseCpuLanguage(options.codegen);
    return tune::makeCpuTuneContext(workload, settings);
  };
  target.baseline = [threads = options.threads, flush = options.flushCaches](const tune::Workload& workload) {
    std::string why;
    std::optional<LibraryBaseline> baseline = tuning::measureOneDnnBaseline(workload, threads, flush, why);
    if (!baseline) reportProgress("tune: no oneDNN baseline (" + why + ")");
    return baseline;
  };
  target.baselineLibrary = "oneDNN";
  return target;
}

// The cuda plugin's NVRTC builder and driver runner; the baseline is the workload's op timed by
// the plugin's cuBLAS/cuDNN profiler (conv with bias and relu fused by cuDNN, matmul with bias as
// a Gemm), as measured:cuda times it.
TuneTarget cudaTarget(const TuneCommandOptions& options) {
#ifdef TESSERA_HAVE_PLUGINS
  plugins::PluginHost& host = plugins::PluginHost::global();
  if (std::string why = host.whyUnusable("cuda"); !why.empty()) throw Error("tune --target cuda: " + why);
  plugins::KernelTuner* tuner = host.kernelTuner("cuda");
  if (!tuner) throw Error("tune --target cuda: the cuda plugin offers no kernel tuner (built before it had one: rebuild it)");
  if (std::string why = tuner->tunerUnavailableReason(); !why.empty()) throw Error("tune --target cuda: " + why);
  plugins::Backend* backend = host.backend("cuda");
  TuneTarget target;
  target.makeContext = [options, tuner](const tune::Workload& workload) {
    tune::GpuTuneSettings settings;
    settings.seed = options.seed;
    settings.search = options.search;
    settings.space = tuner->spaceOptions();
    settings.evolutionary.population = options.population;
    return tune::makeGpuTuneContext(workload, settings, tuner->makeKernelBuilder(),
                                    tuner->makeKernelRunner(tune::makeProblem(workload, options.seed)), tuner->tuningTarget());
  };
  target.baseline = [backend](const tune::Workload& workload) -> std::optional<LibraryBaseline> {
    const OpSignature signature = tuning::baselineSignature(workload);
    std::unique_ptr<OpProfiler> profiler = backend->makeProfiler();
    if (!profiler->canMeasure(signature)) {
      reportProgress("tune: no cuBLAS/cuDNN baseline (the cuda plugin cannot time " + signature.key() + ")");
      return std::nullopt;
    }
    LibraryBaseline baseline;
    baseline.latencyMs = profiler->measureMs(signature);
    baseline.gflops = workload.gflopsAt(baseline.latencyMs);
    baseline.what = signature.key();
    return baseline;
  };
  target.baselineLibrary = "cuBLAS/cuDNN";
  return target;
#else
  (void)options;
  throw Error("tune --target cuda: this build loads no plugins (it was configured without Qt 6 Core), so there is no CUDA backend");
#endif
}

// Tunes one workload, prints its summary and returns its report ("verified" false when no
// candidate passed).
nlohmann::json tuneWorkload(const tune::Workload& workload, const TuneCommandOptions& options, const TuneTarget& target,
                            tune::TuningDatabase& database) {
  auto context = target.makeContext(workload);
  context->database = &database;

  reportProgress("tune: " + workload.key() + " on " + context->target + ", " + std::to_string(options.trials) + " trials, " +
                 options.search + " search, seed " + std::to_string(options.seed) +
                 (options.target == "cpu" ? ", " + std::to_string(options.threads) + " threads, " + options.codegen + " code" : std::string()));
  tune::TuneOptions tuneOptions;
  tuneOptions.trials = options.trials;
  tuneOptions.batchSize = options.batch;
  tuneOptions.seed = options.seed;
  std::map<std::string, int> outcomes;
  std::vector<double> bestByTrial; // the best GFLOP/s after each trial: how fast a search converges
  tune::TuneResult result = tune::tune(*context, tuneOptions, [&](const tune::TuneProgress& p) {
    char buffer[256];
    ++outcomes[tune::statusName(p.last->status)];
    bestByTrial.push_back(p.bestGflops);
    if (p.last->status == tune::TrialStatus::Ok)
      std::snprintf(buffer, sizeof buffer, "[%d/%d] ok %.2f GFLOP/s (best %.2f)", p.trial, p.trials, p.last->gflops, p.bestGflops);
    else
      std::snprintf(buffer, sizeof buffer, "[%d/%d] %s (best %.2f): %.120s", p.trial, p.trials, tune::statusName(p.last->status),
                    p.bestGflops, p.last->error.c_str());
    reportProgress(buffer);
  });

  std::optional<LibraryBaseline> baseline = target.baseline(workload);

  nlohmann::json report;
  report["workload"] = workload.key();
  report["search"] = options.search;
  report["seed"] = options.seed;
  report["threads"] = options.threads;
  report["target"] = context->target;
  report["codegen"] = tune::languageName(context->language);
  report["flush_caches"] = options.target == "cpu" && options.flushCaches;
  report["trials"] = result.trials;
  report["verified_trials"] = result.verified;
  report["failed_trials"] = result.failed;
  report["skipped"] = result.skipped;
  report["outcomes"] = outcomes;
  report["stop_reason"] = result.stopReason;
  report["tune_seconds"] = result.seconds;
  report["time_breakdown"] = tune::timeBreakdownJson(result.times);
  if (const auto* evolutionary = dynamic_cast<const tune::EvolutionarySearch*>(context->strategy.get()))
    report["search_rounds"] = tune::searchRoundsJson(evolutionary->rounds());
  report["verified"] = result.best.has_value();
  report["best_gflops"] = result.best ? result.best->gflops : 0.0;
  report["best_latency_ms"] = result.best ? result.best->latencyMs : 0.0;
  report["best_trace"] = result.best ? nlohmann::json::parse(tune::traceToJson(result.best->candidate.trace)) : nlohmann::json();
  report["best_gflops_by_trial"] = bestByTrial;
  report["best_loop_nest"] = result.best ? result.best->candidate.nest.toString() : "";
  report["baseline_gflops"] = baseline ? nlohmann::json(baseline->gflops) : nlohmann::json();
  report["baseline_latency_ms"] = baseline ? nlohmann::json(baseline->latencyMs) : nlohmann::json();
  report["baseline"] = baseline ? target.baselineLibrary + " " + baseline->what : "none";

  std::printf("workload   %s\n", workload.key().c_str());
  std::printf("trials     %d (%d verified, %d failed, %d duplicates skipped) in %.1f s\n", result.trials, result.verified,
              result.failed, result.skipped, result.seconds);
  if (result.best) {
    std::printf("best       %.2f GFLOP/s (%.4f ms)\n", result.best->gflops, result.best->latencyMs);
    std::printf("%s", result.best->candidate.nest.toString().c_str());
  }
  if (baseline)
    std::printf("%-10s %.2f GFLOP/s (%.4f ms) %s\n", target.baselineLibrary.c_str(), baseline->gflops, baseline->latencyMs,
                baseline->what.c_str());

  return report;
}

// `tune MODEL --launcher …`: each signature a shard running `tessera-cli tune WORKLOAD` with the
// same options into a database of its own, whose records are then merged into this run's
// database; the report is the in-process one's, with the shards' own reports as its signatures.
int tuneModelOnShards(TuneCommandOptions& options, const tune::ModelWorkloads& model) {
  const std::string workDir = launchWorkDir(options.launcher, "tune");
  std::vector<launch::Shard> shards;
  for (size_t i = 0; i < model.workloads.size(); ++i) {
    const std::string key = model.workloads[i].workload.key();
    launch::Shard shard;
    shard.name = key;
    shard.output = std::filesystem::absolute(workDir).string() + "/tune-" + std::to_string(i) + ".json";
    shard.argv = {selfExecutable(), "tune", key, "--target", options.target, "--trials", std::to_string(options.trials),
                  "--search", options.search, "--seed", std::to_string(options.seed), "--batch", std::to_string(options.batch),
                  "--population", std::to_string(options.population), "--codegen", options.codegen,
                  // The shard's records go beside its report and are merged below.
                  "--db", std::string(launch::kOutputPlaceholder) + ".sqlite", "--json", launch::kOutputPlaceholder};
    if (options.threads > 0) shard.argv.insert(shard.argv.end(), {"--threads", std::to_string(options.threads)});
    if (options.flushCaches) shard.argv.push_back("--flush-caches");
    if (!options.pin) shard.argv.push_back("--no-pin");
    shards.push_back(std::move(shard));
  }
  // A GPU shard takes one GPU; a CPU shard the cores its kernels run on, so that shards do not
  // share cores and spoil each other's timings.
  const int threads = options.threads > 0 ? options.threads : tuning::executorThreads();
  const std::vector<std::string> sbatchArgs =
      options.target == "cuda" ? std::vector<std::string>{"--gres=gpu:1"} : std::vector<std::string>{"--cpus-per-task=" + std::to_string(threads)};
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const launch::LaunchResult result = runShards(options.launcher, shards, sbatchArgs, std::max(1, cores / threads));

  const std::string databasePath = options.db.empty() ? tune::defaultTuningDatabasePath() : options.db;
  tune::TuningDatabase database(databasePath);
  nlohmann::json report{{"model", options.workload}, {"skipped", model.skipped}, {"signatures", nlohmann::json::array()}};
  bool allVerified = result.allDone();
  size_t merged = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    if (result.shards[i].state != launch::ShardState::Done) continue;
    nlohmann::json signature;
    try {
      signature = nlohmann::json::parse(std::ifstream(shards[i].output));
    } catch (const nlohmann::json::exception& e) {
      throw errorInFile(shards[i].output, std::string("not a tune report: ") + e.what());
    }
    const tune::TuningDatabase shardDatabase(signature.at("database").get<std::string>());
    for (const tune::TuningRecord& record : shardDatabase.records()) merged += database.add(record) ? 1 : 0;
    const tune::ModelWorkload& entry = model.workloads[i];
    signature["count"] = entry.count;
    signature["nodes"] = entry.nodes;
    signature["total_gflop"] = entry.totalFlops() / 1e9;
    signature["node"] = result.shards[i].node;
    signature["retries"] = result.shards[i].retries;
    allVerified = allVerified && signature.value("verified", false);
    std::printf("%-50s best %8.2f GFLOP/s  baseline %s  (%s)\n", shards[i].name.c_str(), signature.value("best_gflops", 0.0),
                signature["baseline_gflops"].is_number() ? std::to_string(signature["baseline_gflops"].get<double>()).c_str() : "none",
                result.shards[i].node.c_str());
    report["signatures"].push_back(std::move(signature));
  }
  reportProgress("tune: merged " + std::to_string(merged) + " new record(s) into " + databasePath);
  nlohmann::json failed = nlohmann::json::array();
  for (size_t i : result.failed()) failed.push_back({{"workload", shards[i].name}, {"why", result.shards[i].note}});
  report["launch"] = {{"launcher", options.launcher.launcher}, {"work_dir", workDir}, {"shards", shards.size()},
                      {"failed", failed}, {"seconds", result.seconds}};
  report["database"] = databasePath;
  if (!options.json.empty()) writeJsonReport(report, options.json);
  if (!result.allDone()) {
    std::fprintf(stderr, "tessera-cli: error: %zu of %zu signature(s) of %s did not finish (see the launch lines above)\n",
                 result.failed().size(), shards.size(), options.workload.c_str());
    return 1;
  }
  if (!allVerified) {
    std::fprintf(stderr, "tessera-cli: error: no candidate of a signature of %s passed verification\n", options.workload.c_str());
    return 1;
  }
  return 0;
}

int runTune(TuneCommandOptions options) {
  if (options.trials < 1) throw Error("--trials must be at least 1");
  if (options.threads < 0) throw Error("--threads must be at least 1");
  if (options.target == "cuda" && options.flushCaches)
    throw Error("tune: --flush-caches flushes the CPU's caches; the cuda target times kernels on the GPU");
  const bool isModel = options.workload.size() > 5 && options.workload.ends_with(".onnx");
  // Parsed before anything runs, so that a malformed workload or model costs nothing.
  std::optional<tune::Workload> single;
  tune::ModelWorkloads model;
  if (isModel) {
    model = tune::modelWorkloads(options.shapes.import(options.workload));
    if (model.workloads.empty()) throw errorInFile(options.workload, "no matmul or conv2d the tuner can express");
  } else {
    if (!options.shapes.inputShapes.empty() || !options.shapes.dims.empty())
      throw Error("tune: --input-shape and --dim size a MODEL.onnx's inputs; a workload gives its own shapes");
    if (options.launcher.enabled()) throw Error("tune: --launcher fans out the signatures of a MODEL.onnx; one workload tunes here");
    single = tune::parseWorkload(options.workload);
  }
  if (options.launcher.enabled()) return tuneModelOnShards(options, model);
  if (options.threads == 0) options.threads = tuning::executorThreads();
  // Before anything starts OpenMP: oneDNN's team takes the same thread count as the kernels.
  ::setenv("OMP_NUM_THREADS", std::to_string(options.threads).c_str(), 1);
  // Before the database: without a device, --target cuda stops here and says why.
  const TuneTarget target = options.target == "cuda" ? cudaTarget(options) : cpuTarget(options);
  // By default where measured:cpu looks for tuned kernels; ":memory:" keeps nothing.
  const std::string databasePath = options.db.empty() ? tune::defaultTuningDatabasePath() : options.db;
  tune::TuningDatabase database(databasePath);
  reportProgress("tune: records in " + databasePath);

  nlohmann::json report;
  bool allVerified = true;
  if (single) {
    report = tuneWorkload(*single, options, target, database);
    allVerified = report["verified"].get<bool>();
  } else {
    // Each distinct signature once, the most expensive first.
    for (const std::string& why : model.skipped) reportProgress("tune: skipped " + why);
    report["model"] = options.workload;
    report["skipped"] = model.skipped;
    report["signatures"] = nlohmann::json::array();
    for (const tune::ModelWorkload& entry : model.workloads) {
      reportProgress("tune: " + entry.workload.key() + " (" + std::to_string(entry.count) + " node(s))");
      nlohmann::json signature = tuneWorkload(entry.workload, options, target, database);
      signature["count"] = entry.count;
      signature["nodes"] = entry.nodes;
      signature["total_gflop"] = entry.totalFlops() / 1e9;
      allVerified = allVerified && signature["verified"].get<bool>();
      report["signatures"].push_back(std::move(signature));
    }
  }
  if (!options.records.empty()) {
    std::ofstream out(options.records, std::ios::binary | std::ios::trunc);
    out << database.exportJsonLines(single ? single->key() : std::string());
    if (!out) throw errorInFile(options.records, "cannot write the tuning records");
  }
  report["database"] = databasePath;
  if (!options.json.empty()) writeJsonReport(report, options.json);
  if (!allVerified) {
    std::fprintf(stderr, "tessera-cli: error: no candidate of %s passed verification\n", options.workload.c_str());
    return 1;
  }
  return 0;
}

} // namespace

void addTuneCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<TuneCommandOptions>();
  CLI::App* command =
      app.add_subcommand("tune", "Tune a matmul, bmm or conv2d kernel on the CPU (against oneDNN) or a CUDA GPU (against cuBLAS/cuDNN)");
  command
      ->add_option("workload", options->workload,
                   "matmul:MxNxK, bmm:BxMxNxK or conv2d:NxCxHxW,OxCxKhxKw[,sS][,pP], each optionally followed by ,bias and/or "
                   ",relu; or MODEL.onnx: each distinct matmul and conv2d of the model, most expensive first, --trials each")
      ->required();
  command->add_option("--target", options->target,
                      "Where the kernels run: cpu (LLVM IR or C, see --codegen) or cuda (CUDA C++, NVRTC, the cuda plugin's GPU)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  command->add_option("--trials", options->trials, "Candidates to measure")->capture_default_str();
  command->add_option("--search", options->search, "Search strategy: evolutionary (with the XGBoost cost model) or random")
      ->check(CLI::IsMember({"evolutionary", "random"}))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the search and of the verification inputs")->capture_default_str();
  command->add_option("--db", options->db,
                      "Tuning database (SQLite) to add the records to (default: $TESSERA_TUNING_DB, else tuning.sqlite beside "
                      "the cost cache, where measured:cpu finds tuned kernels; :memory: keeps none)");
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  addModelShapeOptions(command, options->shapes);
  addLauncherOptions(command, options->launcher);
  command->add_option("--records", options->records, "Write this workload's tuning records as JSON lines to this file");
  command->add_option("--threads", options->threads,
                      "Threads of the kernels and of oneDNN (default: the CPU executor's, which runs tuned kernels only on "
                      "the thread count they were tuned for)");
  command->add_option("--batch", options->batch, "Candidates built together before they are run")->capture_default_str();
  command->add_option("--population", options->population, "Evolutionary search: traces in each round's population")
      ->check(CLI::Range(16, 1 << 16))
      ->capture_default_str();
  command
      ->add_option("--codegen", options->codegen,
                   "CPU kernels: llvm (LLVM IR compiled in-process, the default in a build with LLVM) or c (the system C compiler)")
      ->check(CLI::IsMember({"llvm", "c"}))
      ->capture_default_str();
  command->add_flag("--flush-caches", options->flushCaches,
                    "CPU: flush each kernel's inputs and output from the caches before every timed run, as a whole model meets "
                    "them (MetaSchedule's enable_cpu_cache_flush); records go to the target '..., caches flushed', which "
                    "measured:cpu prefers");
  command->add_flag("!--no-pin", options->pin, "Do not pin the kernels' OpenMP threads (OMP_PROC_BIND=close, OMP_PLACES=cores)");
  command->callback([options, &context] { context.exitCode = runTune(*options); });
}

} // namespace tessera::cli
