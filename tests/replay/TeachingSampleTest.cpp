// The teaching sample must teach what it says: greedy rewriting misses the best graph that
// equality saturation finds, on the bundled file.
#include "cost/CostModel.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
SearchResult optimize(const Graph& graph, const char* strategy) {
  static const RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  auto cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  SearchOptions options;
  options.timeLimitSeconds = 20;
  SearchInput input{graph, list, *cost, control, events, options};
  return makeStrategy(strategy)->run(input);
}
} // namespace

TEST(TeachingSample, GreedyMissesWhatSaturationFinds) {
  const Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/teaching/phase_ordering.onnx");
  const SearchResult greedy = optimize(model, "greedy");
  const SearchResult eqsat = optimize(model, "eqsat");
  EXPECT_GT(eqsat.speedupPct, 1.0);
  EXPECT_LT(eqsat.bestCostMs, greedy.bestCostMs * 0.99) << "greedy " << greedy.bestCostMs << " ms, eqsat " << eqsat.bestCostMs << " ms";
}
