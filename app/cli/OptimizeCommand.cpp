// `tessera-cli optimize MODEL --strategy eqsat ...`: rewrites a model into a faster equivalent,
// verifies it against the original and reports what happened.
#include "CommandContext.h"
#include "Commands.h"

#include "cost/CostModel.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleChecker.h"
#include "search/EqsatOptimizer.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::cli {

namespace {

struct OptimizeCommandOptions {
  std::string model;
  std::string strategy = "eqsat";
  std::string cost = "analytic:h200";
  std::string rules;
  std::string out;
  std::string json;
  bool noVerify = false;
  OptimizeOptions optimize;
};

// The rules the search may use: the pack minus the rules that fail numeric verification. The
// built-in pack is verified by the test suite (every rule must pass), so only files are checked here.
RuleSet verifiedRules(const std::string& file) {
  if (file.empty()) return defaultRules();
  RuleSet rules = loadRuleFile(file);
  reportProgress("verifying the " + std::to_string(rules.size()) + " rules of " + file);
  std::vector<RuleCheck> checks = checkRules(rules);
  for (const RuleCheck& check : checks)
    if (!check.verified) reportProgress("rule " + check.name + " fails verification and is not used: " + check.problem);
  return keepVerified(std::move(rules), checks);
}

int runOptimize(const OptimizeCommandOptions& options) {
  if (options.strategy != "eqsat")
    throw Error("strategy '" + options.strategy + "' is not available yet; this build supports --strategy eqsat");
  std::unique_ptr<CostModel> cost = makeCostModel(options.cost);
  Graph original = onnx_io::importOnnxFile(options.model);
  RuleSet rules = verifiedRules(options.rules);
  std::vector<const Rule*> active;
  for (const auto& rule : rules.rules()) active.push_back(rule.get());
  reportProgress("optimising " + options.model + " (" + std::to_string(original.opCount()) + " ops) with " +
                 std::to_string(active.size()) + " rules, cost " + cost->spec());

  OptimizeOptions optimize = options.optimize;
  optimize.verify = !options.noVerify;
  optimize.progress = reportProgress;
  OptimizeResult result = optimizeEqsat(original, active, *cost, optimize);

  std::printf("original cost   %.4f ms\n", result.originalCostMs);
  std::printf("optimised cost  %.4f ms\n", result.optimizedCostMs);
  std::printf("speedup         %.2f %%\n", result.speedupPct);
  std::printf("time            %.2f s saturation + %.2f s extraction (%s)\n", result.saturationSeconds,
              result.extractionSeconds, options.optimize.extractMethod.c_str());
  std::printf("e-graph         %zu e-nodes, %zu e-classes, stopped: %s\n", result.enodes, result.eclasses,
              std::string(stopReasonName(result.run.stopReason)).c_str());
  std::printf("verified        %s\n", !result.verificationRun ? "skipped (--no-verify)" : result.verified ? "yes" : ("NO: " + result.verifyProblem).c_str());
  for (const auto& [name, count] : result.run.rulesApplied) std::printf("  %-28s %zu\n", name.c_str(), count);

  if (!options.out.empty()) {
    std::filesystem::path parent = std::filesystem::path(options.out).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    onnx_io::exportOnnxFile(result.optimized, options.out);
    std::printf("wrote           %s\n", options.out.c_str());
  }
  if (!options.json.empty()) {
    nlohmann::json report{{"model", options.model},
                          {"strategy", options.strategy},
                          {"cost", cost->spec()},
                          {"extract", options.optimize.extractMethod},
                          {"original_cost_ms", result.originalCostMs},
                          {"optimized_cost_ms", result.optimizedCostMs},
                          {"speedup_pct", result.speedupPct},
                          {"optimize_seconds", result.saturationSeconds + result.extractionSeconds},
                          {"saturation_seconds", result.saturationSeconds},
                          {"extraction_seconds", result.extractionSeconds},
                          {"stop_reason", std::string(stopReasonName(result.run.stopReason))},
                          {"iterations", result.run.iterations.size()},
                          {"enodes", result.enodes},
                          {"eclasses", result.eclasses},
                          {"enodes_per_second", result.saturationSeconds > 0 ? result.enodes / result.saturationSeconds : 0.0},
                          {"verified", result.verified},
                          {"verification_run", result.verificationRun},
                          {"max_abs_err", result.maxAbsError},
                          {"rules_applied", result.run.rulesApplied},
                          {"rules_used", active.size()},
                          {"ops_before", original.opCount()},
                          {"ops_after", result.optimized.opCount()}};
    writeJsonReport(report, options.json);
  }
  return result.verificationRun && !result.verified ? 1 : 0;
}

} // namespace

void addOptimizeCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<OptimizeCommandOptions>();
  CLI::App* command = app.add_subcommand("optimize", "Rewrite a model into a faster equivalent graph");
  command->add_option("model", options->model, "ONNX model")->required();
  command->add_option("--strategy", options->strategy, "greedy, taso, eqsat or mcts")->capture_default_str();
  command->add_option("--cost", options->cost, "Cost model: analytic:<h200|a100|v100>, measured:cpu, measured:cuda, table:FILE")
      ->capture_default_str();
  command->add_option("--extract", options->optimize.extractMethod, "Extraction: tree, ocf, dag or ilp")
      ->check(CLI::IsMember({"tree", "ocf", "dag", "ilp"}))
      ->capture_default_str();
  command->add_option("--node-limit", options->optimize.limits.nodeLimit, "E-node limit")->capture_default_str();
  command->add_option("--iter-limit", options->optimize.limits.iterationLimit, "Iteration limit")->capture_default_str();
  command->add_option("--time-limit", options->optimize.limits.timeLimitSeconds, "Saturation time limit in seconds")
      ->capture_default_str();
  command->add_option("--k-multi", options->optimize.limits.multiIterations, "Iterations that apply multi-pattern rules")
      ->capture_default_str();
  command->add_option("--seed", options->optimize.seed, "Seed (verification inputs)")->capture_default_str();
  command->add_option("--rules", options->rules, "Rule file instead of the built-in pack");
  command->add_option("--out", options->out, "Write the optimised model here");
  command->add_option("--json", options->json, "Write the report as JSON");
  command->add_option("--egraph-json", options->optimize.egraphJsonPath, "Write the saturated e-graph (egraph-serialize JSON, as read by `extract`)");
  command->add_flag("--no-verify", options->noVerify, "Skip checking the result against the original");
  command->callback([options, &context] { context.exitCode = runOptimize(*options); });
}

} // namespace tessera::cli
