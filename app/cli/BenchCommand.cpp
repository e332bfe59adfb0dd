// `tessera-cli bench [--models DIR|FILES] [--strategies LIST] [--cost SPEC] [--seeds N] ...`:
// every strategy on every model with the same cost model, one table (original cost, each
// strategy's speedup, time and e-nodes, PACT'24's published speedups beside the paper suite's
// models) and, with --json, the same as a list of rows. With --seeds N each cell is the mean over
// seeds seed..seed+N-1 with its spread. With --e2e and a measured cost spec, each run does no harm
// as optimize does (its candidate timed against the original end to end, the original kept unless
// the candidate is faster), and the table shows what optimize returns.
#include "CommandContext.h"
#include "Commands.h"
#include "CostModelFactory.h"
#include "EndToEndReport.h"
#include "LauncherOptions.h"
#include "ModelLabel.h"
#include "ModelShapeOptions.h"
#include "PublishedResults.h"
#include "BenchCell.h"
#include "BenchTable.h"

#include "generator/BenchmarkModels.h"
#include "suite/RealSuite.h"
#include "cost/GraphCost.h"
#include "onnx/OnnxImport.h"
#include "run/RunChoices.h"
#include "run/SharedCostModels.h"
#include "search/DoNoHarm.h"
#include "search/Strategy.h"
#include "session/Session.h"
#include "session/SessionMerge.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace tessera::cli {

namespace {

struct BenchOptions {
  std::vector<std::string> models; // a directory, ONNX files, or names of the built-in suite
  std::string suite = "corrected"; // the built-in suite named models come from, or "real"
  std::vector<std::string> strategies{"greedy", "taso", "eqsat", "mcts"};
  BenchSettings run; // every cell's settings; run.search.seed is the first seed
  int seeds = 1;     // runs per model and strategy, seeds seed..seed+seeds-1
  std::string json;
  std::string markdown; // the table as Markdown, with the command, the device and the date
  bool noVerify = false;
  ModelShapeOptions shapes; // sizes of the model files' open input axes
  LauncherOptions launcher; // cells as shards
  bool asShard = false;     // this process is one launched cell: its row is its result, even a failed one
};

std::vector<BenchModel> loadModels(const std::vector<std::string>& specs, BenchmarkSuite suite, const ModelShapeOptions& shapes) {
  std::vector<BenchModel> models;
  if (specs.empty()) {
    for (const std::string& name : benchmarkModelNames())
      models.push_back({name, {}, std::string(benchmarkSuiteName(suite)), buildBenchmarkModel(name, suite)});
    return models;
  }
  std::vector<std::string> files;
  for (const std::string& spec : specs) {
    if (std::filesystem::is_directory(spec)) {
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::directory_iterator(spec))
        if (entry.path().extension() == ".onnx") found.push_back(entry.path().string());
      if (found.empty()) throw Error(spec + ": no .onnx models in this directory");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(spec)) {
      files.push_back(spec);
    } else {
      std::vector<std::string> names = benchmarkModelNames();
      if (std::find(names.begin(), names.end(), spec) == names.end())
        throw Error(spec + ": no such file, directory or built-in model");
      models.push_back({spec, {}, std::string(benchmarkSuiteName(suite)), buildBenchmarkModel(spec, suite)});
    }
  }
  std::vector<Graph> graphs = shapes.importEach(files);
  for (size_t i = 0; i < files.size(); ++i) models.push_back({modelLabel(files[i], files), files[i], {}, std::move(graphs[i])});
  return models;
}

// The real-model suite (samples/real/suite.json) at its documented shapes; `names` picks some.
std::vector<BenchModel> loadRealSuite(const std::vector<std::string>& names) {
  std::vector<BenchModel> models;
  for (const RealSuiteModel& model : realSuiteModels(true)) {
    const bool named = std::find(names.begin(), names.end(), model.name) != names.end();
    if (names.empty() ? model.controlFlow : !named) continue;
    models.push_back({model.name, model.path, {}, importRealSuiteModel(model)});
  }
  for (const std::string& name : names)
    if (std::none_of(models.begin(), models.end(), [&](const BenchModel& m) { return m.name == name; }))
      realSuiteModel(name); // throws naming the suite's models
  return models;
}

// What the table was run with, one line each: the settings, the end-to-end protocol (with --e2e),
// and the cost model's account of what it measured and estimated.
std::vector<std::string> describeRun(const BenchOptions& options, const CostModel& cost, const std::string& e2eBackend) {
  const BenchSettings& settings = options.run;
  const SearchOptions& search = settings.search;
  const auto firstSeed = static_cast<unsigned long long>(search.seed);
  char text[512];
  std::snprintf(text, sizeof text, "cost %s, time limit %.0f s, node limit %s, extraction %s, k_multi %d, seed %llu",
                costSpecHeadline(cost.spec()).c_str(), search.timeLimitSeconds,
                search.nodeLimit ? std::to_string(search.nodeLimit).c_str() : "strategy default", search.extractMethod.c_str(),
                search.multiIterations, firstSeed);
  std::string settingsLine = text;
  if (options.seeds > 1)
    settingsLine += ".." + std::to_string(firstSeed + static_cast<unsigned long long>(options.seeds - 1)) + " (" +
                    std::to_string(options.seeds) + " seeds)";
  for (const std::string& parameter : settings.parameters) settingsLine += ", " + parameter;
  std::vector<std::string> lines{settingsLine};
  if (settings.endToEnd) {
    const EndToEndOptions e2e = endToEndOptionsFor(e2eBackend, settings.endToEndSettings);
    std::snprintf(text, sizeof text,
                  "e2e: what optimize returns, timed on %s: %d warm-up runs, then %d to %d interleaved pairs (speedup = 1 - median "
                  "paired ratio)",
                  e2eBackend.c_str(), e2e.warmup, e2e.minPairs, e2e.maxPairs);
    lines.push_back(text);
  }
  if (std::string summary = costModelSummary(cost); !summary.empty()) lines.push_back(summary);
  return lines;
}

// The table as the README and the guide show it, with what regenerates it: the command, the date,
// the device the costs (and --e2e timings) come from, and the run's settings.
void writeMarkdown(const std::string& path, const std::string& commandLine, const BenchTable& table,
                   const std::vector<std::string>& about, const CostModel& cost) {
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  const std::string device = cost.deviceCosts().device;
  std::string text = "<!-- written by `tessera-cli bench --markdown`: run the command below again to regenerate -->\n\n";
  text += "```sh\n" + commandLine + "\n```\n\n";
  text += std::string(date) + " · " + (device.empty() ? "predicted, not measured" : "device `" + device + "`") + " · " +
          about.front() + "\n\n";
  text += benchTableMarkdown(table);
  for (size_t i = 1; i < about.size(); ++i) text += "- " + about[i] + "\n";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw errorInFile(path, "cannot open for writing");
  out << text;
  if (!out) throw errorInFile(path, "write failed");
}

// `bench --launcher`: each (model, strategy, seed) cell a shard running `tessera-cli bench` on that
// cell alone with the same settings, its one row read back; a cell whose shard failed for good is
// a row with its error. Rows come back in the order the in-process loop makes them. With
// --session, each shard records its cell in a session of its own, merged into --session afterwards.
// A launched cell's own session, beside its row.
std::string shardSession(const std::string& shardOutput) { return shardOutput.substr(0, shardOutput.size() - 5) + ".tsession"; }

std::vector<std::vector<BenchRow>> runCellsOnShards(BenchOptions& options, const std::vector<BenchModel>& models) {
  const BenchSettings& settings = options.run;
  const SearchOptions& search = settings.search;
  const std::string workDir = std::filesystem::absolute(launchWorkDir(options.launcher, "bench")).string();
  std::vector<launch::Shard> shards;
  for (size_t m = 0; m < models.size(); ++m)
    for (const std::string& strategy : options.strategies)
      for (int i = 0; i < options.seeds; ++i) {
        const std::string seed = std::to_string(search.seed + static_cast<uint64_t>(i));
        launch::Shard shard;
        shard.name = models[m].name + " " + strategy + " seed " + seed;
        shard.output = workDir + "/bench-" + std::to_string(m) + "-" + strategy + "-" + seed + ".json";
        const std::string modelSpec = models[m].path.empty() ? models[m].name : std::filesystem::absolute(models[m].path).string();
        shard.argv = {selfExecutable(), "bench", "--as-shard", "--models", modelSpec, "--suite", options.suite,
                      "--strategies", strategy, "--seed", seed, "--seeds", "1", "--cost", settings.cost,
                      "--time-limit", std::to_string(search.timeLimitSeconds), "--node-limit", std::to_string(search.nodeLimit),
                      "--iter-limit", std::to_string(search.iterationLimit), "--extract", search.extractMethod,
                      "--k-multi", std::to_string(search.multiIterations), "--verify-trials", std::to_string(settings.verifyTrials),
                      "--json", launch::kOutputPlaceholder};
        for (const std::string& parameter : settings.parameters) shard.argv.insert(shard.argv.end(), {"--param", parameter});
        for (const std::string& shape : options.shapes.inputShapes) shard.argv.insert(shard.argv.end(), {"--input-shape", shape});
        for (const std::string& dim : options.shapes.dims) shard.argv.insert(shard.argv.end(), {"--dim", dim});
        if (options.noVerify) shard.argv.push_back("--no-verify");
        if (!settings.session.empty()) shard.argv.insert(shard.argv.end(), {"--session", shardSession(shard.output)});
        if (settings.endToEnd) shard.argv.push_back("--e2e");
        if (settings.endToEndSettings.warmup >= 0)
          shard.argv.insert(shard.argv.end(), {"--e2e-warmup", std::to_string(settings.endToEndSettings.warmup)});
        if (settings.endToEndSettings.maxPairs >= 0)
          shard.argv.insert(shard.argv.end(), {"--e2e-runs", std::to_string(settings.endToEndSettings.maxPairs)});
        shards.push_back(std::move(shard));
      }
  std::vector<std::string> sbatchArgs;
  if (settings.cost == "measured:cuda") sbatchArgs.push_back("--gres=gpu:1"); // each cell times on a GPU of its own
  const launch::LaunchResult result = runShards(options.launcher, shards, sbatchArgs);
  if (!settings.session.empty()) {
    Session session = Session::openOrCreate(settings.session);
    size_t merged = 0;
    for (size_t i = 0; i < shards.size(); ++i)
      if (result.shards[i].state == launch::ShardState::Done) merged += mergeSession(session, shardSession(shards[i].output));
    reportProgress("bench: merged " + std::to_string(merged) + " run(s) from the shards' sessions into " + settings.session);
  }
  std::vector<std::vector<BenchRow>> cells;
  size_t next = 0;
  for (const BenchModel& model : models)
    for (const std::string& strategy : options.strategies) {
      std::vector<BenchRow>& runs = cells.emplace_back();
      for (int i = 0; i < options.seeds; ++i, ++next) {
        if (result.shards[next].state != launch::ShardState::Done) {
          BenchRow failed{model.name, strategy};
          failed.error = "its shard did not finish: " + result.shards[next].note;
          runs.push_back(std::move(failed));
          continue;
        }
        try {
          const nlohmann::json rows = nlohmann::json::parse(std::ifstream(shards[next].output));
          runs.push_back(benchRowFromJson(rows.at(0)));
          runs.back().model = model.name; // the shard labels its one model by its stem alone
        } catch (const nlohmann::json::exception& e) {
          throw errorInFile(shards[next].output, std::string("not a bench cell's row: ") + e.what());
        }
      }
    }
  return cells;
}

int runBench(BenchOptions options, const std::string& commandLine) {
  for (const std::string& s : options.strategies) makeStrategy(s); // unknown names fail before any work
  BenchSettings& settings = options.run;
  settings.verify = !options.noVerify;
  // A launched cell starts its session afresh: a failed attempt's runs must not reach the merge.
  if (options.asShard && !settings.session.empty())
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(settings.session + suffix);
  const RunBackends backends = cliRunBackends();
  std::shared_ptr<CostModel> cost = backends.costs->model(settings.cost); // the one every cell prices with
  // Shards and sessions name what "auto" resolved to. Its fallback note is said here, once: the cells
  // then ask for that spec, which needs none (a named spec's note comes with each cell's run).
  if (settings.cost == kAutoCostSpec) {
    if (std::string note = backends.costs->fallbackNote(settings.cost); !note.empty()) backends.warn(note);
    settings.cost = cost->spec();
  }
  std::string e2eBackend;
  if (settings.endToEnd) e2eBackend = requireMeasuredBackend(settings.cost, "--e2e");
  if (options.suite == "real" && !(options.shapes.inputShapes.empty() && options.shapes.dims.empty()))
    throw Error("--input-shape and --dim do not apply to --suite real: its models run at the shapes samples/real/suite.json documents");
  std::vector<BenchModel> models = options.suite == "real" ? loadRealSuite(options.models)
                                                           : loadModels(options.models, parseBenchmarkSuite(options.suite), options.shapes);

  std::vector<BenchRow> rows;
  const size_t total = models.size() * options.strategies.size() * static_cast<size_t>(options.seeds);
  const uint64_t firstSeed = settings.search.seed;
  size_t done = 0;
  bool failed = false;
  // The cells run in this process, or as launched shards.
  std::vector<std::vector<BenchRow>> cells;
  if (options.launcher.enabled()) cells = runCellsOnShards(options, models);
  for (const BenchModel& model : models) {
    if (options.launcher.enabled()) break;
    for (const std::string& strategyName : options.strategies) {
      std::vector<BenchRow> runs;
      for (int i = 0; i < options.seeds; ++i) {
        const uint64_t seed = firstSeed + static_cast<uint64_t>(i);
        reportProgress("[" + std::to_string(++done) + "/" + std::to_string(total) + "] " + model.name + " " +
                       strategyName + (options.seeds > 1 ? " seed " + std::to_string(seed) : ""));
        runs.push_back(runBenchCell(settings, model, strategyName, seed, backends));
      }
      cells.push_back(std::move(runs));
    }
  }
  for (const std::vector<BenchRow>& runs : cells) {
    for (const BenchRow& run : runs) failed = failed || !run.error.empty() || (run.verificationRun && !run.verified);
    rows.push_back(combineSeeds(runs));
  }
  const std::vector<std::string> about = describeRun(options, *cost, e2eBackend);
  std::printf("%s\n", about.front().c_str());
  const BenchTable table = benchTable(models, options.strategies, rows, settings.endToEnd, options.seeds > 1);
  std::fputs(benchTableText(table).c_str(), stdout);
  for (size_t i = 1; i < about.size(); ++i) std::printf("%s\n", about[i].c_str());
  if (!options.markdown.empty()) writeMarkdown(options.markdown, commandLine, table, about, *cost);
  if (!options.json.empty()) {
    nlohmann::json report = nlohmann::json::array();
    for (const BenchRow& row : rows) report.push_back(benchRowJson(row));
    writeJsonReport(report, options.json);
  }
  return failed && !options.asShard ? 1 : 0;
}

} // namespace

void addBenchCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<BenchOptions>();
  BenchSettings& run = options->run;
  CLI::App* command = app.add_subcommand("bench", "Run every strategy on every model with one cost model and compare");
  command->add_option("--models", options->models,
                      "A directory of .onnx files, model files, or built-in model names (default: the nine built-in benchmark models)");
  command->add_option("--suite", options->suite,
                      "Built-in suite for model names: corrected (samples/), tensat (TENSAT's graphs, samples/tensat/) or real "
                      "(exported models as packages ship them, at their documented shapes: samples/real/; --models then names some of them)")
      ->check(CLI::IsMember({"corrected", "tensat", "real"}))
      ->capture_default_str();
  command->add_option("--strategies", options->strategies, "Strategies to run (comma-separated): " + listText(strategyNames(), "and"))
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--cost", run.cost, "Cost model for every run: " + costSpecHelp());
  command->add_option("--time-limit", run.search.timeLimitSeconds, "Search time limit per run in seconds")->capture_default_str();
  command->add_option("--node-limit", run.search.nodeLimit,
                      "E-node limit (ops for taso/greedy); 0: each strategy's default (eqsat 50000, mcts 10000, taso 2x ops)")
      ->capture_default_str();
  command->add_option("--iter-limit", run.search.iterationLimit, "Iteration limit (eqsat)")->capture_default_str();
  command->add_option("--extract", run.search.extractMethod, "Final extraction of e-graph strategies: " + listText(extractionMethods()))
      ->check(CLI::IsMember(extractionMethods()))
      ->capture_default_str();
  command->add_option("--k-multi", run.search.multiIterations, "Iterations that apply multi-pattern rules (eqsat)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--seed", run.search.seed, "Seed of every run (the first seed with --seeds)")->capture_default_str();
  command->add_option("--seeds", options->seeds, "Runs per model and strategy, with seeds seed, seed+1, ...: mean and spread")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  command->add_option("--param", run.parameters, "Strategy parameter [STRATEGY.]NAME=VALUE (repeatable)");
  command->add_option("--session", run.session, "Record every run in this session file");
  addModelShapeOptions(command, options->shapes);
  command->add_option("--json", options->json, "Write the rows as JSON");
  command->add_option("--markdown", options->markdown,
                      "Write the table as Markdown, with the command, the date and the device, as the README and the guide show it");
  command->add_option("--verify-trials", run.verifyTrials, "Random input sets for each verification")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_flag("--no-verify", options->noVerify, "Skip checking each result against its model");
  command->add_flag("--e2e", run.endToEnd,
                    "Do no harm as optimize does: time each candidate against its original end to end on the measured "
                    "backend's device and report what optimize would return");
  addEndToEndOptions(command, run.endToEndSettings);
  addLauncherOptions(command, options->launcher);
  command->add_flag("--as-shard", options->asShard, "A launched cell: exit 0 whenever its row is written")->group(""); // internal
  command->callback([options, &context] { context.exitCode = runBench(*options, context.commandLine); });
}

} // namespace tessera::cli
