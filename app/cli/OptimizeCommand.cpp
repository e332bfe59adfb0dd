// `tessera-cli optimize MODEL --strategy NAME ...`: parses the options into core's RunPlan, runs it
// with core's runModel (rules, cost, search, verification, do no harm on the measured backend or
// the --deploy runtime, the export verified as read back, the session) and reports what happened.
#include "CommandContext.h"
#include "Commands.h"
#include "CostModelFactory.h"
#include "EndToEndReport.h"
#include "ModelShapeOptions.h"

#include "events/Control.h"
#include "run/RunChoices.h"
#include "run/RunModel.h"
#include "run/RunRequest.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace tessera::cli {

namespace {

// The plan as parsed, and what only the command itself uses.
struct OptimizeCommandOptions {
  RunPlan plan;
  std::vector<std::string> parameters; // NAME=VALUE
  bool noVerify = false;
  bool noE2e = false;
  std::string json;
  std::string egraphJson;
  ModelShapeOptions shapes;
};

void printEndToEnd(const std::optional<DeployCheck>& check) {
  if (!check) return;
  if (!check->skipped.empty()) {
    std::printf("end to end      not checked: %s\n", check->skipped.c_str());
    return;
  }
  if (!check->outcome) return;
  const DoNoHarmOutcome& outcome = *check->outcome;
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

void printSummary(const RunPlan& plan, const RunOutcome& run) {
  const SearchResult& result = run.result;
  std::printf("strategy        %s (seed %llu)\n", plan.request.strategy.c_str(), static_cast<unsigned long long>(plan.request.search.seed));
  std::printf("cost model      %s\n", costSpecHeadline(run.cost->spec()).c_str());
  std::printf("original cost   %.4f ms\n", result.originalCostMs);
  std::printf("optimised cost  %.4f ms\n", result.bestCostMs);
  std::printf("speedup         %.2f %%\n", result.speedupPct);
  std::printf("time            %.2f s search + %.2f s extraction", result.searchSeconds, result.extractionSeconds);
  if (result.measuringSeconds > 0) std::printf(" (%.2f s of the search measuring op costs, not counted by the time limit)", result.measuringSeconds);
  std::printf("\n");
  std::printf("search          %d steps, %zu e-nodes, %zu e-classes, stopped: %s\n", result.steps, result.enodes,
              result.eclasses, result.stopReason.c_str());
  printEndToEnd(run.deployCheck);
  const std::string what = plan.exportPath.empty() ? "" : " (" + plan.exportPath + " read back)";
  std::printf("verified        %s\n", !result.verificationRun ? "skipped (--no-verify)"
                                      : result.verified     ? ("yes" + what).c_str()
                                                            : ("NO" + what + ": " + result.verifyProblem).c_str());
  // A kept original applies none of them: they are what the rejected candidate applied.
  if (run.deployCheck && run.deployCheck->keptOriginal() && !result.rulesApplied.empty())
    std::printf("rules of the candidate not returned:\n");
  for (const auto& [name, count] : result.rulesApplied) std::printf("  %-28s %zu\n", name.c_str(), count);
}

nlohmann::json jsonReport(const RunPlan& plan, const RunOutcome& run, const Graph& original) {
  const SearchResult& result = run.result;
  nlohmann::json report{{"model", plan.modelPath},
          {"strategy", plan.request.strategy},
          {"seed", plan.request.search.seed},
          {"cost", run.cost->spec()},
          {"extract", plan.request.search.extractMethod},
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
          {"rules_used", run.rulesUsed},
          {"rules_hash", run.rulesHash},
          {"pinned", plan.rules.pins},
          {"vetoed", plan.rules.vetoes},
          {"ops_before", original.opCount()},
          {"ops_after", result.best.opCount()}};
  if (result.verificationRun && !plan.exportPath.empty()) report["verified_file"] = plan.exportPath;
  if (run.runId) report["session_run"] = run.runId;
  if (result.inSample) report["in_sample"] = *result.inSample;
  if (!run.costFallbackNote.empty()) report["cost_fallback"] = run.costFallbackNote;
  if (!run.deployCheck) return report;
  if (!run.deployCheck->skipped.empty()) report["e2e_skipped"] = run.deployCheck->skipped;
  if (!run.deployCheck->outcome) return report;
  const DoNoHarmOutcome& e2e = *run.deployCheck->outcome;
  report["kept_original"] = e2e.keptOriginal;
  if (!e2e.executorMismatch.empty()) report["e2e_mismatch"] = e2e.executorMismatch;
  report["candidate_cost_ms"] = e2e.candidateCostMs;
  report["candidate_speedup_pct"] = e2e.candidateSpeedupPct;
  report["e2e_returned_speedup_pct"] = e2e.returnedSpeedupPct();
  if (e2e.comparison) addEndToEndKeys(*e2e.comparison, report);
  if (const auto& first = e2e.screening) {
    report["e2e_screening_speedup_pct"] = first->speedup.pct;
    report["e2e_screening_ci_pct"] = {first->speedup.lowPct, first->speedup.highPct};
  }
  return report;
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
  RunPlan& plan = options.plan;
  Graph original = options.shapes.import(plan.modelPath);
  plan.request.search.parameters = parseRunParameters(options.parameters);
  if (!options.egraphJson.empty()) plan.request.search.parameters["egraph_json"] = options.egraphJson;
  plan.request.verify = !options.noVerify;
  plan.endToEnd.enabled = !options.noE2e;
  if (!plan.sessionPath.empty()) plan.recordedModel = recordedModelOf(plan.modelPath);

  reportProgress("optimising " + plan.modelPath + " (" + std::to_string(original.opCount()) + " ops) with " + plan.request.strategy);
  Control control;
  RunObserver observer;
  observer.progress = reportProgress;
  const RunOutcome run = runModel(original, plan, cliRunBackends(), control, nullptr, observer);
  if (run.runId) reportProgress("recorded the run in " + plan.sessionPath);

  printSummary(plan, run);
  printFreeDimensions(run.freeDims);
  if (!plan.exportPath.empty()) std::printf("wrote           %s\n", plan.exportPath.c_str());
  if (!options.json.empty()) {
    nlohmann::json report = jsonReport(plan, run, original);
    if (!run.freeDims.empty()) {
      report["free_dims"] = freeDimensionsJson(run.freeDims, false);
      report["pinned_dims"] = freeDimensionsJson(run.freeDims, true);
    }
    writeJsonReport(report, options.json);
  }
  return run.result.verificationRun && !run.result.verified ? 1 : 0;
}

} // namespace

void addOptimizeCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<OptimizeCommandOptions>();
  RunPlan& plan = options->plan;
  SearchOptions& search = plan.request.search;
  CLI::App* command = app.add_subcommand("optimize", "Rewrite a model into a faster equivalent graph");
  command->add_option("model", plan.modelPath, "ONNX model")->required();
  command->add_option("--strategy", plan.request.strategy, "Search strategy: " + listText(strategyNames()))->capture_default_str();
  command->add_option("--cost", plan.request.costSpec, "Cost model: " + costSpecHelp());
  command->add_option("--extract", search.extractMethod, "Final extraction: " + listText(extractionMethods()))
      ->check(CLI::IsMember(extractionMethods()))
      ->capture_default_str();
  command->add_option("--node-limit", search.nodeLimit,
                      "E-node limit (ops for taso/greedy); 0: the strategy's default (eqsat 50000, mcts 10000, taso 2x ops)")
      ->capture_default_str();
  command->add_option("--iter-limit", search.iterationLimit, "Iteration limit (eqsat)")->capture_default_str();
  command->add_option("--time-limit", search.timeLimitSeconds, "Search time limit in seconds")->capture_default_str();
  command->add_option("--k-multi", search.multiIterations, "Iterations that apply multi-pattern rules (eqsat)")->capture_default_str();
  command->add_option("--seed", search.seed, "Seed of the search and of the verification inputs")->capture_default_str();
  command->add_option("--pin", plan.rules.pins, "Try this rule first wherever it matches (repeatable)");
  command->add_option("--veto", plan.rules.vetoes, "Never apply this rule (repeatable)");
  command->add_option("--param", options->parameters, "Strategy parameter NAME=VALUE (repeatable), e.g. simulations=64");
  command->add_option("--session", plan.sessionPath, "Record the run in this session file (.tsession; created if missing)");
  command->add_option("--rules", plan.rules.file, "Rule file instead of the built-in pack");
  command->add_option("--out", plan.exportPath,
                      "Write the optimised model here; the model's symbolic dimensions stay symbolic where the optimised graph "
                      "computes the same at another size of them (checked), and are pinned, with a warning, where not");
  command->add_option("--deploy", plan.deploy,
                      "The runtime the result is for (cpu, ort or cuda): do no harm times the candidate against the original there, "
                      "whatever cost model guided the search (default: the measured cost spec's backend)")
      ->check(CLI::IsMember({"cpu", "ort", "cuda"}));
  addModelShapeOptions(command, options->shapes);
  command->add_option("--json", options->json, "Write the report as JSON");
  command->add_option("--egraph-json", options->egraphJson, "eqsat: write the saturated e-graph (egraph-serialize JSON, as read by `extract`)");
  command->add_option("--verify-trials", plan.verifyTrials, "Random input sets for verification")->check(CLI::PositiveNumber)->capture_default_str();
  command->add_flag("--no-verify", options->noVerify, "Skip checking the result against the original");
  command->add_flag("--no-e2e", options->noE2e,
                    "With a measured cost model (or --deploy), return the candidate without timing it against the original end to end");
  addEndToEndOptions(command, plan.endToEnd);
  command->callback([options, &context] { context.exitCode = runOptimize(*options); });
}

} // namespace tessera::cli
