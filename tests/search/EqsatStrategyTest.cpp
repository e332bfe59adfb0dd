#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"
#include "support/Error.h"

#include "BranchesGraph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

using test::branches;

std::vector<const Rule*> all(const RuleSet& rules) {
  std::vector<const Rule*> out;
  for (const auto& rule : rules.rules()) out.push_back(rule.get());
  return out;
}

struct Fixture {
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list = all(rules);
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  EventRecorder recorder;

  SearchResult run(const Graph& graph, SearchOptions options = {}) {
    events.attach(&recorder);
    SearchInput input{graph, list, *cost, control, events, options};
    return makeStrategy("eqsat")->run(input);
  }
};

template <class T> std::vector<const T*> eventsOf(const EventRecorder& recorder) {
  std::vector<const T*> out;
  for (const Event& e : recorder.events)
    if (auto* p = std::get_if<T>(&e.payload)) out.push_back(p);
  return out;
}
} // namespace

TEST(EqsatStrategy, FindsACheaperVerifiedGraphWithEveryExtractor) {
  for (const char* method : {"tree", "ocf", "dag", "ilp"}) {
    Fixture f;
    Graph original = branches();
    SearchOptions options;
    options.extractMethod = method;
    options.nodeLimit = 5000;
    options.multiIterations = 1;                    // TENSAT's k_multi: one round, spent first,
    options.parameters["multi_schedule"] = "first"; // so fusion only: the late merges keep the op count
    SearchResult result = f.run(original, options);
    ASSERT_EQ(result.bestCandidate, 0) << method;
    EXPECT_GT(result.speedupPct, 0.0) << method;
    EXPECT_LT(result.best.opCount(), original.opCount()) << method;
    EXPECT_NEAR(result.bestCostMs, graphCost(result.best, *f.cost).totalMs, 1e-12);
    EXPECT_GT(result.rulesApplied["fuse-conv-relu"] + result.rulesApplied["tensat-s063"], 0u);
    verifySearchResult(original, result, 1, 7);
    EXPECT_TRUE(result.verified) << method << ": " << result.verifyProblem;
  }
}

// TENSAT spends k_multi on the first iteration, where the relu fusion has not happened yet, so the
// enlarge/concat merge of the two fused convs never matches; the late schedule runs it after the
// single-pattern fixpoint and finds the merged, cheaper graph.
TEST(EqsatStrategy, LateMultiPatternIterationsSeeWhatSingleRewritesMade) {
  SearchResult late, first;
  for (const char* schedule : {"late", "first"}) {
    Fixture f;
    SearchOptions options;
    options.extractMethod = "ilp";
    options.multiIterations = 1; // TENSAT's: a second round would reach the fused convs either way
    options.parameters["multi_schedule"] = schedule;
    (std::string(schedule) == "late" ? late : first) = f.run(branches(), options);
  }
  EXPECT_EQ(first.rulesApplied["predef-enlarge-concat-a2"], 0u);
  EXPECT_GT(late.rulesApplied["predef-enlarge-concat-a2"], 0u);
  EXPECT_LT(late.bestCostMs, first.bestCostMs);
  verifySearchResult(branches(), late, 1, 7);
  EXPECT_TRUE(late.verified) << late.verifyProblem;
  EXPECT_EQ(late.stopReason, "saturated");

  Fixture f;
  SearchOptions bad;
  bad.parameters["multi_schedule"] = "sometimes";
  EXPECT_THROW(f.run(branches(), bad), Error);
}

// On SqueezeNet a second round of multi-pattern merges closes cycles whose filtering drops e-nodes
// the first round's best graph needed: extracted at the end, k_multi 2 alone would cost more than
// k_multi 1. The graph extracted before the second round is a candidate, so it never does.
TEST(EqsatStrategy, ASecondMultiPatternRoundNeverLosesTheGraphTheFirstFound) {
  const Graph squeezenet = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/squeezenet.onnx");
  auto withRounds = [&](int rounds) {
    Fixture f;
    SearchOptions options;
    options.multiIterations = rounds;
    return f.run(squeezenet, options);
  };
  const SearchResult one = withRounds(1);
  SearchResult two = withRounds(2);
  ASSERT_EQ(one.candidates.size(), 1u);
  ASSERT_EQ(two.candidates.size(), 2u); // before round 2, and at the end
  EXPECT_NEAR(two.candidates[0].costMs, one.bestCostMs, 1e-12) << "before round 2 the e-graph is k_multi 1's";
  EXPECT_GT(two.candidates[1].costMs, two.candidates[0].costMs) << "the end of round 2 lost the first round's graph";
  EXPECT_EQ(two.bestCandidate, 0);
  EXPECT_LE(two.bestCostMs, one.bestCostMs);
  verifySearchResult(squeezenet, two, 1, 7);
  EXPECT_TRUE(two.verified) << two.verifyProblem;
}

// Three projections of one input: TENSAT's QKV merge (tensat-m05) pairs them up.
Graph projections() {
  Graph g;
  NodeId x = g.addInput("x", f32({64, 128}));
  for (const char* w : {"wq", "wk", "wv"})
    g.addOutput({g.addNode(OpKind::MatMul, {{x}, {g.addWeight(w, Tensor::splat(f32({128, 128}), 0.01))}})}, std::string("y") + w);
  return g;
}

TEST(EqsatStrategy, TensatPresetMergesTheProjectionsInTheFirstIterations) {
  Fixture f;
  SearchOptions options;
  options.parameters["tensat"] = "1";
  options.multiIterations = 2;
  SearchResult result = f.run(projections(), options);
  // Three unordered pairs in iteration 0 (a symmetric rule), then pairs with the merged matmuls.
  EXPECT_GE(result.rulesApplied["tensat-m05"], 3u);
  EXPECT_LE(result.enodesFiltered, result.enodes);
  EXPECT_LT(result.bestCostMs, result.originalCostMs);
  verifySearchResult(projections(), result, 1, 7);
  EXPECT_TRUE(result.verified) << result.verifyProblem;

  Fixture g;
  SearchOptions bad;
  bad.parameters["tensat"] = "-1";
  EXPECT_THROW(g.run(projections(), bad), Error);
}

TEST(EqsatStrategy, ReturnsTheOriginalWhenNothingIsCheaper) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  g.addOutput({g.addNode(OpKind::Exp, {{x}})}, "y");
  Fixture f;
  SearchResult result = f.run(g);
  EXPECT_EQ(result.bestCandidate, -1);
  EXPECT_EQ(result.speedupPct, 0.0);
  EXPECT_EQ(result.stopReason, "saturated");
}

TEST(EqsatStrategy, ProvenanceNamesTheRulesThatCreatedNewNodes) {
  Fixture f;
  SearchResult result = f.run(branches());
  ASSERT_EQ(result.bestCandidate, 0);
  const Candidate& best = result.candidates[0];
  ASSERT_EQ(best.origins.size(), best.graph.size());
  size_t rewritten = 0;
  for (NodeId id = 0; id < best.graph.size(); ++id) {
    const NodeOrigin& origin = best.origins[id];
    const OpKind kind = best.graph.node(id).kind;
    if (kind == OpKind::Input || kind == OpKind::Weight) {
      EXPECT_TRUE(origin.rule.empty());
    }
    if (origin.rule.empty()) continue;
    ++rewritten;
    EXPECT_GT(result.rulesApplied.count(origin.rule), 0u) << origin.rule;
    EXPECT_GE(origin.step, 0);
    EXPECT_LT(origin.step, result.steps);
  }
  EXPECT_GT(rewritten, 0u); // the fused conv came from a rule
}

TEST(EqsatStrategy, EmitsRuleAndNodeEventsInOrder) {
  Fixture f;
  SearchResult result = f.run(branches());
  ASSERT_FALSE(f.recorder.events.empty());
  for (size_t i = 0; i < f.recorder.events.size(); ++i) EXPECT_EQ(f.recorder.events[i].sequence, i);
  EXPECT_EQ(f.recorder.events.front().kind(), EventKind::RunStateChanged);
  EXPECT_EQ(f.recorder.events.back().kind(), EventKind::RunStateChanged);
  size_t applied = 0;
  for (const RuleApplied* e : eventsOf<RuleApplied>(f.recorder)) applied += e->newNodes > 0 || !e->results.empty();
  EXPECT_GT(applied, 0u);
  EXPECT_EQ(eventsOf<StepCommitted>(f.recorder).size(), static_cast<size_t>(result.steps));
  EXPECT_GT(eventsOf<ENodeAdded>(f.recorder).size(), 0u);
  // One candidate before each multi-pattern round after the first, one at the end.
  EXPECT_EQ(eventsOf<CandidateExtracted>(f.recorder).size(), static_cast<size_t>(SearchOptions{}.multiIterations));
  EXPECT_EQ(result.candidates.size(), static_cast<size_t>(SearchOptions{}.multiIterations));
}

TEST(EqsatStrategy, VetoedRuleIsNeverApplied) {
  Fixture f;
  f.control.veto("fuse-conv-relu");
  SearchResult result = f.run(branches());
  EXPECT_EQ(result.rulesApplied.count("fuse-conv-relu"), 0u);
  for (const RuleApplied* e : eventsOf<RuleApplied>(f.recorder)) EXPECT_NE(e->rule, "fuse-conv-relu");
  for (const Candidate& c : result.candidates)
    for (const NodeOrigin& o : c.origins) EXPECT_NE(o.rule, "fuse-conv-relu");
  auto decisions = eventsOf<UserDecision>(f.recorder);
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0]->kind, DecisionKind::Veto);
}

TEST(EqsatStrategy, PinnedRuleIsAppliedFirst) {
  Fixture f;
  f.control.pin("fuse-conv-relu");
  f.run(branches());
  auto applied = eventsOf<RuleApplied>(f.recorder);
  ASSERT_FALSE(applied.empty());
  EXPECT_EQ(applied.front()->rule, "fuse-conv-relu");
}

TEST(EqsatStrategy, StopBeforeTheFirstIterationStillReturnsAGraph) {
  Fixture f;
  f.control.stop();
  Graph original = branches();
  SearchResult result = f.run(original);
  EXPECT_EQ(result.stopReason, "stopped_by_user");
  EXPECT_EQ(result.steps, 0);
  EXPECT_EQ(result.best.opCount(), original.compacted().opCount());
}

TEST(EqsatStrategy, PausedRunAdvancesOneIterationPerStep) {
  Fixture f;
  EventQueue queue;
  f.events.attach(&queue);
  f.control.pause();
  SearchResult result;
  std::thread worker([&] { result = f.run(branches()); });
  auto committed = [&](std::vector<Event>& seen) {
    for (Event& e : queue.drain()) seen.push_back(std::move(e));
    return std::count_if(seen.begin(), seen.end(), [](const Event& e) { return e.kind() == EventKind::StepCommitted; });
  };
  std::vector<Event> seen;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(committed(seen), 0); // nothing runs while paused
  f.control.step();
  while (committed(seen) < 1) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(committed(seen), 1); // exactly one iteration per step
  f.control.stop();
  worker.join();
  EXPECT_EQ(result.steps, 1);
  EXPECT_EQ(result.stopReason, "stopped_by_user");
}

TEST(Strategy, UnknownNamesAreRefusedClearly) {
  EXPECT_THROW(makeStrategy("annealing"), Error);
  Fixture f;
  EXPECT_THROW(checkRuleNames(f.list, {"no-such-rule"}), Error);
  EXPECT_NO_THROW(checkRuleNames(f.list, {"fuse-conv-relu"}));
  SearchOptions options;
  options.parameters["bogus"] = "1";
  EXPECT_THROW(f.run(branches(), options), Error);
}

TEST(Strategy, ArrangeRulesPutsPinsFirstAndDropsVetoes) {
  Fixture f;
  f.control.pin(f.list[5]->name());
  f.control.veto(f.list[0]->name());
  std::vector<const Rule*> arranged = arrangeRules(f.list, f.control);
  ASSERT_EQ(arranged.size(), f.list.size() - 1);
  EXPECT_EQ(arranged.front(), f.list[5]);
  EXPECT_EQ(std::count(arranged.begin(), arranged.end(), f.list[0]), 0);
}
