// Writes the teaching sample (phase_ordering.onnx) and shows the phase-ordering problem on it:
// greedy rewriting versus equality saturation and MCTS, same rules, same cost model.
// Usage: tessera-teaching-sample OUT_DIR
#include "cost/CostModel.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "generator/Teaching.h"
#include "onnx/OnnxExport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"

#include <cstdio>
#include <exception>
#include <filesystem>

using namespace tessera;

int main(int argc, char** argv) {
  const std::filesystem::path dir = argc > 1 ? argv[1] : "samples/teaching";
  try {
    std::filesystem::create_directories(dir);
    const Graph model = samples::phaseOrderingModel();
    onnx_io::exportOnnxFile(model, (dir / "phase_ordering.onnx").string());
    const RuleSet rules = defaultRules();
    std::vector<const Rule*> list;
    for (const auto& rule : rules.rules()) list.push_back(rule.get());
    auto cost = makeCostModel("analytic:h200");
    for (const char* strategy : {"greedy", "eqsat", "mcts"}) {
      Control control;
      EventStream events;
      SearchOptions options;
      options.timeLimitSeconds = 20;
      SearchInput input{model, list, *cost, control, events, options};
      const SearchResult result = makeStrategy(strategy)->run(input);
      std::printf("%-6s %.4f ms -> %.4f ms (%.1f %%), %d steps, rules:", strategy, result.originalCostMs, result.bestCostMs,
                  result.speedupPct, result.steps);
      for (const auto& [rule, count] : result.rulesApplied) std::printf(" %s x%zu", rule.c_str(), count);
      std::printf("\n");
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tessera-teaching-sample: %s\n", error.what());
    return 1;
  }
  return 0;
}
