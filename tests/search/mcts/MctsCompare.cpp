// Compares MCTS with equality saturation at the same node limit on the benchmark models: per model
// the speedup of eqsat@N and of mcts, and their times. Built with the tests, not registered as one.
//
//   tessera_mcts_compare [--models a,b] [--node-limit N] [--time-limit S] [--seed N]
//                        [--extract M] [--progress] [--no-eqsat] [--profile-rules] [NAME=VALUE ...]   (mcts parameters)
#include "cost/CostModel.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/EqsatStrategy.h"
#include "search/MctsStrategy.h"
#include "search/mcts/RuleAction.h"
#include "egraph/GraphConversion.h"
#include "support/Error.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;

namespace {
struct Row {
  double speedup = 0, seconds = 0;
  size_t enodes = 0;
  int steps = 0;
  std::string stop;
};

Row runStrategy(Strategy& strategy, const Graph& model, std::span<const Rule* const> rules, CostModel& cost,
                const SearchOptions& options) {
  Control control;
  EventStream events;
  SearchInput input{model, rules, cost, control, events, options};
  auto start = std::chrono::steady_clock::now();
  SearchResult result = strategy.run(input);
  Row row;
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.speedup = result.speedupPct;
  row.enodes = result.enodes;
  row.steps = result.steps;
  row.stop = result.stopReason;
  return row;
}

// Per rule on the seeded model: matches, rewrites, e-nodes added and the time of one action.
void profileRules(const Graph& model, std::span<const Rule* const> rules) {
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, model);
  egraph.rebuild();
  std::printf("seeded: %zu e-nodes\n", egraph.numNodes());
  for (const Rule* rule : rules) {
    auto checkpoint = egraph.checkpoint();
    const size_t before = egraph.numNodes();
    auto start = std::chrono::steady_clock::now();
    mcts::ActionOutcome outcome = mcts::applyRuleAction(egraph, seed.outputs, *rule, 1000000);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (outcome.matches) std::printf("  %-28s %6zu matches %6zu rewrites %6zu nodes %8.2f ms\n", rule->name().c_str(), outcome.matches,
                outcome.applied, egraph.numNodes() - before, ms);
    egraph.rollback(checkpoint);
  }
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}
} // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> models = {"bert",   "inception_v3", "mobilenet_v2", "nasnet_a", "nasrnn",
                                     "resnet50", "resnext50",  "squeezenet",   "vgg19"};
  SearchOptions options;
  options.nodeLimit = 2000;
  bool runEqsat = true, profile = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--models") models = split(value());
    else if (arg == "--node-limit") options.nodeLimit = std::stoul(value());
    else if (arg == "--time-limit") options.timeLimitSeconds = std::stod(value());
    else if (arg == "--seed") options.seed = std::stoull(value());
    else if (arg == "--extract") options.extractMethod = value();
    else if (arg == "--progress") options.progress = [](const std::string& line) { std::cerr << "  " << line << "\n"; };
    else if (arg == "--no-eqsat") runEqsat = false;
    else if (arg == "--profile-rules") profile = true;
    else if (auto eq = arg.find('='); eq != std::string::npos) options.parameters[arg.substr(0, eq)] = arg.substr(eq + 1);
    else throw Error("unknown argument " + arg);
  }

  RuleSet pack = defaultRules();
  std::vector<const Rule*> rules;
  for (const auto& rule : pack.rules()) rules.push_back(rule.get());
  auto cost = makeCostModel("analytic:h200");

  std::printf("%-14s %9s %9s %9s %8s %8s %6s %6s  %s\n", "model", "eqsat%", "mcts%", "delta", "eqsat_s", "mcts_s", "steps",
              "enodes", "stop");
  double eqsatSum = 0, mctsSum = 0, worst = 1e9;
  for (const std::string& name : models) {
    Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name + ".onnx");
    if (profile) {
      std::printf("%s ", name.c_str());
      profileRules(model, rules);
      continue;
    }
    Row eqsat;
    if (runEqsat) {
      EqsatStrategy strategy;
      SearchOptions eqsatOptions = options;
      eqsatOptions.parameters.clear();
      eqsatOptions.progress = nullptr;
      eqsat = runStrategy(strategy, model, rules, *cost, eqsatOptions);
    }
    auto mcts = makeMctsStrategy();
    Row row = runStrategy(*mcts, model, rules, *cost, options);
    eqsatSum += eqsat.speedup;
    mctsSum += row.speedup;
    worst = std::min(worst, row.speedup - eqsat.speedup);
    std::printf("%-14s %9.2f %9.2f %+9.2f %8.2f %8.2f %6d %6zu  %s\n", name.c_str(), eqsat.speedup, row.speedup,
                row.speedup - eqsat.speedup, eqsat.seconds, row.seconds, row.steps, row.enodes, row.stop.c_str());
    std::fflush(stdout);
  }
  const double n = static_cast<double>(models.size());
  std::printf("%-14s %9.2f %9.2f %+9.2f   (worst per-model delta %+.2f)\n", "mean", eqsatSum / n, mctsSum / n,
              (mctsSum - eqsatSum) / n, worst);
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "tessera_mcts_compare: %s\n", error.what());
  return 1;
}
