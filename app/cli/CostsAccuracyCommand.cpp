// `tessera-cli costs accuracy` and `costs calibrate`: how well a cost model predicts end-to-end
// latency, and fitting measured:<backend>'s latency calibration.
//   costs accuracy MODEL... --cost SPEC [--candidates N]   per model, N distinct graphs of its e-graph
//                                         (CandidateSampler) predicted and timed end to end,
//                                         interleaved; a table, Spearman's rank correlation and MAPE
//                                         per model and overall (JSON spearman, mape_pct, pairs)
//   costs accuracy … --launcher local|slurm  each model's candidates sampled and timed by a shard of
//                                         their own (timings stay interleaved within a model), the
//                                         same table and report built from the shards' pairs
//   costs calibrate MODEL... --cost measured:B [--candidates N]
//                                         the same timings fit the backend's LatencyCalibration,
//                                         stored with the cost cache for every later measured:B run
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"
#include "CostModelFactory.h"
#include "EndToEndReport.h"
#include "LauncherOptions.h"
#include "run/RulePack.h"

#include "cost/CostCache.h"
#include "cost/ExecutorCheck.h"
#include "cost/GraphCost.h"
#include "cost/InterleavedLatency.h"
#include "cost/LatencyCalibration.h"
#include "run/CostResolution.h"
#include "cost/MeasuredCostModel.h"
#include "cost/PredictionAccuracy.h"
#include "launch/Shard.h"
#include "onnx/OnnxImport.h"
#include "search/CandidateSampler.h"
#include "support/Error.h"
#include "support/HostLoad.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

namespace tessera::cli {

namespace {

struct AccuracyOptions {
  std::vector<std::string> models;
  std::string cost = "measured:cpu";
  std::string executor; // default: the measured spec's backend, else cpu
  size_t candidates = 8;
  uint64_t seed = 1;
  size_t nodeLimit = 5000;
  double timeLimitSeconds = 30;
  LatencyProtocol protocol;
  std::string json;
  std::string cache;
  ModelShapeOptions shapes;
  LauncherOptions launcher; // accuracy: a shard per model
  bool asShard = false;     // a launched model: exit 0 whenever its report is written
};

struct TimedCandidate {
  std::string model, label;
  size_t ops = 0;
  double predictedMs = 0;
  double measuredMs = 0;
  LatencyFeatures features; // with uncalibrated op costs, for a calibration fit
  OutputAgreement outputs;  // the executor's outputs against the interpreter's
};

std::string backendOf(const AccuracyOptions& options) {
  if (!options.executor.empty()) return options.executor;
  return measuredBackend(options.cost).value_or("cpu");
}

// Samples every model's candidates, predicts them with `model` and times them end to end.
std::vector<TimedCandidate> timeCandidates(const AccuracyOptions& options, CostModel& model, GraphExecutor& executor) {
  const ActiveRules rules = loadActiveRules({}, reportProgress);
  auto* measured = dynamic_cast<MeasuredCostModel*>(&model);
  std::vector<TimedCandidate> timed;
  const std::vector<onnx_io::ShapeBindings> bindings = options.shapes.bindingsForEach(options.models);
  for (size_t m = 0; m < options.models.size(); ++m) {
    const std::string& path = options.models[m];
    const std::string name = std::filesystem::path(path).stem().string();
    const std::string prefix = "[" + std::to_string(m + 1) + "/" + std::to_string(options.models.size()) + "] " + name + ": ";
    reportProgress(prefix + "growing its e-graph and sampling " + std::to_string(options.candidates) + " candidates");
    const Graph original = onnx_io::importOnnxFile(path, bindings[m]);
    CandidateSamplerOptions sampling;
    sampling.count = options.candidates;
    sampling.seed = options.seed;
    sampling.nodeLimit = options.nodeLimit;
    sampling.timeLimitSeconds = options.timeLimitSeconds;
    sampling.progress = [&](const std::string& line) { reportProgress(prefix + line); };
    const std::vector<SampledCandidate> candidates = sampleCandidates(original, rules.list, model, sampling);

    // A timing means nothing for a graph the executor gets wrong (a tuned kernel, a fused post-op).
    reportProgress(prefix + "checking each candidate's outputs on " + executor.device() + " against the interpreter's");
    std::vector<OutputAgreement> outputs;
    for (const SampledCandidate& c : candidates) {
      try {
        outputs.push_back(checkExecutor(executor, c.graph, options.seed));
      } catch (const Error& e) {
        outputs.push_back({1, std::string("could not run it: ") + e.what()});
      }
    }
    std::vector<const Graph*> graphs;
    for (const SampledCandidate& c : candidates) graphs.push_back(&c.graph);
    reportProgress(prefix + "timing " + std::to_string(graphs.size()) + " candidates end to end, interleaved");
    const std::vector<GraphLatency> latencies =
        measureInterleaved(executor, graphs, options.protocol, [&](const std::string& line) { reportProgress(prefix + line); });
    for (size_t i = 0; i < candidates.size(); ++i) {
      TimedCandidate row{name, candidates[i].label, candidates[i].graph.opCount()};
      row.outputs = outputs[i];
      row.predictedMs = graphCost(candidates[i].graph, model).totalMs;
      row.measuredMs = latencies[i].medianMs;
      row.features = latencyFeatures(candidates[i].graph, model, [&](const OpSignature& s) {
        return measured ? measured->measuredMs(s) : model.costMs(s);
      });
      timed.push_back(std::move(row));
    }
  }
  return timed;
}

std::string absolutePath(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

// `costs accuracy --launcher`: a shard per model runs `costs accuracy` on that model alone with the
// same settings; its report's pairs are read back as the rows a run in this process times.
std::vector<TimedCandidate> timeCandidatesOnShards(const AccuracyOptions& options) {
  LauncherOptions launcher = options.launcher;
  const std::string workDir = absolutePath(launchWorkDir(launcher, "costs-accuracy"));
  std::vector<launch::Shard> shards;
  for (size_t m = 0; m < options.models.size(); ++m) {
    launch::Shard shard;
    shard.name = std::filesystem::path(options.models[m]).stem().string();
    shard.output = workDir + "/accuracy-" + std::to_string(m) + ".json";
    shard.argv = {selfExecutable(), "costs", "--json", launch::kOutputPlaceholder};
    if (!options.cache.empty()) shard.argv.insert(shard.argv.end(), {"--cache", absolutePath(options.cache)});
    shard.argv.insert(shard.argv.end(), {"accuracy", absolutePath(options.models[m]), "--as-shard", "--cost", options.cost,
                                         "--candidates", std::to_string(options.candidates), "--seed", std::to_string(options.seed),
                                         "--node-limit", std::to_string(options.nodeLimit), "--time-limit", std::to_string(options.timeLimitSeconds),
                                         "--warmup", std::to_string(options.protocol.warmup), "--rounds", std::to_string(options.protocol.rounds),
                                         "--runs", std::to_string(options.protocol.runsPerRound)});
    if (!options.executor.empty()) shard.argv.insert(shard.argv.end(), {"--executor", options.executor});
    for (const std::string& shape : options.shapes.inputShapes) shard.argv.insert(shard.argv.end(), {"--input-shape", shape});
    for (const std::string& dim : options.shapes.dims) shard.argv.insert(shard.argv.end(), {"--dim", dim});
    shards.push_back(std::move(shard));
  }
  // Timings on one machine must not overlap: locally one shard at a time unless told otherwise.
  const launch::LaunchResult result = runShards(launcher, shards, {}, launcher.launcher == "local" ? 1 : 0);
  if (!result.allDone())
    throw Error("costs accuracy: " + std::to_string(result.failed().size()) + " of " + std::to_string(shards.size()) +
                " model shard(s) did not finish (see the launch lines above); run again with --work-dir " + workDir + " to time only those");
  std::vector<TimedCandidate> timed;
  for (const launch::Shard& shard : shards) {
    try {
      const nlohmann::json report = nlohmann::json::parse(std::ifstream(shard.output));
      for (const nlohmann::json& pair : report.at("pairs")) {
        TimedCandidate row{pair.at("model").get<std::string>(), pair.at("candidate").get<std::string>(), pair.at("ops").get<size_t>()};
        row.predictedMs = pair.at("predicted_ms").get<double>();
        row.measuredMs = pair.at("measured_ms").get<double>();
        if (!pair.at("matches_interpreter").get<bool>()) row.outputs = {1, pair.value("mismatch", std::string())};
        timed.push_back(std::move(row));
      }
    } catch (const nlohmann::json::exception& e) {
      throw errorInFile(shard.output, std::string("not a costs accuracy report: ") + e.what());
    }
  }
  return timed;
}

struct Accuracy {
  double spearman = NAN, mapePct = NAN;
};

Accuracy accuracyOf(const std::vector<const TimedCandidate*>& rows) {
  std::vector<double> predicted, measured;
  for (const TimedCandidate* row : rows) {
    predicted.push_back(row->predictedMs);
    measured.push_back(row->measuredMs);
  }
  return {spearmanCorrelation(predicted, measured), meanAbsolutePercentageError(predicted, measured)};
}

nlohmann::json number(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

// Spearman needs two graphs that differ in both rankings; with fewer there is no order to compare.
std::string spearmanText(double spearman) {
  if (!std::isfinite(spearman)) return "Spearman n/a (no two candidates to order)";
  char text[32];
  std::snprintf(text, sizeof text, "Spearman %.3f", spearman);
  return text;
}

nlohmann::json pairsJson(const std::vector<const TimedCandidate*>& rows) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const TimedCandidate* row : rows) {
    pairs.push_back({{"model", row->model},
                     {"candidate", row->label},
                     {"ops", row->ops},
                     {"predicted_ms", row->predictedMs},
                     {"measured_ms", row->measuredMs},
                     {"matches_interpreter", row->outputs.matches()}});
    if (!row->outputs.matches()) pairs.back()["mismatch"] = row->outputs.worst;
  }
  return pairs;
}

void prepareCache(const AccuracyOptions& options) {
  // The measured model uses the default cache; --cache redirects it for this run.
  if (!options.cache.empty()) setenv("TESSERA_COST_CACHE", options.cache.c_str(), 1);
}

int runAccuracy(const AccuracyOptions& options) {
  prepareCache(options);
  std::unique_ptr<CostModel> model = makeCliCostModel(options.cost);
  std::unique_ptr<GraphExecutor> executor = makeCliExecutor(backendOf(options));
  const std::vector<TimedCandidate> timed =
      options.launcher.enabled() ? timeCandidatesOnShards(options) : timeCandidates(options, *model, *executor);

  std::printf("%-14s %-44s %6s %12s %12s %8s  %s\n", "model", "candidate", "ops", "predicted ms", "measured ms", "error", "outputs");
  nlohmann::json report;
  report["cost"] = model->spec();
  report["device"] = executor->device();
  report["models"] = nlohmann::json::array();
  std::vector<const TimedCandidate*> all;
  for (const TimedCandidate& row : timed) all.push_back(&row);
  for (size_t first = 0; first < timed.size();) {
    std::vector<const TimedCandidate*> rows;
    size_t last = first;
    while (last < timed.size() && timed[last].model == timed[first].model) rows.push_back(&timed[last++]);
    for (const TimedCandidate* row : rows)
      std::printf("%-14s %-44s %6zu %12.3f %12.3f %7.1f%%  %s\n", row->model.c_str(), row->label.c_str(), row->ops, row->predictedMs,
                  row->measuredMs, (row->predictedMs - row->measuredMs) / row->measuredMs * 100.0,
                  row->outputs.matches() ? "match" : ("DIFFER: " + row->outputs.worst).c_str());
    const Accuracy accuracy = accuracyOf(rows);
    std::printf("%-14s %s, MAPE %.1f %% over %zu candidates\n\n", timed[first].model.c_str(), spearmanText(accuracy.spearman).c_str(),
                accuracy.mapePct, rows.size());
    report["models"].push_back({{"model", timed[first].model},
                                {"spearman", number(accuracy.spearman)},
                                {"mape_pct", number(accuracy.mapePct)},
                                {"pairs", pairsJson(rows)}});
    first = last;
  }
  const Accuracy overall = accuracyOf(all);
  std::printf("overall: %s, MAPE %.1f %% over %zu candidates of %zu models\n", spearmanText(overall.spearman).c_str(), overall.mapePct,
              all.size(), options.models.size());
  std::printf("timing: %d rounds of %d runs after %d warm-up per graph, interleaved, median of rounds, on %s\n",
              options.protocol.rounds, options.protocol.runsPerRound, options.protocol.warmup, executor->device().c_str());
  if (std::string summary = costModelSummary(*model); !summary.empty()) std::printf("%s\n", summary.c_str());
  report["spearman"] = number(overall.spearman);
  report["mape_pct"] = number(overall.mapePct);
  report["pairs"] = pairsJson(all);
  report["protocol"] = {{"warmup", options.protocol.warmup}, {"rounds", options.protocol.rounds}, {"runs_per_round", options.protocol.runsPerRound}};
  if (!options.json.empty()) writeJsonReport(report, options.json);
  const auto differ = std::count_if(timed.begin(), timed.end(), [](const TimedCandidate& row) { return !row.outputs.matches(); });
  if (differ > 0 && !options.asShard) {
    std::fprintf(stderr, "costs accuracy: %td of %zu candidates ran with outputs that differ from the interpreter's on %s\n", differ,
                 timed.size(), executor->device().c_str());
    return 1;
  }
  return 0;
}

int runCalibrate(const AccuracyOptions& options) {
  prepareCache(options);
  requireMeasuredBackend(options.cost, "costs calibrate");
  std::unique_ptr<CostModel> model = makeCliCostModel(options.cost);
  auto* measured = dynamic_cast<MeasuredCostModel*>(model.get());
  if (!measured) throw Error(options.cost + " is unavailable here, so there is nothing to calibrate");
  const std::optional<LatencyCalibration> before = measured->calibration();
  measured->setCalibration(std::nullopt); // the candidates are sampled with the plain op costs
  const std::string backend = backendOf(options);
  std::unique_ptr<GraphExecutor> executor = makeCliExecutor(backend);
  // Whole graphs timed on a busy host's processors measure the scheduler, not the device: such a fit
  // is shown but never stored, as a busy host's op timings never reach the cost cache.
  const bool timesOnTheHost = backendTimesOnTheHost(backend);
  std::optional<HostLoad> busiest;
  auto noteLoad = [&] {
    if (!timesOnTheHost) return;
    if (const std::optional<HostLoad> load = hostLoad(); load && (!busiest || load->loadAverage > busiest->loadAverage)) busiest = load;
  };
  noteLoad();
  const std::vector<TimedCandidate> timed = timeCandidates(options, *model, *executor);
  noteLoad();
  const bool store = !busiest || !busiest->busy();

  std::vector<LatencySample> graphs;
  for (const TimedCandidate& row : timed) graphs.push_back({row.features, row.measuredMs});
  const LatencyCalibration calibration = fitLatencyCalibration(graphs);
  CostCache cache(defaultCostCachePath());
  if (store) cache.storeCalibration(measured->device(), calibration);

  std::vector<double> plain, calibrated, truth;
  for (const TimedCandidate& row : timed) {
    plain.push_back(row.features.opMs);
    calibrated.push_back(calibration.predictMs(row.features));
    truth.push_back(row.measuredMs);
  }
  const double plainMape = meanAbsolutePercentageError(plain, truth);
  std::printf("%s on %s: %s\n", options.cost.c_str(), measured->device().c_str(), calibration.describe().c_str());
  std::printf("sum of op costs: MAPE %.1f %%; calibrated: MAPE %.1f %% (Spearman %.3f) over %zu graphs\n", plainMape,
              calibration.mapePct, spearmanCorrelation(calibrated, truth), graphs.size());
  if (store) {
    if (before) std::printf("replaces %s\n", before->describe().c_str());
    std::printf("stored in %s\n", cache.path().c_str());
  } else {
    std::fprintf(stderr,
                 "costs calibrate: the calibration was NOT stored: the machine was busy (load %.1f on %d processors) while the "
                 "graphs were timed, so the fit describes the scheduler more than the device; calibrate when it is quiet\n",
                 busiest->loadAverage, busiest->processors);
  }
  if (!options.json.empty())
    writeJsonReport({{"device", measured->device()},
                     {"op_scale", calibration.opScale},
                     {"per_op_ms", calibration.perOpMs},
                     {"per_mib_ms", calibration.perMiBMs},
                     {"graphs", calibration.graphs},
                     {"mape_pct", calibration.mapePct},
                     {"uncalibrated_mape_pct", number(plainMape)},
                     {"cache", cache.path()},
                     {"stored", store}},
                    options.json);
  return store ? 0 : 1;
}

void addSamplingOptions(CLI::App* command, AccuracyOptions& options) {
  command->add_option("models", options.models, "ONNX models")->required();
  command->add_option("--cost", options.cost, "Cost spec (default measured:cpu)");
  command->add_option("--executor", options.executor, "Backend that times the graphs (default: the measured spec's, else cpu)");
  command->add_option("--candidates", options.candidates, "Distinct graphs per model (default 8)")->check(CLI::Range(2, 1000));
  command->add_option("--seed", options.seed, "Seed of the random extractions (default 1)");
  command->add_option("--node-limit", options.nodeLimit, "E-nodes of each model's e-graph (default 5000)")->check(CLI::PositiveNumber);
  command->add_option("--time-limit", options.timeLimitSeconds, "Seconds to grow each e-graph (default 30)")->check(CLI::PositiveNumber);
  command->add_option("--warmup", options.protocol.warmup, "Untimed runs per graph and round (default 2)")->check(CLI::NonNegativeNumber);
  command->add_option("--rounds", options.protocol.rounds, "Interleaved rounds over the graphs (default 5)")->check(CLI::PositiveNumber);
  command->add_option("--runs", options.protocol.runsPerRound, "Timed runs per graph and round (default 3)")->check(CLI::PositiveNumber);
  addModelShapeOptions(command, options.shapes);
}

} // namespace

void addCostsAccuracyCommands(CLI::App& costs, CommandContext& context, const std::string& cache, const std::string& json) {
  auto options = std::make_shared<AccuracyOptions>();
  CLI::App* accuracy = costs.add_subcommand("accuracy", "How well a cost model predicts end-to-end latency (Spearman, MAPE)");
  addSamplingOptions(accuracy, *options);
  addLauncherOptions(accuracy, options->launcher);
  accuracy->add_flag("--as-shard", options->asShard, "A launched model: exit 0 whenever its report is written")->group(""); // internal
  accuracy->callback([options, &context, &cache, &json] {
    options->cache = cache;
    options->json = json;
    context.exitCode = runAccuracy(*options);
  });
  CLI::App* calibrate = costs.add_subcommand("calibrate", "Fit a measured backend's op costs to whole-graph latencies and store it");
  addSamplingOptions(calibrate, *options);
  calibrate->callback([options, &context, &cache, &json] {
    options->cache = cache;
    options->json = json;
    context.exitCode = runCalibrate(*options);
  });
}

} // namespace tessera::cli
