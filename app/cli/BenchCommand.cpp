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
#include "ModelShapeOptions.h"
#include "PublishedResults.h"
#include "SearchSetup.h"

#include "generator/BenchmarkModels.h"
#include "suite/RealSuite.h"
#include "cost/GraphCost.h"
#include "onnx/OnnxImport.h"
#include "run/RunRecording.h"
#include "search/DoNoHarm.h"
#include "search/Strategy.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
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
  std::string cost = "analytic:h200";
  double timeLimitSeconds = 60;
  size_t nodeLimit = 0;
  std::string extract = "dag";
  int multiIterations = SearchOptions{}.multiIterations; // eqsat: TENSAT's k_multi (its run script sweeps 0, 1 and 2)
  uint64_t seed = 1;
  int seeds = 1; // runs per model and strategy, seeds seed..seed+seeds-1
  std::vector<std::string> parameters; // STRATEGY.NAME=VALUE
  std::string json;
  std::string session;
  bool noVerify = false;
  bool e2e = false;   // do no harm as optimize does, on the measured backend's device
  int e2eWarmup = -1; // -1: the backend's default, as optimize's
  int e2eRuns = -1;   // the most interleaved pairs; -1: the backend's default, as optimize's
  ModelShapeOptions shapes; // sizes of the model files' open input axes
};

struct BenchModel {
  std::string name;
  std::string path; // empty for the built-in suite
  Graph graph;
};

std::vector<BenchModel> loadModels(const std::vector<std::string>& specs, BenchmarkSuite suite, const ModelShapeOptions& shapes) {
  std::vector<BenchModel> models;
  if (specs.empty()) {
    for (const std::string& name : benchmarkModelNames()) models.push_back({name, {}, buildBenchmarkModel(name, suite)});
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
      models.push_back({spec, {}, buildBenchmarkModel(spec, suite)});
    }
  }
  std::vector<Graph> graphs = shapes.importEach(files);
  for (size_t i = 0; i < files.size(); ++i) models.push_back({std::filesystem::path(files[i]).stem().string(), files[i], std::move(graphs[i])});
  return models;
}

// The real-model suite (samples/real/suite.json) at its documented shapes; `names` picks some.
std::vector<BenchModel> loadRealSuite(const std::vector<std::string>& names) {
  std::vector<BenchModel> models;
  for (const RealSuiteModel& model : realSuiteModels(true)) {
    const bool named = std::find(names.begin(), names.end(), model.name) != names.end();
    if (names.empty() ? model.controlFlow : !named) continue;
    models.push_back({model.name, model.path, importRealSuiteModel(model)});
  }
  for (const std::string& name : names)
    if (std::none_of(models.begin(), models.end(), [&](const BenchModel& m) { return m.name == name; }))
      realSuiteModel(name); // throws naming the suite's models
  return models;
}

// "mcts.simulations=64" applies to mcts only; "simulations=64" to every strategy.
std::map<std::string, std::string> parametersFor(const std::string& strategy, const std::vector<std::string>& pairs) {
  std::vector<std::string> mine;
  for (const std::string& pair : pairs) {
    size_t dot = pair.find('.'), equals = pair.find('=');
    if (dot != std::string::npos && dot < equals) {
      if (pair.substr(0, dot) == strategy) mine.push_back(pair.substr(dot + 1));
    } else {
      mine.push_back(pair);
    }
  }
  return parseRunParameters(mine);
}

// One model and strategy: one run, or the mean over --seeds runs (with the per-seed speedups).
struct Row {
  std::string model, strategy;
  double originalMs = 0, optimizedMs = 0, speedupPct = 0, seconds = 0;
  size_t enodes = 0;
  int steps = 0;
  std::string stopReason;
  bool verificationRun = false, verified = false;
  double noiseToSignal = 0; // the verification's, the largest over seeds
  // --e2e, as optimize does no harm: the candidate timed against the original in interleaved pairs
  // (medians, paired speedup), and the speedup of what optimize returns (0 when it keeps the original).
  std::optional<double> e2eOriginalMs, e2eCandidateMs, e2eCandidatePct, e2eReturnedPct;
  int keptOriginal = 0; // runs whose candidate was not faster end to end
  std::string e2eMismatch; // why a run's graphs were not timed: the executor computes one wrong
  std::string error;
  std::vector<double> seedSpeedups; // one per seed, in seed order
  double speedupStd = 0;            // sample standard deviation over seeds (0 for one seed)
  double secondsMax = 0;
};

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

double sampleStd(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double m = mean(values);
  double squares = 0;
  for (double v : values) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

// The runs of one model and strategy, one per seed, as one row: means, the speedup's spread, the
// slowest run's time; verified only when every run verified; the first error fails the row.
Row combineSeeds(const std::vector<Row>& runs) {
  Row row{runs.front().model, runs.front().strategy};
  std::vector<double> optimized, seconds, enodes, steps, e2eOriginal, e2eCandidate, e2eCandidatePct, e2eReturnedPct;
  for (const Row& run : runs) {
    if (!run.error.empty() && row.error.empty()) row.error = run.error;
    if (!run.error.empty()) continue;
    row.originalMs = run.originalMs;
    row.seedSpeedups.push_back(run.speedupPct);
    optimized.push_back(run.optimizedMs);
    seconds.push_back(run.seconds);
    enodes.push_back(static_cast<double>(run.enodes));
    steps.push_back(run.steps);
    row.secondsMax = std::max(row.secondsMax, run.seconds);
    if (row.stopReason.find(run.stopReason) == std::string::npos)
      row.stopReason += (row.stopReason.empty() ? "" : ",") + run.stopReason;
    row.verificationRun = row.verificationRun || run.verificationRun;
    row.noiseToSignal = std::max(row.noiseToSignal, run.noiseToSignal);
    if (!run.e2eReturnedPct) continue;
    if (run.e2eOriginalMs) e2eOriginal.push_back(*run.e2eOriginalMs);
    if (run.e2eCandidateMs) e2eCandidate.push_back(*run.e2eCandidateMs);
    e2eCandidatePct.push_back(*run.e2eCandidatePct);
    e2eReturnedPct.push_back(*run.e2eReturnedPct);
    row.keptOriginal += run.keptOriginal;
    if (row.e2eMismatch.empty()) row.e2eMismatch = run.e2eMismatch;
  }
  if (row.seedSpeedups.empty()) return row;
  row.verified = row.verificationRun && std::all_of(runs.begin(), runs.end(), [](const Row& r) { return r.verified; });
  row.speedupPct = mean(row.seedSpeedups);
  row.speedupStd = sampleStd(row.seedSpeedups);
  row.optimizedMs = mean(optimized);
  row.seconds = mean(seconds);
  row.enodes = static_cast<size_t>(std::llround(mean(enodes)));
  row.steps = static_cast<int>(std::lround(mean(steps)));
  if (e2eReturnedPct.empty()) return row;
  if (!e2eOriginal.empty()) row.e2eOriginalMs = mean(e2eOriginal);
  if (!e2eCandidate.empty()) row.e2eCandidateMs = mean(e2eCandidate);
  row.e2eCandidatePct = mean(e2eCandidatePct);
  row.e2eReturnedPct = mean(e2eReturnedPct);
  return row;
}

nlohmann::json toJson(const Row& row) {
  nlohmann::json j{{"model", row.model},
                   {"strategy", row.strategy},
                   {"original_cost_ms", row.originalMs},
                   {"optimized_cost_ms", row.optimizedMs},
                   {"speedup_pct", row.speedupPct},
                   {"optimize_seconds", row.seconds},
                   {"enodes", row.enodes},
                   {"steps", row.steps},
                   {"stop_reason", row.stopReason},
                   {"verified", row.verified},
                   {"verification_run", row.verificationRun},
                   {"noise_to_signal", row.noiseToSignal},
                   {"seeds", row.seedSpeedups.size()},
                   {"speedup_pct_std", row.speedupStd},
                   {"speedup_pct_per_seed", row.seedSpeedups},
                   {"optimize_seconds_max", row.secondsMax}};
  if (row.e2eReturnedPct) {
    // The keys optimize reports: e2e_speedup_pct is the candidate's, measured; what optimize
    // returns is e2e_returned_speedup_pct (the original, 0 %, where the candidate was not faster).
    if (row.e2eOriginalMs) j["e2e_original_ms"] = *row.e2eOriginalMs;
    if (row.e2eCandidateMs) j["e2e_optimized_ms"] = *row.e2eCandidateMs;
    j["e2e_speedup_pct"] = *row.e2eCandidatePct;
    j["e2e_returned_speedup_pct"] = *row.e2eReturnedPct;
    j["kept_original"] = row.keptOriginal;
    if (!row.e2eMismatch.empty()) j["e2e_mismatch"] = row.e2eMismatch;
  }
  if (!row.error.empty()) j["error"] = row.error;
  return j;
}

// "12.34%" for one seed, "12.34±0.56%" (mean ± sample standard deviation) for several.
std::string formatSpeedup(const Row& row, bool seeded) {
  char text[48];
  if (seeded) std::snprintf(text, sizeof text, "%6.2f±%4.2f%%", row.speedupPct, row.speedupStd);
  else std::snprintf(text, sizeof text, "%6.2f%%", row.speedupPct);
  return text;
}

void printTable(const std::vector<BenchModel>& models, const std::vector<std::string>& strategies,
                const std::vector<Row>& rows, bool e2e, bool seeded) {
  const int speedupWidth = seeded ? 13 : 7;
  bool anyPublished = false;
  for (const BenchModel& model : models) anyPublished = anyPublished || pact24Result(model.name);
  int nameWidth = 14;
  for (const BenchModel& model : models) nameWidth = std::max(nameWidth, static_cast<int>(model.name.size()));
  std::printf("\n%-*s %12s", nameWidth, "model", "original ms");
  if (e2e) std::printf(" %10s", "e2e ms");
  for (const std::string& s : strategies) {
    std::printf(" | %-8s %*s %7s %7s", s.c_str(), speedupWidth, "speedup", "time s", "enodes");
    if (e2e) std::printf(" %8s", "e2e");
  }
  if (anyPublished) std::printf(" | PACT'24: %7s %7s %7s", "TENSAT", "OCF/ILP", "ILP/ILP");
  std::printf("\n");
  std::map<std::string, std::pair<double, int>> sums, e2eSums;
  double publishedSums[3] = {0, 0, 0};
  int publishedCount = 0;
  bool anyUnverified = false;
  for (const BenchModel& model : models) {
    double original = 0;
    std::optional<double> e2eOriginal;
    for (const Row& row : rows) {
      if (row.model != model.name) continue;
      original = row.originalMs;
      if (row.e2eOriginalMs) e2eOriginal = row.e2eOriginalMs;
    }
    std::printf("%-*s %12.4f", nameWidth, model.name.c_str(), original);
    if (e2e && e2eOriginal) std::printf(" %10.3f", *e2eOriginal);
    else if (e2e) std::printf(" %10s", "-");
    for (const std::string& s : strategies) {
      auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.model == model.name && r.strategy == s; });
      if (it == rows.end() || !it->error.empty()) {
        std::printf(" | %-8s %*s %7s %7s", "", speedupWidth, "error", "", "");
        if (e2e) std::printf(" %8s", "");
        continue;
      }
      const bool unverified = it->verificationRun && !it->verified;
      std::printf(" | %-8s %*s %7.2f %7zu", unverified ? "UNVERIF" : "", speedupWidth,
                  formatSpeedup(*it, seeded).c_str(), it->seconds, it->enodes);
      if (unverified) {
        anyUnverified = true;
        if (e2e) std::printf(" %7s ", "-");
        continue; // a speedup nobody checked is not counted in the means
      }
      sums[s].first += it->speedupPct;
      ++sums[s].second;
      if (!e2e) continue;
      if (it->e2eReturnedPct) {
        std::printf(" %6.2f%%%s", *it->e2eReturnedPct, it->keptOriginal ? "k" : " ");
        e2eSums[s].first += *it->e2eReturnedPct;
        ++e2eSums[s].second;
      } else {
        std::printf(" %7s ", "-");
      }
    }
    if (const PublishedResult* paper = pact24Result(model.name)) {
      std::printf(" |          %6.2f%% %6.2f%% %6.2f%%", paper->tensatPct, paper->ocfIlpPct, paper->ilpIlpPct);
      publishedSums[0] += paper->tensatPct;
      publishedSums[1] += paper->ocfIlpPct;
      publishedSums[2] += paper->ilpIlpPct;
      ++publishedCount;
    } else if (anyPublished) {
      std::printf(" | %33s", "");
    }
    std::printf("\n");
  }
  std::printf("%-*s %12s", nameWidth, "mean", "");
  if (e2e) std::printf(" %10s", "");
  for (const std::string& s : strategies) {
    std::printf(" | %-8s %*.2f%% %7s %7s", "", speedupWidth - 1, sums[s].second ? sums[s].first / sums[s].second : 0.0, "", "");
    if (e2e) std::printf(" %6.2f%% ", e2eSums[s].second ? e2eSums[s].first / e2eSums[s].second : 0.0);
  }
  if (publishedCount)
    std::printf(" |          %6.2f%% %6.2f%% %6.2f%%", publishedSums[0] / publishedCount, publishedSums[1] / publishedCount,
                publishedSums[2] / publishedCount);
  std::printf("\n");
  if (anyUnverified) std::printf("UNVERIF: the optimised graph did not verify against the original; the means leave it out\n");
  if (seeded) std::printf("speedup: mean ± sample standard deviation over seeds; time s: mean per run\n");
  if (publishedCount)
    std::printf("PACT'24: published speedups on TENSAT's graphs (mean of 5 seeds, node limit 2000, TASO's cuDNN costs on "
                "their GPU); compare with samples/tensat models\n");
  if (e2e) std::printf("speedup: by the cost model; e2e: measured end to end, what optimize returns (the candidate, or the original)\n");
}

// One run of one strategy on one model with one seed; errors are kept in the row.
Row runOnce(const BenchOptions& options, const BenchModel& model, const std::string& strategyName, uint64_t seed,
            const ActiveRules& rules, CostModel& cost, GraphExecutor* executor, const EndToEndOptions& e2e) {
  Row row{model.name, strategyName};
  std::unique_ptr<RunRecording> recording;
  try {
    SearchOptions search;
    search.seed = seed;
    search.timeLimitSeconds = options.timeLimitSeconds;
    search.extractMethod = options.extract;
    search.multiIterations = options.multiIterations;
    if (strategyName == "eqsat" || strategyName == "mcts") search.nodeLimit = options.nodeLimit;
    search.parameters = parametersFor(strategyName, options.parameters);
    std::unique_ptr<Strategy> strategy = makeStrategy(strategyName);
    strategy->validate(search);
    Control control;
    EventStream events;
    if (!options.session.empty()) {
      recording = std::make_unique<RunRecording>(options.session, recordedModelOf(model.path.empty() ? model.name + ".onnx" : model.path),
                                                 model.graph);
      recording->begin({strategyName, cost.spec(), search, !options.noVerify});
      events.attach(&recording->sink());
    }
    SearchResult result = strategy->run({model.graph, rules.list, cost, control, events, search});
    if (!options.noVerify) verifySearchResult(model.graph, result, 1, seed);
    if (recording) recording->finish(result, cost);
    row.originalMs = result.originalCostMs;
    row.optimizedMs = result.bestCostMs;
    row.speedupPct = result.speedupPct;
    row.seconds = result.searchSeconds + result.extractionSeconds;
    row.enodes = result.enodes;
    row.steps = result.steps;
    row.stopReason = result.stopReason;
    row.verificationRun = result.verificationRun;
    row.verified = result.verified;
    row.noiseToSignal = result.noiseToSignal;
    if (executor) {
      const DoNoHarmOutcome outcome = keepOriginalUnlessFaster(model.graph, result, *executor, e2e);
      row.keptOriginal = outcome.keptOriginal;
      row.e2eMismatch = outcome.executorMismatch;
      if (!row.e2eMismatch.empty()) reportProgress("  " + model.name + " " + strategyName + ": not timed, " + row.e2eMismatch);
      row.e2eCandidatePct = outcome.comparison ? outcome.comparison->speedup.pct : 0.0;
      row.e2eReturnedPct = outcome.returnedSpeedupPct();
      if (outcome.comparison) { // none when the search returned the original: nothing to time
        row.e2eOriginalMs = outcome.comparison->originalMs;
        row.e2eCandidateMs = outcome.comparison->candidateMs;
      }
    }
    reportProgress("  " + model.name + " " + strategyName + ": " + std::to_string(row.speedupPct) + " % in " +
                   std::to_string(row.seconds) + " s (" + row.stopReason + ")");
  } catch (const Error& e) {
    row.error = e.what();
    if (recording) recording->finishFailed(row.error);
    reportProgress("  " + model.name + " " + strategyName + " failed: " + row.error);
  }
  return row;
}

int runBench(const BenchOptions& options) {
  for (const std::string& s : options.strategies) makeStrategy(s); // unknown names fail before any work
  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  std::unique_ptr<GraphExecutor> executor;
  EndToEndOptions e2e;
  if (options.e2e) {
    const std::string backend = requireMeasuredBackend(options.cost, "--e2e");
    executor = makeCliExecutor(backend);
    e2e = endToEndOptionsFor(backend, options.e2eWarmup, options.e2eRuns);
  }
  if (options.suite == "real" && !(options.shapes.inputShapes.empty() && options.shapes.dims.empty()))
    throw Error("--input-shape and --dim do not apply to --suite real: its models run at the shapes samples/real/suite.json documents");
  std::vector<BenchModel> models = options.suite == "real" ? loadRealSuite(options.models)
                                                           : loadModels(options.models, parseBenchmarkSuite(options.suite), options.shapes);
  ActiveRules rules = loadActiveRules({});

  std::vector<Row> rows;
  const size_t total = models.size() * options.strategies.size() * static_cast<size_t>(options.seeds);
  size_t done = 0;
  bool failed = false;
  for (const BenchModel& model : models) {
    for (const std::string& strategyName : options.strategies) {
      std::vector<Row> runs;
      for (int i = 0; i < options.seeds; ++i) {
        const uint64_t seed = options.seed + static_cast<uint64_t>(i);
        reportProgress("[" + std::to_string(++done) + "/" + std::to_string(total) + "] " + model.name + " " +
                       strategyName + (options.seeds > 1 ? " seed " + std::to_string(seed) : ""));
        Row run = runOnce(options, model, strategyName, seed, rules, *cost, executor.get(), e2e);
        if (!run.error.empty() || (run.verificationRun && !run.verified)) failed = true;
        runs.push_back(std::move(run));
      }
      rows.push_back(combineSeeds(runs));
    }
  }
  std::printf("cost %s, time limit %.0f s, node limit %s, extraction %s, k_multi %d, seed %llu", cost->spec().c_str(),
              options.timeLimitSeconds, options.nodeLimit ? std::to_string(options.nodeLimit).c_str() : "strategy default",
              options.extract.c_str(), options.multiIterations, static_cast<unsigned long long>(options.seed));
  if (options.seeds > 1) std::printf("..%llu (%d seeds)", static_cast<unsigned long long>(options.seed + options.seeds - 1), options.seeds);
  for (const std::string& parameter : options.parameters) std::printf(", %s", parameter.c_str());
  std::printf("\n");
  printTable(models, options.strategies, rows, options.e2e, options.seeds > 1);
  if (executor)
    std::printf("e2e: what optimize returns (k: the candidate was not faster, the original kept), timed on %s: %d warm-up runs, "
                "then %d to %d interleaved pairs (speedup = 1 - median paired ratio)\n",
                executor->device().c_str(), e2e.warmup, e2e.minPairs, e2e.maxPairs);
  if (std::string summary = costModelSummary(*cost); !summary.empty()) std::printf("%s\n", summary.c_str());
  if (!options.json.empty()) {
    nlohmann::json report = nlohmann::json::array();
    for (const Row& row : rows) report.push_back(toJson(row));
    writeJsonReport(report, options.json);
  }
  return failed ? 1 : 0;
}

} // namespace

void addBenchCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand("bench", "Run every strategy on every model with one cost model and compare");
  command->add_option("--models", options->models,
                      "A directory of .onnx files, model files, or built-in model names (default: the nine built-in benchmark models)");
  command->add_option("--suite", options->suite,
                      "Built-in suite for model names: corrected (samples/), tensat (TENSAT's graphs, samples/tensat/) or real "
                      "(exported models as packages ship them, at their documented shapes: samples/real/; --models then names some of them)")
      ->check(CLI::IsMember({"corrected", "tensat", "real"}))
      ->capture_default_str();
  command->add_option("--strategies", options->strategies, "Strategies to run (comma-separated)")
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--cost", options->cost, "Cost model for every run")->capture_default_str();
  command->add_option("--time-limit", options->timeLimitSeconds, "Search time limit per run in seconds")->capture_default_str();
  command->add_option("--node-limit", options->nodeLimit, "E-node limit for eqsat and mcts (0: each strategy's default)")
      ->capture_default_str();
  command->add_option("--extract", options->extract, "Final extraction of e-graph strategies")
      ->check(CLI::IsMember({"tree", "ocf", "dag", "ilp"}))
      ->capture_default_str();
  command->add_option("--k-multi", options->multiIterations, "Iterations that apply multi-pattern rules (eqsat)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of every run (the first seed with --seeds)")->capture_default_str();
  command->add_option("--seeds", options->seeds, "Runs per model and strategy, with seeds seed, seed+1, ...: mean and spread")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  command->add_option("--param", options->parameters, "Strategy parameter [STRATEGY.]NAME=VALUE (repeatable)");
  command->add_option("--session", options->session, "Record every run in this session file");
  addModelShapeOptions(command, options->shapes);
  command->add_option("--json", options->json, "Write the rows as JSON");
  command->add_flag("--no-verify", options->noVerify, "Skip checking each result against its model");
  command->add_flag("--e2e", options->e2e,
                    "Do no harm as optimize does: time each candidate against its original end to end on the measured "
                    "backend's device and report what optimize would return");
  command->add_option("--e2e-warmup", options->e2eWarmup, "Untimed runs of each graph before --e2e timing (default: cuda 100, cpu 3)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--e2e-runs", options->e2eRuns,
                      "Most interleaved pairs of --e2e runs (default: cuda 200, cpu 30; fewer once the interval is decided)")
      ->check(CLI::Range(2, 100000));
  command->callback([options, &context] { context.exitCode = runBench(*options); });
}

} // namespace tessera::cli
