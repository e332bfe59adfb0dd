// `tessera-cli costs`: measured op costs.
//   costs profile MODEL... [--cost SPEC] [--e2e] [--launcher local|slurm …]
//                                         cost every distinct op of the models (measuring what the
//                                         cache lacks) and report measured / cache hits / estimated;
//                                         --e2e also runs each whole model on the backend's device;
//                                         --launcher measures the missing signatures in shards first
//   costs list                            devices in the cost cache and how many signatures each, and
//                                         the tuned kernels of the tuning database in use
//   costs export FILE [--device D]        one device's table as JSON (for table:FILE or import)
//   costs import FILE                     a table into the cost cache
//   costs forget --device D [--before T]  drop a device's costs (those measured before T) and its
//                                         calibration: timings a busy machine took, say
//   costs accuracy / calibrate MODEL...   see CostsAccuracyCommand.cpp
// All take --cache PATH (default: $TESSERA_COST_CACHE, else ~/.cache/tessera/costs.sqlite) and --json.
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"
#include "CostModelFactory.h"
#include "EndToEndReport.h"
#include "LauncherOptions.h"

#include "cost/CostCache.h"
#include "cost/CostTable.h"
#include "cost/GraphCost.h"
#include "cost/MeasuredCostModel.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"
#include "tune/TuningDatabase.h"

#ifdef TESSERA_HAVE_PLUGINS
#include "PluginHost.h"
#endif

#include "ExecutorThreads.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <thread>

namespace tessera::cli {

namespace {

struct CostsOptions {
  std::string cache;
  std::string json;
  std::vector<std::string> models;
  std::string cost = "measured:cpu";
  std::string file;
  std::string device;
  bool e2e = false;
  int warmup = 10;
  int runs = 20;
  ModelShapeOptions shapes;
  LauncherOptions launcher;
  std::string signatureList; // a shard's share of the signatures to measure, one key a line
  std::string before;        // forget: costs measured before this UTC date or time
};

std::string cachePath(const CostsOptions& options) { return options.cache.empty() ? defaultCostCachePath() : options.cache; }

// Each distinct op signature of the models once, by key.
std::map<std::string, OpSignature> distinctSignatures(const CostsOptions& options) {
  std::map<std::string, OpSignature> signatures;
  const std::vector<onnx_io::ShapeBindings> bindings = options.shapes.bindingsForEach(options.models);
  for (size_t i = 0; i < options.models.size(); ++i) {
    const Graph graph = onnx_io::importOnnxFile(options.models[i], bindings[i]);
    for (NodeId id = 0; id < graph.size(); ++id) {
      const OpKind kind = graph.node(id).kind;
      if (kind == OpKind::Input || kind == OpKind::Weight) continue;
      OpSignature signature = signatureOf(graph, id);
      signatures.emplace(signature.key(), std::move(signature));
    }
  }
  return signatures;
}

// A shard of `costs profile --launcher`: measures the signatures its list names into --cache.
int profileSignatureShard(const CostsOptions& options) {
  std::ifstream in(options.signatureList);
  if (!in) throw errorInFile(options.signatureList, "cannot read the signature list");
  std::set<std::string> wanted;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) wanted.insert(line);
  std::unique_ptr<CostModel> model = makeCliCostModel(options.cost);
  size_t measured = 0;
  for (const auto& [key, signature] : distinctSignatures(options)) {
    if (!wanted.count(key)) continue;
    model->costMs(signature);
    reportProgress("[" + std::to_string(++measured) + "/" + std::to_string(wanted.size()) + "] " + key);
  }
  if (measured != wanted.size())
    throw errorInFile(options.signatureList, "names " + std::to_string(wanted.size() - measured) + " signature(s) the models do not have");
  if (std::string summary = costModelSummary(*model); !summary.empty()) std::printf("%s\n", summary.c_str());
  return 0;
}

// `costs profile --launcher`: the signatures the cache lacks for the device, dealt out to shards
// that each measure theirs into a cache of their own, merged into this cache afterwards; the
// report that follows is then the in-process one, from the cache.
bool measureOnShards(CostsOptions& options) {
  std::unique_ptr<CostModel> model = makeCliCostModel(options.cost);
  const auto* measured = dynamic_cast<const MeasuredCostModel*>(model.get());
  if (!measured) throw Error("costs profile --launcher: " + model->spec() + " measures nothing; give a measured cost spec (--cost measured:…)");
  CostCache cache(cachePath(options));
  std::vector<std::string> missing;
  for (const auto& [key, signature] : distinctSignatures(options))
    if (!cache.lookup(measured->device(), key)) missing.push_back(key);
  reportProgress("costs: " + std::to_string(missing.size()) + " signature(s) of " + measured->device() + " not in " + cache.path());
  if (missing.empty()) return true;

  const std::string workDir = std::filesystem::absolute(launchWorkDir(options.launcher, "costs")).string();
  const bool gpu = options.cost == "measured:cuda";
  // A CPU shard takes the cores the profiler's ops run on, so that shards do not spoil each other's timings.
  const int threads = tuning::executorThreads();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int parallel = options.launcher.maxParallel > 0 ? options.launcher.maxParallel : std::max(1, cores / threads);
  const size_t count = std::min(missing.size(), static_cast<size_t>(parallel));
  std::vector<launch::Shard> shards(count);
  std::vector<std::string> lists(count);
  for (size_t i = 0; i < missing.size(); ++i) lists[i % count] += missing[i] + "\n";
  for (size_t i = 0; i < count; ++i) {
    const std::string listPath = workDir + "/costs-" + std::to_string(i) + ".keys";
    std::ofstream list(listPath, std::ios::binary | std::ios::trunc);
    list << lists[i];
    if (!list) throw errorInFile(listPath, "cannot write a shard's signature list");
    launch::Shard& shard = shards[i];
    shard.name = "signatures " + std::to_string(i + 1) + " of " + std::to_string(count);
    shard.output = workDir + "/costs-" + std::to_string(i) + ".sqlite";
    shard.argv = {selfExecutable(), "costs", "--cache", launch::kOutputPlaceholder, "profile"};
    for (const std::string& path : options.models) shard.argv.push_back(std::filesystem::absolute(path).string());
    shard.argv.insert(shard.argv.end(), {"--cost", options.cost, "--signature-list", listPath});
    for (const std::string& shape : options.shapes.inputShapes) shard.argv.insert(shard.argv.end(), {"--input-shape", shape});
    for (const std::string& dim : options.shapes.dims) shard.argv.insert(shard.argv.end(), {"--dim", dim});
  }
  const std::vector<std::string> sbatchArgs{gpu ? std::string("--gres=gpu:1") : "--cpus-per-task=" + std::to_string(threads)};
  const launch::LaunchResult result = runShards(options.launcher, shards, sbatchArgs, parallel);
  size_t merged = 0;
  for (size_t i = 0; i < shards.size(); ++i) {
    if (result.shards[i].state != launch::ShardState::Done) continue;
    CostCache shardCache(shards[i].output);
    for (const std::string& device : shardCache.devices()) merged += importCostTable(cache, costTableFromCache(shardCache, device));
  }
  reportProgress("costs: merged " + std::to_string(merged) + " measured cost(s) into " + cache.path());
  if (result.allDone()) return true;
  std::fprintf(stderr, "tessera-cli: error: %zu of %zu shard(s) did not finish (see the launch lines above)\n", result.failed().size(),
               shards.size());
  return false;
}

int runProfile(CostsOptions options) {
  // The cache the measured model uses is the default one; --cache redirects it for this run.
  if (!options.cache.empty()) setenv("TESSERA_COST_CACHE", options.cache.c_str(), 1);
  if (!options.signatureList.empty()) return profileSignatureShard(options);
  if (options.launcher.enabled() && !measureOnShards(options)) return 1;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<CostModel> model = makeCliCostModel(options.cost);
  std::unique_ptr<GraphExecutor> executor;
  if (options.e2e) executor = makeCliExecutor(requireMeasuredBackend(options.cost, "--e2e"));
  nlohmann::json report;
  report["cost"] = model->spec();
  report["models"] = nlohmann::json::array();
  std::set<std::string> distinct;
  const std::vector<onnx_io::ShapeBindings> bindings = options.shapes.bindingsForEach(options.models);
  for (size_t i = 0; i < options.models.size(); ++i) {
    const std::string& path = options.models[i];
    reportProgress("[" + std::to_string(i + 1) + "/" + std::to_string(options.models.size()) + "] " + path);
    Graph graph = onnx_io::importOnnxFile(path, bindings[i]);
    std::set<std::string> signatures;
    for (NodeId id = 0; id < graph.size(); ++id) {
      const OpKind kind = graph.node(id).kind;
      if (kind != OpKind::Input && kind != OpKind::Weight) signatures.insert(signatureOf(graph, id).key());
    }
    distinct.insert(signatures.begin(), signatures.end());
    const GraphCost cost = graphCost(graph, *model);
    std::printf("%-40s %10.3f ms  (%zu ops, %zu distinct signatures)\n", path.c_str(), cost.totalMs, graph.opCount(), signatures.size());
    nlohmann::json row{{"model", path}, {"total_ms", cost.totalMs}, {"ops", graph.opCount()}, {"distinct_signatures", signatures.size()}};
    if (executor) {
      // The sum of op costs next to a real end-to-end run says how far the TASO model is from the truth.
      const double e2eMs = executor->measureLatencyMs(graph, options.warmup, options.runs);
      std::printf("%-40s %10.3f ms  end to end on %s (median of %d runs)\n", "", e2eMs, executor->device().c_str(), options.runs);
      row["e2e_ms"] = e2eMs;
    }
    report["models"].push_back(row);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report["distinct_signatures"] = distinct.size();
  report["seconds"] = seconds;
  if (const auto* measured = dynamic_cast<const MeasuredCostModel*>(model.get())) {
    const MeasurementStats& stats = measured->stats();
    report["device"] = measured->device();
    report["measured"] = stats.measured;
    report["cache_hits"] = stats.cacheHits;
    report["kept_out_of_cache"] = stats.keptOutOfCache;
    report["estimated"] = stats.estimated;
    report["estimated_ops"] = stats.estimatedOps;
    report["measure_seconds"] = stats.measureSeconds;
    report["device_failure"] = stats.deviceFailure;
  }
  if (std::string summary = costModelSummary(*model); !summary.empty()) std::printf("%s\n", summary.c_str());
  std::printf("%zu distinct signatures in %.1f s\n", distinct.size(), seconds);
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

// The tuned kernels measured:cpu uses (the default tuning database's): per target, how many, and
// for how many of the op signatures timed both ways the tuned kernel was the faster.
nlohmann::json listTunedKernels() {
  const std::string path = tune::defaultTuningDatabasePath();
  nlohmann::json report{{"database", path}, {"targets", nlohmann::json::array()}};
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    std::printf("tuning database %s: none (no tuned kernels)\n", path.c_str());
    return report;
  }
  const tune::TuningDatabase database(path);
  std::printf("tuning database %s\n", path.c_str());
  const std::vector<std::string> targets = database.targets();
  if (targets.empty()) std::printf("  (no verified kernels)\n");
  for (const std::string& target : targets) {
    const size_t kernels = database.bestRecords(target).size();
    const std::vector<tune::KernelChoice> choices = database.choices(target);
    const auto faster = static_cast<size_t>(std::count_if(choices.begin(), choices.end(), [](const auto& c) { return c.tunedFaster(); }));
    std::printf("  %-60s %zu tuned kernel%s, faster than oneDNN for %zu of %zu op signatures timed\n", target.c_str(), kernels,
                kernels == 1 ? "" : "s", faster, choices.size());
    report["targets"].push_back({{"target", target}, {"kernels", kernels}, {"signatures_timed", choices.size()}, {"tuned_faster", faster}});
  }
  return report;
}

int runList(const CostsOptions& options) {
  CostCache cache(cachePath(options));
  nlohmann::json report;
  report["cache"] = cache.path();
  report["devices"] = nlohmann::json::array();
  std::printf("cost cache %s\n", cache.path().c_str());
  const std::vector<std::string> devices = cache.devices();
  if (devices.empty()) std::printf("  (empty)\n");
  for (const std::string& device : devices) {
    const size_t count = cache.size(device);
    std::printf("  %-60s %zu signatures\n", device.c_str(), count);
    report["devices"].push_back({{"device", device}, {"signatures", count}});
  }
  report["tuning"] = listTunedKernels();
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

// The roofline of the backend that measured `device`, when that backend is here (a calibration).
std::optional<DeviceProfile> fallbackProfileFor(const std::string& device) {
#ifdef TESSERA_HAVE_PLUGINS
  plugins::PluginHost& host = plugins::PluginHost::global();
  for (const plugins::PluginRecord& record : host.plugins())
    if (record.available && record.device == device) return host.backend(record.name)->fallbackProfile();
#endif
  (void)device;
  return std::nullopt;
}

int runExport(const CostsOptions& options) {
  CostCache cache(cachePath(options));
  std::string device = options.device;
  if (device.empty()) {
    const std::vector<std::string> devices = cache.devices();
    if (devices.size() != 1) {
      std::string known;
      for (const std::string& d : devices) known += "\n  " + d;
      throw errorInFile(cache.path(), devices.empty() ? "holds no measured costs to export"
                                                      : "holds several devices; choose one with --device:" + known);
    }
    device = devices[0];
  }
  CostTable table = costTableFromCache(cache, device);
  if (table.costs.empty()) throw errorInFile(cache.path(), "holds no costs for device '" + device + "' (see `tessera-cli costs list`)");
  table.fallbackProfile = fallbackProfileFor(device);
  writeCostTable(table, options.file);
  std::printf("exported %zu costs of %s to %s\n", table.costs.size(), device.c_str(), options.file.c_str());
  if (!options.json.empty())
    writeJsonReport({{"device", device}, {"signatures", table.costs.size()}, {"file", options.file}}, options.json);
  return 0;
}

int runImport(const CostsOptions& options) {
  const CostTable table = readCostTable(options.file);
  CostCache cache(cachePath(options));
  const size_t count = importCostTable(cache, table);
  std::printf("imported %zu costs of %s into %s (%zu now)\n", count, table.device.c_str(), cache.path().c_str(), cache.size(table.device));
  if (!options.json.empty())
    writeJsonReport({{"device", table.device}, {"signatures", count}, {"cache", cache.path()}}, options.json);
  return 0;
}

int runForget(const CostsOptions& options) {
  CostCache cache(cachePath(options));
  std::optional<std::string> before;
  if (!options.before.empty()) before = options.before;
  const CostCache::Forgotten forgotten = cache.forget(options.device, before);
  const size_t left = cache.size(options.device);
  std::printf("forgot %zu costs of %s%s%s; %zu left in %s\n", forgotten.opCosts, options.device.c_str(),
              before ? (" measured before " + *before).c_str() : "", forgotten.calibration ? ", and its latency calibration" : "", left,
              cache.path().c_str());
  if (!options.json.empty())
    writeJsonReport({{"device", options.device},
                     {"forgotten", forgotten.opCosts},
                     {"calibration_forgotten", forgotten.calibration},
                     {"left", left},
                     {"before", before ? nlohmann::json(*before) : nlohmann::json(nullptr)},
                     {"cache", cache.path()}},
                    options.json);
  return 0;
}

} // namespace

void addCostsCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<CostsOptions>();
  CLI::App* costs = app.add_subcommand("costs", "Measured op costs: profile models, list, export and import cost tables");
  costs->require_subcommand(1);
  costs->fallthrough(); // --cache and --json may also follow the sub-command
  costs->add_option("--cache", options->cache, "Cost cache file (default: $TESSERA_COST_CACHE or ~/.cache/tessera/costs.sqlite)");
  costs->add_option("--json", options->json, "Also write the report as JSON to this file");

  CLI::App* profile = costs->add_subcommand("profile", "Cost every distinct op of the models, measuring what the cache lacks");
  profile->add_option("models", options->models, "ONNX models")->required();
  profile->add_option("--cost", options->cost, "Cost spec (default measured:cpu)");
  profile->add_flag("--e2e", options->e2e, "Also measure each model's end-to-end latency on the backend's device");
  profile->add_option("--warmup", options->warmup, "Untimed runs before --e2e timing (default 10)")->check(CLI::NonNegativeNumber);
  profile->add_option("--runs", options->runs, "Timed --e2e runs; the median is reported (default 20)")->check(CLI::PositiveNumber);
  addModelShapeOptions(profile, options->shapes);
  addLauncherOptions(profile, options->launcher);
  profile->add_option("--signature-list", options->signatureList, "A launched shard's signatures (one key a line): measure only these")
      ->group(""); // internal: what `--launcher` gives each shard
  profile->callback([options, &context] { context.exitCode = runProfile(*options); });

  CLI::App* list = costs->add_subcommand("list", "Devices in the cost cache and their signature counts");
  list->callback([options, &context] { context.exitCode = runList(*options); });

  CLI::App* exportTable = costs->add_subcommand("export", "Write one device's measured costs as a JSON cost table");
  exportTable->add_option("file", options->file, "Cost table to write")->required();
  exportTable->add_option("--device", options->device, "Device key (see `costs list`); needed when the cache holds several");
  exportTable->callback([options, &context] { context.exitCode = runExport(*options); });

  CLI::App* importTable = costs->add_subcommand("import", "Add a JSON cost table to the cost cache");
  importTable->add_option("file", options->file, "Cost table to read")->required();
  importTable->callback([options, &context] { context.exitCode = runImport(*options); });

  CLI::App* forget = costs->add_subcommand("forget", "Remove one device's measured costs (all, or those measured before a date) and its calibration");
  forget->add_option("--device", options->device, "Device key (see `costs list`)")->required();
  forget->add_option("--before", options->before, "Only costs measured before this UTC date or time (2026-11-28, \"2026-11-28 14:00\")");
  forget->callback([options, &context] { context.exitCode = runForget(*options); });

  addCostsAccuracyCommands(*costs, context, options->cache, options->json);
}

} // namespace tessera::cli
