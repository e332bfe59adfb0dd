// PUCT in the MCTS planner without a network (core/search/mcts): the selection formula, a guide's
// prior steering expansion, the guide seeing every planned root, bad prior= parameters, and plain
// MCTS unchanged by the guide's code paths.
#include "PuctTestSearch.h"

#include "search/mcts/MctsParameters.h"
#include "search/mcts/MctsTree.h"
#include "search/mcts/PriorModel.h"
#include "support/Error.h"

#include "../rl/RlTestFiles.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace tessera;
using tessera::test::errorOf;
using tessera::test::PuctSearchRun;
using tessera::test::sample;
using namespace tessera::mcts;

namespace {

// A guide that puts all of its prior on one rule and counts what the search tells it.
class OneRuleGuide final : public PriorModel {
public:
  explicit OneRuleGuide(std::string rule) : rule_(std::move(rule)) {}
  Guidance evaluate(const SearchState& state) override {
    ++evaluations;
    roots += state.root ? 1 : 0;
    Guidance guidance;
    guidance.prior.assign(state.space.rules.size(), 0.0f);
    for (size_t r = 0; r < state.space.rules.size(); ++r)
      if (state.space.rules[r]->name() == rule_) guidance.prior[r] = 1.0f;
    return guidance;
  }
  void planned(const SearchState& state, const PlannedRoot& root) override {
    EXPECT_TRUE(state.root);
    plannedVisits.push_back(std::accumulate(root.visits.begin(), root.visits.end(), 0u));
  }
  int evaluations = 0;
  int roots = 0;
  std::vector<uint32_t> plannedVisits;

private:
  std::string rule_;
};

// A root with two children, each with its visits, total value and prior; the root has their visits.
struct TwoChildren {
  struct Child {
    uint32_t visits;
    double totalValue;
    float prior;
  };
  TwoChildren(Child a, Child b) {
    root = tree.addRoot(10);
    first = tree.addChild(root, 0, 11);
    second = tree.addChild(root, 1, 11);
    for (auto [id, child] : {std::pair{first, a}, std::pair{second, b}}) {
      tree.node(id).visits = child.visits;
      tree.node(id).totalValue = child.totalValue;
      tree.node(id).prior = child.prior;
    }
    tree.node(root).visits = a.visits + b.visits;
  }
  MctsTree tree;
  uint32_t root = 0, first = 0, second = 0;
};

} // namespace

TEST(PuctSelection, PicksTheHighPriorChildAtEqualValue) {
  TwoChildren two({3, 6, 0.2f}, {3, 6, 0.7f});
  MctsTree& tree = two.tree;
  const uint32_t root = two.root, low = two.first, high = two.second;
  auto all = [](uint16_t) { return true; };
  EXPECT_EQ(tree.selectPuctChild(root, 2.0, all), high);
  EXPECT_EQ(tree.selectChild(root, 2.0, all), low) << "UCT ignores priors: ties go to the earlier child";
  // Q still rules: a clearly better mean value beats the prior.
  tree.node(low).totalValue = 30;
  EXPECT_EQ(tree.selectPuctChild(root, 2.0, all), low);
  // The formula: Q + c P sqrt(N) / (1 + n).
  EXPECT_DOUBLE_EQ(MctsTree::puctScore(1.5, 0.5, 16, 3, 2.0), 1.5 + 2.0 * 0.5 * 4.0 / 4.0);
}

TEST(PuctSelection, ABarredChildIsNeverSelected) {
  MctsTree tree;
  const uint32_t root = tree.addRoot(10);
  const uint32_t only = tree.addChild(root, 4, 11);
  tree.node(only).prior = 1.0f;
  tree.node(only).visits = 1;
  EXPECT_EQ(tree.selectPuctChild(root, 2.0, [](uint16_t a) { return a != 4; }), MctsTree::kNone);
}

TEST(PuctParameters, AMissingPriorFileIsAClearError) {
  SearchOptions options;
  options.parameters = {{"prior", "/nonexistent/agent.ckpt"}};
  const std::string error = errorOf([&] { MctsParameters::from(options); });
  EXPECT_NE(error.find("/nonexistent/agent.ckpt"), std::string::npos) << error;
  EXPECT_NE(error.find("no such checkpoint file"), std::string::npos) << error;
  options.parameters = {{"prior", ""}};
  EXPECT_NE(errorOf([&] { MctsParameters::from(options); }).find("names no checkpoint"), std::string::npos);
  EXPECT_EQ(MctsParameters::from(SearchOptions{}).valueMix, 1.0) << "the guide's value alone by default (measured, rl-agents.md)";
  options.parameters = {{"value_mix", "1.5"}};
  EXPECT_NE(errorOf([&] { MctsParameters::from(options); }).find("value_mix"), std::string::npos);
  options.parameters = {{"c_puct", "-1"}};
  EXPECT_NE(errorOf([&] { MctsParameters::from(options); }).find("c_puct"), std::string::npos);
}

TEST(PuctSearch, TheGuideSeesEveryPlannedRootAndItsPriorLeadsExpansion) {
  PuctSearchRun search;
  search.options.seed = 5;
  search.options.nodeLimit = 2000;
  search.options.parameters = {{"simulations", "8"}, {"max_steps", "4"}, {"value_mix", "1"}};
  EventRecorder recorder;
  search.events.attach(&recorder);
  auto guide = std::make_shared<OneRuleGuide>("merge-matmuls-sharing-input");
  SearchResult result = search.run(sample("nasrnn.onnx"), guide);
  ASSERT_GT(result.steps, 0);
  EXPECT_GT(guide->evaluations, result.steps) << "the guide reads the roots and the expanded nodes";
  // Every planned root was read as a root first; a rebase is a step without one, and the search may end
  // on a root where nothing is left to do.
  EXPECT_GE(guide->roots, static_cast<int>(guide->plannedVisits.size()));
  EXPECT_LE(guide->roots, result.steps + 1);
  ASSERT_FALSE(guide->plannedVisits.empty());
  for (uint32_t visits : guide->plannedVisits) EXPECT_LE(visits, 8u);
  // The first node expanded below the first root is the rule the guide puts its prior on.
  for (const Event& event : recorder.events)
    if (const auto* created = std::get_if<MctsNodeCreated>(&event.payload); created && created->id != created->parent) {
      EXPECT_EQ(created->action, "merge-matmuls-sharing-input");
      break;
    }
}

// Recorded with `tessera-cli optimize samples/squeezenet.onnx --strategy mcts --node-limit 2000
// --seed 3` at commit e810011, before PUCT existed: plain MCTS must give the same graph.
TEST(PuctSearch, WithoutAPriorMctsIsUnchanged) {
  PuctSearchRun search;
  search.options.seed = 3;
  search.options.nodeLimit = 2000;
  SearchResult result = search.run(sample("squeezenet.onnx"));
  EXPECT_DOUBLE_EQ(result.bestCostMs, 0.14733881938166307);
  EXPECT_EQ(result.steps, 14);
  const std::map<std::string, size_t> applied{{"fuse-conv-relu", 1}, {"predef-enlarge-concat-a0", 32}, {"predef-enlarge-concat-a2", 66},
                                              {"tensat-m11", 168},   {"tensat-m12", 168},              {"tensat-m13", 16},
                                              {"tensat-s063", 25},   {"tensat-s064", 24},              {"tensat-s088", 8}};
  EXPECT_EQ(result.rulesApplied, applied);
}

TEST(PuctSearch, APriorWithoutTheAgentInTheBuildIsAClearError) {
  // This binary links no PUCT agent, so no loader is registered.
  PuctSearchRun search;
  const std::string path = std::string(TESSERA_SOURCE_DIR) + "/samples/nasrnn.onnx"; // exists, so the parameter check passes
  search.options.parameters = {{"prior", path}};
  const std::string error = errorOf([&] { search.run(sample("nasrnn.onnx")); });
  EXPECT_NE(error.find("libtorch"), std::string::npos) << error;
}

TEST(PuctSelection, NormalisedQLetsThePriorWeighAtAnyRewardScale) {
  // Rewards in tens of points drown the prior's term; read on [0, 1] they do not.
  TwoChildren two({8, 8 * 30.0, 0.05f}, {1, 28.0, 0.9f});
  const MctsTree& tree = two.tree;
  const uint32_t root = two.root, known = two.first, favoured = two.second;
  auto all = [](uint16_t) { return true; };
  EXPECT_EQ(tree.selectPuctChild(root, 1.0, all), known);
  ValueBounds bounds;
  for (double value : {0.0, 28.0, 30.0}) bounds.include(value);
  EXPECT_DOUBLE_EQ(bounds.normalised(15.0), 0.5);
  EXPECT_EQ(tree.selectPuctChild(root, 1.0, all, &bounds), favoured);
  EXPECT_DOUBLE_EQ(ValueBounds().normalised(7.0), 7.0) << "no span yet: Q as it is";
}

TEST(PuctSearch, APriorFloorGivesEveryActionThatCanActAShare) {
  // The guide puts everything on one rule; with a floor of 0.5 the rest that match share half.
  PuctSearchRun search;
  search.options.seed = 5;
  search.options.nodeLimit = 2000;
  search.options.parameters = {{"simulations", "16"}, {"max_steps", "3"}, {"prior_floor", "0.5"}, {"q_norm", "1"}};
  EventRecorder recorder;
  search.events.attach(&recorder);
  const std::string chosen = "merge-matmuls-sharing-input";
  search.run(sample("nasrnn.onnx"), std::make_shared<OneRuleGuide>(chosen));
  int others = 0;
  for (const Event& event : recorder.events) {
    const auto* created = std::get_if<MctsNodeCreated>(&event.payload);
    if (!created || !created->prior) continue;
    if (created->action == chosen) {
      EXPECT_GT(*created->prior, 0.5) << "the guide's choice keeps (1 - e) of its prior and a floor share";
      continue;
    }
    ++others;
    EXPECT_GT(*created->prior, 0.0) << created->action << ": without the floor the guide gave it nothing";
    EXPECT_LT(*created->prior, 0.5) << created->action;
  }
  EXPECT_GT(others, 0) << "the floor lets the search try what the guide ruled out";
  SearchOptions options;
  options.parameters = {{"prior_floor", "1"}};
  EXPECT_NE(errorOf([&] { MctsParameters::from(options); }).find("prior_floor"), std::string::npos);
  options.parameters = {{"q_norm", "0.5"}};
  EXPECT_NE(errorOf([&] { MctsParameters::from(options); }).find("q_norm"), std::string::npos);
}
