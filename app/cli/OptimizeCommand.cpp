// `tessera-cli optimize MODEL --strategy {greedy,taso,eqsat,mcts} ...`: rewrites a model into a
// faster equivalent; with a measured cost model, times it against the original end to end and
// keeps the original unless it is faster (do no harm); writes it and verifies what it wrote against
// the original; reports what happened and, with --session, records the run (parameters, events,
// candidates with provenance) in a session file.
#include "CommandContext.h"
#include "Commands.h"
#include "CostModelFactory.h"
#include "EndToEndReport.h"
#include "ModelShapeOptions.h"
#include "SearchSetup.h"

#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "run/CostResolution.h"
#include "run/RunRecording.h"
#include "search/DoNoHarm.h"
#include "search/FreeDimensionExport.h"
#include "search/Strategy.h"
#include "search/VerifiedExport.h"
#include "support/Error.h"
#include "support/ReadFile.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace tessera::cli {

namespace {

struct OptimizeCommandOptions {
  std::string model;
  std::string strategy = "eqsat";
  std::string cost = "analytic:h200";
  std::string out;
  std::string json;
  std::string session;
  bool noVerify = false;
  int verifyTrials = 1;
  bool noE2e = false;  // skip the end-to-end check of a measured cost model
  int e2eWarmup = -1;  // -1: the backend's default
  int e2eRuns = -1;    // the most interleaved pairs; -1: the backend's default
  RuleChoice rules;
  SearchOptions search;
  std::vector<std::string> parameters; // NAME=VALUE
  std::string egraphJson;
  ModelShapeOptions shapes;
};

// The end-to-end check of a measured cost model: what it found, or why it did not run.
struct EndToEndCheck {
  std::optional<DoNoHarmOutcome> outcome;
  std::string skipped; // why there was no check ("" when it ran)
};

void printEndToEnd(const EndToEndCheck& check) {
  if (!check.skipped.empty()) {
    std::printf("end to end      not checked: %s\n", check.skipped.c_str());
    return;
  }
  if (!check.outcome) return;
  const DoNoHarmOutcome& outcome = *check.outcome;
  if (!outcome.executorMismatch.empty()) {
    std::printf("end to end      not timed: %s; returning the ORIGINAL model\n", outcome.executorMismatch.c_str());
    return;
  }
  if (!outcome.comparison) {
    std::printf("end to end      not timed: the search returned the original graph\n");
    return;
  }
  const EndToEndComparison& e2e = *outcome.comparison;
  std::printf("end to end      %s on %s, %.3f ms -> %.3f ms (medians)\n", e2e.describeSpeedup().c_str(), e2e.device.c_str(),
              e2e.originalMs, e2e.candidateMs);
  if (outcome.screening)
    std::printf("                (a first comparison found %s; the one above, on fresh pairs, decides)\n",
                outcome.screening->describeSpeedup().c_str());
  if (outcome.keptOriginal)
    std::printf("                the candidate is not faster (predicted %.2f %%): returning the ORIGINAL model\n",
                outcome.candidateSpeedupPct);
  std::printf("                %s\n", e2e.method().c_str());
}

void printSummary(const OptimizeCommandOptions& options, const SearchResult& result, const EndToEndCheck& e2e) {
  std::printf("strategy        %s (seed %llu)\n", options.strategy.c_str(), static_cast<unsigned long long>(options.search.seed));
  std::printf("original cost   %.4f ms\n", result.originalCostMs);
  std::printf("optimised cost  %.4f ms\n", result.bestCostMs);
  std::printf("speedup         %.2f %%\n", result.speedupPct);
  std::printf("time            %.2f s search + %.2f s extraction", result.searchSeconds, result.extractionSeconds);
  if (result.measuringSeconds > 0) std::printf(" (%.2f s of the search measuring op costs, not counted by the time limit)", result.measuringSeconds);
  std::printf("\n");
  std::printf("search          %d steps, %zu e-nodes, %zu e-classes, stopped: %s\n", result.steps, result.enodes,
              result.eclasses, result.stopReason.c_str());
  printEndToEnd(e2e);
  const std::string what = options.out.empty() ? "" : " (" + options.out + " read back)";
  std::printf("verified        %s\n", !result.verificationRun ? "skipped (--no-verify)"
                                      : result.verified     ? ("yes" + what).c_str()
                                                            : ("NO" + what + ": " + result.verifyProblem).c_str());
  for (const auto& [name, count] : result.rulesApplied) std::printf("  %-28s %zu\n", name.c_str(), count);
}

nlohmann::json jsonReport(const OptimizeCommandOptions& options, const CostModel& cost, const SearchResult& result,
                          const Graph& original, size_t rulesUsed, const EndToEndCheck& e2e) {
  nlohmann::json report{{"model", options.model},
          {"strategy", options.strategy},
          {"seed", options.search.seed},
          {"cost", cost.spec()},
          {"extract", options.search.extractMethod},
          {"original_cost_ms", result.originalCostMs},
          {"optimized_cost_ms", result.bestCostMs},
          {"speedup_pct", result.speedupPct},
          {"optimize_seconds", result.searchSeconds + result.extractionSeconds},
          {"search_seconds", result.searchSeconds},
          {"measuring_seconds", result.measuringSeconds},
          {"extraction_seconds", result.extractionSeconds},
          {"stop_reason", result.stopReason},
          {"steps", result.steps},
          {"enodes", result.enodes},
          {"enodes_filtered", result.enodesFiltered},
          {"enodes_live", result.enodes - result.enodesFiltered},
          {"eclasses", result.eclasses},
          {"candidates", result.candidates.size()},
          {"verified", result.verified},
          {"verification_run", result.verificationRun},
          {"max_abs_err", result.maxAbsError},
          {"verify_metric", result.verifyMetric},
          {"noise_to_signal", result.noiseToSignal},
          {"rules_applied", result.rulesApplied},
          {"rules_used", rulesUsed},
          {"pinned", options.rules.pins},
          {"vetoed", options.rules.vetoes},
          {"ops_before", original.opCount()},
          {"ops_after", result.best.opCount()}};
  if (result.verificationRun && !options.out.empty()) report["verified_file"] = options.out;
  if (!e2e.skipped.empty()) report["e2e_skipped"] = e2e.skipped;
  if (!e2e.outcome) return report;
  report["kept_original"] = e2e.outcome->keptOriginal;
  if (!e2e.outcome->executorMismatch.empty()) report["e2e_mismatch"] = e2e.outcome->executorMismatch;
  report["candidate_cost_ms"] = e2e.outcome->candidateCostMs;
  report["candidate_speedup_pct"] = e2e.outcome->candidateSpeedupPct;
  report["e2e_returned_speedup_pct"] = e2e.outcome->returnedSpeedupPct();
  if (e2e.outcome->comparison) addEndToEndKeys(*e2e.outcome->comparison, report);
  if (const auto& first = e2e.outcome->screening) {
    report["e2e_screening_speedup_pct"] = first->speedup.pct;
    report["e2e_screening_ci_pct"] = {first->speedup.lowPct, first->speedup.highPct};
  }
  return report;
}

// Do no harm with a measured cost model: the device, not the prediction, decides whether the
// candidate replaces the original. A backend that cannot run the graphs leaves the candidate
// as the search returned it, and says why.
EndToEndCheck checkEndToEnd(const OptimizeCommandOptions& options, const Graph& original, SearchResult& result) {
  EndToEndCheck check;
  std::optional<std::string> backend = measuredBackend(options.cost);
  if (!backend || options.noE2e) return check;
  try {
    std::unique_ptr<GraphExecutor> executor = makeCliExecutor(*backend);
    reportProgress("timing the candidate against the original end to end on " + executor->device());
    check.outcome = keepOriginalUnlessFaster(original, result, *executor, endToEndOptionsFor(*backend, options.e2eWarmup, options.e2eRuns));
  } catch (const Error& e) {
    check.skipped = e.what();
    reportProgress(std::string("end-to-end check skipped: ") + e.what());
  }
  return check;
}

// Writes the result to --out keeping the model's free dimensions open where the optimised graph
// allows (search/FreeDimensionExport.h); the outcome per dimension is returned for the report.
std::vector<FreeDimensionOutcome> writeResult(const OptimizeCommandOptions& options, const Graph& original, SearchResult& result) {
  std::filesystem::path parent = std::filesystem::path(options.out).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  FreeDimensionExport file;
  if (!original.info.freeAxes.empty()) {
    reportProgress("checking which free dimensions the optimised graph leaves open");
    FreeDimensionCheck check;
    check.seed = options.search.seed;
    file = exportKeepingFreeDimensions(result.best, original, readFileBytes(options.model, uintmax_t{1} << 30), options.model, check);
    for (const FreeDimensionOutcome& dim : file.dims)
      if (!dim.open) reportProgress("warning: " + dim.label + " pinned at " + std::to_string(dim.size) + " in " + options.out + ": " + dim.detail);
  }
  ModelWriter write;
  if (!file.dims.empty())
    write = [&file](const Graph&, const std::string& path) { onnx_io::writeModelFile(file.bytes, path); };
  if (options.noVerify) {
    if (write)
      write(result.best, options.out);
    else
      onnx_io::exportOnnxFile(result.best, options.out);
  } else {
    writeVerifiedResult(original, result, options.out, options.verifyTrials, options.search.seed, write);
  }
  return file.dims;
}

void printFreeDimensions(const std::vector<FreeDimensionOutcome>& dims) {
  for (const FreeDimensionOutcome& dim : dims)
    std::printf("free dim        %s = %lld %s: %s\n", dim.label.c_str(), static_cast<long long>(dim.size), dim.open ? "kept open" : "PINNED",
                dim.detail.c_str());
}

nlohmann::json freeDimensionsJson(const std::vector<FreeDimensionOutcome>& dims, bool pinnedOnly) {
  nlohmann::json list = nlohmann::json::array();
  for (const FreeDimensionOutcome& dim : dims) {
    if (pinnedOnly && dim.open) continue;
    list.push_back({{"name", dim.label}, {"size", dim.size}, {"open", dim.open}, {"checked_at", dim.triedSize}, {"ran", dim.ran},
                    {pinnedOnly ? "reason" : "detail", dim.detail}});
  }
  return list;
}

int runOptimize(OptimizeCommandOptions options) {
  std::unique_ptr<Strategy> strategy = makeStrategy(options.strategy); // unknown names fail before any work
  std::unique_ptr<CostModel> cost = makeCliCostModel(options.cost);
  Graph original = options.shapes.import(options.model);
  ActiveRules rules = loadActiveRules(options.rules);
  options.search.parameters = parseRunParameters(options.parameters);
  if (!options.egraphJson.empty()) options.search.parameters["egraph_json"] = options.egraphJson;
  options.search.progress = reportProgress;
  strategy->validate(options.search); // bad parameters fail before a session records anything

  Control control;
  applyRuleChoice(options.rules, rules, control);
  EventStream events;
  std::unique_ptr<RunRecording> recording;
  if (!options.session.empty()) recording = std::make_unique<RunRecording>(options.session, recordedModelOf(options.model), original);

  reportProgress("optimising " + options.model + " (" + std::to_string(original.opCount()) + " ops) with " +
                 options.strategy + ", " + std::to_string(rules.list.size()) + " rules, cost " + cost->spec());
  if (recording) {
    recording->begin({options.strategy, cost->spec(), options.search, !options.noVerify});
    events.attach(&recording->sink());
  }
  SearchResult result;
  EndToEndCheck e2e;
  std::vector<FreeDimensionOutcome> freeDims;
  try {
    result = strategy->run({original, rules.list, *cost, control, events, options.search});
    e2e = checkEndToEnd(options, original, result);
    // What is verified is what is returned: the written file read back when there is one.
    if (!options.out.empty()) {
      freeDims = writeResult(options, original, result);
    } else if (!options.noVerify) {
      verifySearchResult(original, result, options.verifyTrials, options.search.seed);
    }
  } catch (const std::exception& e) {
    if (recording) recording->finishFailed(e.what()); // the session says why, then the error goes on
    throw;
  }
  if (result.verificationRun) reportProgress(std::string(result.verified ? "verified" : "VERIFICATION FAILED") + " against the original");
  if (recording) {
    recording->finish(result, *cost);
    reportProgress("recorded the run in " + options.session);
  }

  printSummary(options, result, e2e);
  printFreeDimensions(freeDims);
  if (!options.out.empty()) std::printf("wrote           %s\n", options.out.c_str());
  if (!options.json.empty()) {
    nlohmann::json report = jsonReport(options, *cost, result, original, rules.list.size(), e2e);
    if (!freeDims.empty()) {
      report["free_dims"] = freeDimensionsJson(freeDims, false);
      report["pinned_dims"] = freeDimensionsJson(freeDims, true);
    }
    writeJsonReport(report, options.json);
  }
  return result.verificationRun && !result.verified ? 1 : 0;
}

} // namespace

void addOptimizeCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<OptimizeCommandOptions>();
  CLI::App* command = app.add_subcommand("optimize", "Rewrite a model into a faster equivalent graph");
  command->add_option("model", options->model, "ONNX model")->required();
  command->add_option("--strategy", options->strategy, "greedy, taso, eqsat, mcts or xrlflow (with libtorch)")->capture_default_str();
  command->add_option("--cost", options->cost, "Cost model: analytic:<h200|a100|v100>, measured:cpu, measured:cuda, table:FILE")
      ->capture_default_str();
  command->add_option("--extract", options->search.extractMethod, "Final extraction: tree, ocf, dag or ilp")
      ->check(CLI::IsMember({"tree", "ocf", "dag", "ilp"}))
      ->capture_default_str();
  command->add_option("--node-limit", options->search.nodeLimit,
                      "E-node limit (ops for taso/greedy); 0: the strategy's default (eqsat 50000, mcts 10000, taso 2x ops)")
      ->capture_default_str();
  command->add_option("--iter-limit", options->search.iterationLimit, "Iteration limit (eqsat)")->capture_default_str();
  command->add_option("--time-limit", options->search.timeLimitSeconds, "Search time limit in seconds")->capture_default_str();
  command->add_option("--k-multi", options->search.multiIterations, "Iterations that apply multi-pattern rules (eqsat)")
      ->capture_default_str();
  command->add_option("--seed", options->search.seed, "Seed of the search and of the verification inputs")->capture_default_str();
  command->add_option("--pin", options->rules.pins, "Try this rule first wherever it matches (repeatable)");
  command->add_option("--veto", options->rules.vetoes, "Never apply this rule (repeatable)");
  command->add_option("--param", options->parameters, "Strategy parameter NAME=VALUE (repeatable), e.g. simulations=64");
  command->add_option("--session", options->session, "Record the run in this session file (.tsession; created if missing)");
  command->add_option("--rules", options->rules.file, "Rule file instead of the built-in pack");
  command->add_option("--out", options->out,
                      "Write the optimised model here; the model's symbolic dimensions stay symbolic where the optimised graph "
                      "computes the same at another size of them (checked), and are pinned, with a warning, where not");
  addModelShapeOptions(command, options->shapes);
  command->add_option("--json", options->json, "Write the report as JSON");
  command->add_option("--egraph-json", options->egraphJson, "eqsat: write the saturated e-graph (egraph-serialize JSON, as read by `extract`)");
  command->add_option("--verify-trials", options->verifyTrials, "Random input sets for verification")->capture_default_str();
  command->add_flag("--no-verify", options->noVerify, "Skip checking the result against the original");
  command->add_flag("--no-e2e", options->noE2e,
                    "With a measured cost model, return the candidate without timing it against the original end to end");
  command->add_option("--e2e-warmup", options->e2eWarmup, "Untimed runs of each graph before end-to-end timing (default: cuda 100, cpu 3)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--e2e-runs", options->e2eRuns,
                      "Most interleaved pairs of end-to-end runs (default: cuda 200, cpu 30; fewer once the interval is decided)")
      ->check(CLI::Range(2, 100000));
  command->callback([options, &context] { context.exitCode = runOptimize(*options); });
}

} // namespace tessera::cli
