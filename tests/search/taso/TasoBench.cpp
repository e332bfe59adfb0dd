// Measures the taso and greedy strategies on ONNX models (the nine samples by default) until
// `tessera-cli bench` lands: speedup, search time, steps, graphs built, stop reason, verification.
// Usage: tessera_taso_bench [--strategies taso,greedy] [--time-limit S] [--budget N] [--cost SPEC]
//                           [--verify] [MODEL.onnx ...]
#include "cost/CostModel.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"
#include "support/Error.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera;

namespace {
const char* kSamples[] = {"bert", "resnext50", "resnet50", "nasnet_a", "nasrnn", "inception_v3", "squeezenet", "vgg19", "mobilenet_v2"};

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

struct Arguments {
  std::vector<std::string> strategies = {"greedy", "taso"};
  std::vector<std::string> models;
  double timeLimit = 60;
  std::string budget;
  std::string cost = "analytic:h200";
  bool verify = false;
};

Arguments parse(int argc, char** argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--strategies") args.strategies = splitList(value());
    else if (arg == "--time-limit") args.timeLimit = std::stod(value());
    else if (arg == "--budget") args.budget = value();
    else if (arg == "--cost") args.cost = value();
    else if (arg == "--verify") args.verify = true;
    else if (arg.rfind("--", 0) == 0) throw Error("unknown option " + arg);
    else args.models.push_back(arg);
  }
  if (args.models.empty())
    for (const char* name : kSamples) args.models.push_back(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name + ".onnx");
  return args;
}
} // namespace

int main(int argc, char** argv) {
  try {
    Arguments args = parse(argc, argv);
    RuleSet pack = defaultRules();
    std::vector<const Rule*> rules;
    for (const auto& rule : pack.rules()) rules.push_back(rule.get());
    auto cost = makeCostModel(args.cost);
    std::printf("%-14s %-7s %10s %10s %8s %8s %6s %8s %-11s %s\n", "model", "strategy", "orig_ms", "best_ms", "speedup",
                "seconds", "steps", "graphs", "stop", "verified");
    for (const std::string& path : args.models) {
      Graph model = onnx_io::importOnnxFile(path);
      std::string name = path.substr(path.find_last_of('/') + 1);
      for (const std::string& strategyName : args.strategies) {
        Control control;
        EventStream events;
        SearchOptions options;
        options.timeLimitSeconds = args.timeLimit;
        if (!args.budget.empty()) options.parameters["budget"] = args.budget;
        auto strategy = makeStrategy(strategyName);
        SearchResult result = strategy->run(SearchInput{model, rules, *cost, control, events, options});
        std::string verified = "-";
        if (args.verify) {
          verifySearchResult(model, result, 1, 1);
          verified = result.verified ? "yes" : "NO: " + result.verifyProblem;
        }
        std::printf("%-14s %-7s %10.4f %10.4f %7.2f%% %8.2f %6d %8zu %-11s %s\n", name.c_str(), strategyName.c_str(),
                    result.originalCostMs, result.bestCostMs, result.speedupPct, result.searchSeconds, result.steps,
                    result.enodes, result.stopReason.c_str(), verified.c_str());
        std::fflush(stdout);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera_taso_bench: %s\n", e.what());
    return 1;
  }
}
