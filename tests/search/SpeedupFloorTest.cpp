// Quality floors: the speedups eqsat and MCTS reach on three samples with the deterministic analytic
// cost model (`tessera-cli bench --models squeezenet nasrnn bert --strategies eqsat,mcts` gave
// 47.73 / 49.11 / 22.18 % and 47.73 / 49.11 / 24.04 %), a little below, so a change that makes the
// search worse fails here instead of going unnoticed; every result must verify.
#include "cost/CostModel.h"
#include "events/Control.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"

#include <gtest/gtest.h>

#include <string>

using namespace tessera;

namespace {

struct Floor {
  std::string model;
  double eqsatPct;
  double mctsPct;
};

SearchResult optimise(const Graph& model, const std::string& strategy) {
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  std::unique_ptr<CostModel> cost = makeCostModel(kPredictionCostSpec);
  Control control;
  EventStream events;
  SearchOptions options; // the defaults a user gets
  SearchResult result = makeStrategy(strategy)->run(SearchInput{model, list, *cost, control, events, options});
  verifySearchResult(model, result, /*trials=*/1, options.seed);
  return result;
}

class SpeedupFloor : public ::testing::TestWithParam<Floor> {};

} // namespace

TEST_P(SpeedupFloor, EqsatAndMctsKeepTheirSpeedupsVerified) {
  const Floor& floor = GetParam();
  const Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + floor.model + ".onnx");
  const SearchResult eqsat = optimise(model, "eqsat");
  const SearchResult mcts = optimise(model, "mcts");
  EXPECT_TRUE(eqsat.verified) << eqsat.verifyProblem;
  EXPECT_TRUE(mcts.verified) << mcts.verifyProblem;
  EXPECT_GE(eqsat.speedupPct, floor.eqsatPct);
  EXPECT_GE(mcts.speedupPct, floor.mctsPct);
  EXPECT_GE(mcts.speedupPct, eqsat.speedupPct - 0.5) << "MCTS never falls behind saturation on these";
}

INSTANTIATE_TEST_SUITE_P(Samples, SpeedupFloor,
                         ::testing::Values(Floor{"squeezenet", 47.0, 47.0}, Floor{"nasrnn", 48.5, 48.5}, Floor{"bert", 21.5, 23.5}),
                         [](const ::testing::TestParamInfo<Floor>& info) { return info.param.model; });
