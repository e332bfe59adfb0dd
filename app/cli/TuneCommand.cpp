// `tessera-cli tune WORKLOAD|MODEL.onnx [--trials N] [--search evolutionary|random] [--seed S] [--db F] [--json F]`:
// tunes one matmul, batched matmul or conv2d kernel on the CPU (core/tune), or each distinct one of
// a model, and compares the best kernel with oneDNN's primitive on the same number of threads.
#include "CommandContext.h"
#include "Commands.h"

#include "onnx/OnnxImport.h"
#include "support/Error.h"
#include "tune/ModelWorkloads.h"
#include "tune/Tuner.h"

#include "OneDnnBaseline.h"

#if TESSERA_HAVE_DNNL
#include "CpuDevice.h"
#endif

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>

namespace tessera::cli {

namespace {

struct TuneCommandOptions {
  std::string workload;
  int trials = 64;
  std::string search = tune::availableSearches().front();
  uint64_t seed = 1;
  std::string db;
  std::string json;
  std::string records; // JSON lines export
  int threads = 0;      // 0: the CPU executor's (executorThreads())
  int batch = 16;
  bool pin = true;
};

#if TESSERA_HAVE_DNNL
// Kernels are tuned for a thread count; the executor runs them only on the same one.
int executorThreads() { return cpu::cpuThreads(); }
#else
int executorThreads() { return 2; }
#endif

// Tunes one workload, prints its summary and returns its report ("verified" false when no
// candidate passed).
nlohmann::json tuneWorkload(const tune::Workload& workload, const TuneCommandOptions& options, tune::TuningDatabase& database) {
  tune::CpuTuneSettings settings;
  settings.seed = options.seed;
  settings.search = options.search;
  settings.threads = options.threads;
  settings.run.pinThreads = options.pin;
  settings.build.jobs = std::max(options.threads, 1);
  auto context = tune::makeCpuTuneContext(workload, settings);
  context->database = &database;

  reportProgress("tune: " + workload.key() + ", " + std::to_string(options.trials) + " trials, " + options.search +
                 " search, seed " + std::to_string(options.seed) + ", " + std::to_string(options.threads) + " threads");
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

  std::string noBaseline;
  std::optional<tuning::OneDnnBaseline> baseline = tuning::measureOneDnnBaseline(workload, options.threads, noBaseline);
  if (!baseline) reportProgress("tune: no oneDNN baseline (" + noBaseline + ")");

  nlohmann::json report;
  report["workload"] = workload.key();
  report["search"] = options.search;
  report["seed"] = options.seed;
  report["threads"] = options.threads;
  report["target"] = context->target;
  report["trials"] = result.trials;
  report["verified_trials"] = result.verified;
  report["failed_trials"] = result.failed;
  report["skipped"] = result.skipped;
  report["outcomes"] = outcomes;
  report["stop_reason"] = result.stopReason;
  report["tune_seconds"] = result.seconds;
  report["verified"] = result.best.has_value();
  report["best_gflops"] = result.best ? result.best->gflops : 0.0;
  report["best_latency_ms"] = result.best ? result.best->latencyMs : 0.0;
  report["best_trace"] = result.best ? nlohmann::json::parse(tune::traceToJson(result.best->candidate.trace)) : nlohmann::json();
  report["best_gflops_by_trial"] = bestByTrial;
  report["best_loop_nest"] = result.best ? result.best->candidate.nest.toString() : "";
  report["baseline_gflops"] = baseline ? nlohmann::json(baseline->gflops) : nlohmann::json();
  report["baseline_latency_ms"] = baseline ? nlohmann::json(baseline->latencyMs) : nlohmann::json();
  report["baseline"] = baseline ? "oneDNN " + baseline->what : "none";

  std::printf("workload   %s\n", workload.key().c_str());
  std::printf("trials     %d (%d verified, %d failed, %d duplicates skipped) in %.1f s\n", result.trials, result.verified,
              result.failed, result.skipped, result.seconds);
  if (result.best) {
    std::printf("best       %.2f GFLOP/s (%.4f ms)\n", result.best->gflops, result.best->latencyMs);
    std::printf("%s", result.best->candidate.nest.toString().c_str());
  }
  if (baseline) std::printf("oneDNN     %.2f GFLOP/s (%.4f ms) %s\n", baseline->gflops, baseline->latencyMs, baseline->what.c_str());

  return report;
}

int runTune(TuneCommandOptions options) {
  if (options.trials < 1) throw Error("--trials must be at least 1");
  if (options.threads < 0) throw Error("--threads must be at least 1");
  const bool isModel = options.workload.size() > 5 && options.workload.ends_with(".onnx");
  // Parsed before anything runs, so that a malformed workload or model costs nothing.
  std::optional<tune::Workload> single;
  tune::ModelWorkloads model;
  if (isModel) {
    model = tune::modelWorkloads(onnx_io::importOnnxFile(options.workload));
    if (model.workloads.empty()) throw errorInFile(options.workload, "no matmul or conv2d the tuner can express");
  } else {
    single = tune::parseWorkload(options.workload);
  }
  if (options.threads == 0) options.threads = executorThreads();
  // Before anything starts OpenMP: oneDNN's team takes the same thread count as the kernels.
  ::setenv("OMP_NUM_THREADS", std::to_string(options.threads).c_str(), 1);
  // By default where measured:cpu looks for tuned kernels; ":memory:" keeps nothing.
  const std::string databasePath = options.db.empty() ? tune::defaultTuningDatabasePath() : options.db;
  tune::TuningDatabase database(databasePath);
  reportProgress("tune: records in " + databasePath);

  nlohmann::json report;
  bool allVerified = true;
  if (single) {
    report = tuneWorkload(*single, options, database);
    allVerified = report["verified"].get<bool>();
  } else {
    // Each distinct signature once, the most expensive first.
    for (const std::string& why : model.skipped) reportProgress("tune: skipped " + why);
    report["model"] = options.workload;
    report["skipped"] = model.skipped;
    report["signatures"] = nlohmann::json::array();
    for (const tune::ModelWorkload& entry : model.workloads) {
      reportProgress("tune: " + entry.workload.key() + " (" + std::to_string(entry.count) + " node(s))");
      nlohmann::json signature = tuneWorkload(entry.workload, options, database);
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
  CLI::App* command = app.add_subcommand("tune", "Tune a matmul, bmm or conv2d kernel on the CPU and compare it with oneDNN");
  command
      ->add_option("workload", options->workload,
                   "matmul:MxNxK, bmm:BxMxNxK or conv2d:NxCxHxW,OxCxKhxKw[,sS][,pP], each optionally followed by ,bias and/or "
                   ",relu; or MODEL.onnx: each distinct matmul and conv2d of the model, most expensive first, --trials each")
      ->required();
  command->add_option("--trials", options->trials, "Candidates to measure")->capture_default_str();
  command->add_option("--search", options->search, "Search strategy: evolutionary (with the XGBoost cost model) or random")
      ->check(CLI::IsMember({"evolutionary", "random"}))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the search and of the verification inputs")->capture_default_str();
  command->add_option("--db", options->db,
                      "Tuning database (SQLite) to add the records to (default: $TESSERA_TUNING_DB, else tuning.sqlite beside "
                      "the cost cache, where measured:cpu finds tuned kernels; :memory: keeps none)");
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  command->add_option("--records", options->records, "Write this workload's tuning records as JSON lines to this file");
  command->add_option("--threads", options->threads,
                      "Threads of the kernels and of oneDNN (default: the CPU executor's, which runs tuned kernels only on "
                      "the thread count they were tuned for)");
  command->add_option("--batch", options->batch, "Candidates built together before they are run")->capture_default_str();
  command->add_flag("!--no-pin", options->pin, "Do not pin the kernels' OpenMP threads (OMP_PROC_BIND=close, OMP_PLACES=cores)");
  command->callback([options, &context] { context.exitCode = runTune(*options); });
}

} // namespace tessera::cli
