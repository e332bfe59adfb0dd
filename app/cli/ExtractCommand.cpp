// `tessera-cli extract EGRAPH.json [--method {tree,ocf,dag,ilp}] [--time-limit S] [--json F]`:
// extracts the cheapest term from an egraph-serialize file and reports its DAG cost and time.
#include "CommandContext.h"
#include "Commands.h"

#include "extract/EGraphJson.h"
#include "extract/Extractors.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <optional>

namespace tessera::cli {

namespace {

struct ExtractCommandOptions {
  std::string egraph;
  std::string method = "dag";
  double timeLimitSeconds = 0;
  bool noPresolve = false;
  std::string json;
};

int runExtract(const ExtractCommandOptions& options) {
  extract::ExtractionProblem problem = extract::readEGraphJson(options.egraph);
  std::optional<extract::ExtractionMethod> method = extract::parseExtractionMethod(options.method);
  if (!method) throw Error("unknown extraction method '" + options.method + "' (use tree, ocf, dag or ilp)");
  extract::ExtractOptions extractOptions;
  extractOptions.timeLimitSeconds = options.timeLimitSeconds;
  extractOptions.ilpPresolve = !options.noPresolve;
  extract::Extraction result = extract::extract(problem, *method, extractOptions);

  size_t chosen = 0;
  nlohmann::json choice = nlohmann::json::object();
  for (uint32_t c = 0; c < result.choice.size(); ++c) {
    if (result.choice[c] < 0) continue;
    ++chosen;
    choice[problem.className(c)] = problem.nodeName(static_cast<uint32_t>(result.choice[c]));
  }
  const bool isIlp = *method == extract::ExtractionMethod::Ilp;

  std::printf("egraph     %s (%zu e-nodes, %zu e-classes, %zu roots)\n", options.egraph.c_str(), problem.nodes.size(),
              problem.classCount(), problem.roots.size());
  std::printf("method     %s\n", result.method.c_str());
  std::printf("dag cost   %.9g\n", result.dagCost);
  std::printf("chosen     %zu e-classes\n", chosen);
  std::printf("seconds    %.6f\n", result.seconds);
  if (isIlp)
    std::printf("optimal    %s (lower bound %.9g)\n", result.provenOptimal ? "yes" : "not proven", result.lowerBound);

  if (!options.json.empty()) {
    nlohmann::json report;
    report["egraph"] = options.egraph;
    report["method"] = result.method;
    report["dag_cost"] = result.dagCost;
    report["seconds"] = result.seconds;
    report["optimal"] = result.provenOptimal;
    if (isIlp) report["lower_bound"] = result.lowerBound;
    if (isIlp) report["presolve"] = !options.noPresolve;
    report["enodes"] = problem.nodes.size();
    report["eclasses"] = problem.classCount();
    report["chosen_eclasses"] = chosen;
    report["choice"] = std::move(choice);
    writeJsonReport(report, options.json);
  }
  return 0;
}

} // namespace

void addExtractCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<ExtractCommandOptions>();
  CLI::App* command = app.add_subcommand("extract", "Extract the cheapest term (DAG cost) from an egraph-serialize JSON file");
  command->add_option("egraph", options->egraph, "E-graph in egraph-serialize JSON (extraction-gym format)")->required();
  command->add_option("--method", options->method, "tree (egg greedy), ocf (PACT'24 greedy), dag (DAG-cost greedy) or ilp (exact, CBC)")
      ->check(CLI::IsMember({"tree", "ocf", "dag", "ilp"}))
      ->capture_default_str();
  command->add_option("--time-limit", options->timeLimitSeconds, "Seconds the ILP may take (0 = no limit); the best solution so far is kept")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--no-presolve", options->noPresolve,
                    "ILP only: skip dominance and bound pruning and solve over the whole e-graph (for comparison)");
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  command->callback([options, &context] { context.exitCode = runExtract(*options); });
}

} // namespace tessera::cli
