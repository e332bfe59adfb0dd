// An MCTS run for the PUCT tests: the default rule pack, analytic H200 costs and, optionally, a
// stand-in guide (no network, no libtorch).
#pragma once

#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/MctsStrategy.h"
#include "search/mcts/PriorModel.h"

#include "../rl/RlTestGraphs.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::test {

struct PuctSearchRun {
  RulePack pack;
  std::vector<const Rule*>& rules = pack.list;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  SearchOptions options;
  SearchResult run(const Graph& model, std::shared_ptr<mcts::PriorModel> guide = {}) {
    return makeMctsStrategy(std::move(guide))->run(SearchInput{model, rules, *cost, control, events, options});
  }
};

inline Graph sample(const char* name) { return onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + name); }

} // namespace tessera::test
