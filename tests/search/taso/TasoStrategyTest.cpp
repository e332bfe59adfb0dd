#include "search/TasoStrategy.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "rewrite/DefaultRules.h"
#include "support/Error.h"

#include "TasoTestGraphs.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessera;
using tessera::test::pairedBranchesWithTail;
using tessera::test::smallModel;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

// x -> conv 1x1 -> relu: fuse-conv-relu and tensat-s063 both fuse it, to the same graph.
Graph convRelu() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  g.addOutput({g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{x}, {w}})}})}, "y");
  return g;
}

// Two matmuls of one input (tensat-m05 merges them into one matmul and a split).
Graph sharedInputMatmuls() {
  Graph g;
  NodeId x = g.addInput("x", f32({16, 64}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({64, 64}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({64, 64}), 0.2));
  g.addOutput({g.addNode(OpKind::MatMul, {{x}, {w1}})}, "a");
  g.addOutput({g.addNode(OpKind::MatMul, {{x}, {w2}})}, "b");
  return g;
}

struct Outcome {
  SearchResult result;
  std::vector<Event> events;
};

class TasoTest : public ::testing::Test {
protected:
  Outcome run(const std::string& strategy, const Graph& graph, SearchOptions options = {}, Control* control = nullptr,
          const std::vector<const Rule*>* ruleList = nullptr) {
    Control own;
    EventRecorder recorder;
    EventStream events;
    events.attach(&recorder);
    Outcome out;
    out.result = makeStrategy(strategy)->run(
        SearchInput{graph, ruleList ? *ruleList : rules, *cost, control ? *control : own, events, options});
    out.events = std::move(recorder.events);
    return out;
  }

  std::vector<const Rule*> only(std::initializer_list<const char*> names) {
    std::vector<const Rule*> list;
    for (const char* name : names) list.push_back(pack.find(name));
    return list;
  }

  template <typename T>
  static std::vector<T> eventsOf(const Outcome& run) {
    std::vector<T> out;
    for (const Event& event : run.events)
      if (const T* payload = std::get_if<T>(&event.payload)) out.push_back(*payload);
    return out;
  }

  RuleSet pack = defaultRules();
  std::vector<const Rule*> rules = [this] {
    std::vector<const Rule*> list;
    for (const auto& rule : pack.rules()) list.push_back(rule.get());
    return list;
  }();
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
};
} // namespace

TEST_F(TasoTest, GreedyFusesConvAndRelu) {
  Graph original = convRelu();
  Outcome greedy = run("greedy", original);
  const SearchResult& r = greedy.result;
  EXPECT_EQ(r.stopReason, "saturated");
  EXPECT_GT(r.speedupPct, 0.0);
  EXPECT_EQ(r.best.opCount(), 1u);
  ASSERT_GE(r.bestCandidate, 0);
  const Candidate& best = r.candidates[r.bestCandidate];
  EXPECT_EQ(best.method, "greedy");
  EXPECT_NEAR(best.costMs, graphCost(best.graph, *cost).totalMs, 1e-12);
  ASSERT_EQ(best.origins.size(), best.graph.size());
  size_t rewritten = std::count_if(best.origins.begin(), best.origins.end(), [](const NodeOrigin& o) { return !o.rule.empty(); });
  EXPECT_EQ(rewritten, 1u);
  size_t applied = 0;
  for (const auto& [rule, count] : r.rulesApplied) applied += count;
  EXPECT_EQ(applied, 1u);
  // Only the rewrite greedy took is announced, not every improvement it weighed.
  EXPECT_EQ(eventsOf<RuleApplied>(greedy).size(), 1u);
  verifySearchResult(original, greedy.result, 1, 3);
  EXPECT_TRUE(greedy.result.verified) << greedy.result.verifyProblem;
}

TEST_F(TasoTest, GreedyMergesMatmulsThatShareAnInput) {
  Graph original = sharedInputMatmuls();
  Outcome greedy = run("greedy", original);
  EXPECT_GT(greedy.result.speedupPct, 0.0);
  size_t matmuls = 0;
  for (const Node& node : greedy.result.best.nodes()) matmuls += node.kind == OpKind::MatMul;
  EXPECT_EQ(matmuls, 1u);
  EXPECT_EQ(greedy.result.rulesApplied.count("tensat-m05"), 1u);
  verifySearchResult(original, greedy.result, 1, 3);
  EXPECT_TRUE(greedy.result.verified) << greedy.result.verifyProblem;
}

TEST_F(TasoTest, AlphaLetsTasoPassThroughACostlierGraphWhereGreedyIsTrapped) {
  Graph original = pairedBranchesWithTail(40);
  std::vector<const Rule*> two = only({"tensat-m08", "tensat-s115"});
  Outcome greedy = run("greedy", original, {}, nullptr, &two);
  Outcome taso = run("taso", original, {}, nullptr, &two);
  EXPECT_EQ(greedy.result.stopReason, "saturated");
  EXPECT_EQ(greedy.result.speedupPct, 0.0); // every rewrite of the original is costlier
  EXPECT_GT(taso.result.speedupPct, 0.0);
  EXPECT_EQ(taso.result.rulesApplied["tensat-m08"], 1u);
  EXPECT_EQ(taso.result.rulesApplied["tensat-s115"], 1u);
  // Without the slack, taso is as trapped as greedy.
  SearchOptions strict;
  strict.parameters["alpha"] = "1";
  EXPECT_EQ(run("taso", original, strict, nullptr, &two).result.speedupPct, 0.0);
}

TEST_F(TasoTest, TasoIsNeverWorseThanGreedy) {
  Graph original = smallModel();
  SearchOptions options;
  options.parameters["budget"] = "40";
  Outcome greedy = run("greedy", original);
  Outcome taso = run("taso", original, options);
  EXPECT_GT(greedy.result.speedupPct, 0.0);
  EXPECT_LE(taso.result.bestCostMs, greedy.result.bestCostMs);
}

TEST_F(TasoTest, ResultVerifiesAndCandidatesOnlyGetCheaper) {
  Graph original = smallModel();
  SearchOptions options;
  options.parameters["budget"] = "10";
  Outcome taso = run("taso", original, options);
  const SearchResult& r = taso.result;
  EXPECT_EQ(r.stopReason, "budget");
  EXPECT_EQ(r.steps, 10);
  EXPECT_GT(r.enodes, 10u);
  EXPECT_EQ(r.eclasses, 0u);
  ASSERT_FALSE(r.candidates.empty());
  EXPECT_EQ(r.bestCandidate, static_cast<int>(r.candidates.size()) - 1);
  double previous = r.originalCostMs;
  for (const Candidate& candidate : r.candidates) {
    EXPECT_LT(candidate.costMs, previous);
    EXPECT_NEAR(candidate.costMs, graphCost(candidate.graph, *cost).totalMs, 1e-12);
    EXPECT_EQ(candidate.origins.size(), candidate.graph.size());
    EXPECT_FALSE(candidate.graph.hasCycle());
    previous = candidate.costMs;
  }
  // Events agree with the result: one new best each, one committed step per pop.
  EXPECT_EQ(eventsOf<CandidateExtracted>(taso).size(), r.candidates.size());
  EXPECT_EQ(eventsOf<BestCostChanged>(taso).size(), r.candidates.size());
  EXPECT_EQ(eventsOf<StepCommitted>(taso).size(), 10u);
  std::vector<RunStateChanged> states = eventsOf<RunStateChanged>(taso);
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states.back().state, RunState::Finished);
  EXPECT_EQ(states.back().reason, "budget");
  // The path to the best graph: every rewritten node of it came from a rule on that path.
  for (const NodeOrigin& origin : r.candidates[r.bestCandidate].origins)
    if (!origin.rule.empty()) {
      EXPECT_TRUE(r.rulesApplied.count(origin.rule)) << origin.rule;
    }

  verifySearchResult(original, taso.result, 2, 5);
  EXPECT_TRUE(taso.result.verified) << taso.result.verifyProblem;
}

TEST_F(TasoTest, VetoedRuleIsNeverApplied) {
  for (const char* strategy : {"greedy", "taso"}) {
    Control control;
    control.veto("fuse-conv-relu");
    SearchOptions options;
    options.parameters["budget"] = "20";
    Outcome vetoed = run(strategy, smallModel(), options, &control);
    for (const RuleApplied& applied : eventsOf<RuleApplied>(vetoed)) EXPECT_NE(applied.rule, "fuse-conv-relu") << strategy;
    EXPECT_EQ(vetoed.result.rulesApplied.count("fuse-conv-relu"), 0u) << strategy;
    for (const Candidate& candidate : vetoed.result.candidates)
      for (const NodeOrigin& origin : candidate.origins) EXPECT_NE(origin.rule, "fuse-conv-relu") << strategy;
    EXPECT_GT(vetoed.result.speedupPct, 0.0) << strategy << ": other rules still fuse";
    // The veto was recorded at the step it took effect.
    std::vector<UserDecision> decisions = eventsOf<UserDecision>(vetoed);
    ASSERT_EQ(decisions.size(), 1u);
    EXPECT_EQ(decisions[0].kind, DecisionKind::Veto);
    EXPECT_EQ(decisions[0].step, 0);
  }
}

TEST_F(TasoTest, PinnedRuleIsAppliedFirst) {
  // tensat-s063 comes before fuse-conv-relu in the pack; both make the same graph.
  Outcome plain = run("greedy", convRelu());
  EXPECT_EQ(plain.result.rulesApplied.count("tensat-s063"), 1u);
  for (const char* strategy : {"greedy", "taso"}) {
    Control control;
    control.pin("fuse-conv-relu");
    Outcome pinned = run(strategy, convRelu(), {}, &control);
    std::vector<RuleApplied> applied = eventsOf<RuleApplied>(pinned);
    ASSERT_FALSE(applied.empty()) << strategy;
    EXPECT_EQ(applied.front().rule, "fuse-conv-relu") << strategy;
    EXPECT_EQ(pinned.result.rulesApplied.count("fuse-conv-relu"), 1u) << strategy;
    EXPECT_EQ(pinned.result.rulesApplied.count("tensat-s063"), 0u) << strategy;
  }
}

TEST_F(TasoTest, EqualGraphsAreQueuedOnce) {
  // Both fusion rules rewrite conv+relu to the same graph: only the first is queued.
  Outcome taso = run("taso", convRelu());
  int fusionsAtFirstPop = 0;
  for (const RuleApplied& applied : eventsOf<RuleApplied>(taso))
    if (applied.step == 0 && (applied.rule == "tensat-s063" || applied.rule == "fuse-conv-relu")) ++fusionsAtFirstPop;
  EXPECT_EQ(fusionsAtFirstPop, 1);
  // Every queued graph was popped (the queue ran dry) and each is distinct from the others.
  EXPECT_EQ(taso.result.stopReason, "saturated");
  EXPECT_EQ(static_cast<size_t>(taso.result.steps), eventsOf<RuleApplied>(taso).size() + 1);
}

TEST_F(TasoTest, OpCapRejectsLargerGraphs) {
  Graph original = sharedInputMatmuls(); // merging adds a weight concat and a split: 2 ops -> 3
  SearchOptions capped;
  capped.nodeLimit = original.opCount();
  for (const char* strategy : {"greedy", "taso"}) {
    Outcome capped1 = run(strategy, original, capped);
    EXPECT_EQ(capped1.result.speedupPct, 0.0) << strategy;
    for (const Candidate& candidate : capped1.result.candidates) EXPECT_LE(candidate.graph.opCount(), capped.nodeLimit);
    EXPECT_GT(run(strategy, original).result.speedupPct, 0.0) << strategy;
  }
}

TEST_F(TasoTest, SameInputSameRun) {
  SearchOptions options;
  options.parameters["budget"] = "25";
  Outcome first = run("taso", smallModel(), options);
  Outcome second = run("taso", smallModel(), options);
  EXPECT_EQ(first.result.bestCostMs, second.result.bestCostMs);
  EXPECT_TRUE(structurallyEqual(first.result.best, second.result.best));
  EXPECT_EQ(first.result.enodes, second.result.enodes);
  std::vector<RuleApplied> a = eventsOf<RuleApplied>(first), b = eventsOf<RuleApplied>(second);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].rule, b[i].rule);
    EXPECT_EQ(a[i].step, b[i].step);
  }
}

TEST_F(TasoTest, ASmallerBudgetPopsAPrefixOfTheSameOrder) {
  // Trimming the queue to the remaining pops and not building what would be trimmed is lossless.
  auto pops = [&](const char* budget) {
    SearchOptions options;
    options.parameters["budget"] = budget;
    std::vector<std::pair<std::string, size_t>> order;
    for (const StepCommitted& step : eventsOf<StepCommitted>(run("taso", smallModel(), options)))
      order.emplace_back(step.action, step.enodes);
    return order;
  };
  std::vector<std::pair<std::string, size_t>> few = pops("4"), many = pops("15");
  ASSERT_EQ(few.size(), 4u);
  ASSERT_GT(many.size(), few.size());
  EXPECT_TRUE(std::equal(few.begin(), few.end(), many.begin()));
}

// Stops the search the moment it commits its second step.
class StopAtSecondStep : public EventSink {
public:
  explicit StopAtSecondStep(Control& control) : control_(control) {}
  void receive(const Event& event) override {
    if (const auto* step = std::get_if<StepCommitted>(&event.payload); step && step->step == 1) control_.stop();
  }

private:
  Control& control_;
};

TEST_F(TasoTest, StopsWhenAskedBetweenOrWithinSteps) {
  for (const char* strategy : {"greedy", "taso"}) {
    Control control;
    StopAtSecondStep stopper(control);
    EventRecorder recorder;
    EventStream events;
    events.attach(&stopper);
    events.attach(&recorder);
    Graph original = smallModel();
    SearchResult r = makeStrategy(strategy)->run(SearchInput{original, rules, *cost, control, events, {}});
    EXPECT_EQ(r.stopReason, "stopped_by_user") << strategy;
    EXPECT_EQ(r.steps, 2) << strategy;
    const auto* last = std::get_if<RunStateChanged>(&recorder.events.back().payload);
    ASSERT_TRUE(last);
    EXPECT_EQ(last->state, RunState::Stopped);
    EXPECT_LE(r.bestCostMs, r.originalCostMs);
  }
  Control stopped;
  stopped.stop();
  Outcome before = run("taso", smallModel(), {}, &stopped);
  EXPECT_EQ(before.result.stopReason, "stopped_by_user");
  EXPECT_EQ(before.result.steps, 0);
  EXPECT_EQ(before.result.bestCandidate, -1);
}

TEST_F(TasoTest, TimeLimitStopsTheSearch) {
  SearchOptions options;
  options.timeLimitSeconds = 1e-9;
  Outcome taso = run("taso", smallModel(), options);
  EXPECT_EQ(taso.result.stopReason, "time_limit");
  EXPECT_LE(taso.result.steps, 1);
}

TEST_F(TasoTest, RejectsBadParameters) {
  auto fails = [&](const char* strategy, const char* name, const char* value) {
    SearchOptions options;
    options.parameters[name] = value;
    try {
      run(strategy, convRelu(), options);
    } catch (const Error& e) {
      return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(fails("taso", "alpha", "0.5"));
  EXPECT_TRUE(fails("taso", "alpha", "fast"));
  EXPECT_TRUE(fails("taso", "budget", "0"));
  EXPECT_TRUE(fails("taso", "budget", "2.5"));
  EXPECT_TRUE(fails("taso", "simulations", "3"));
  EXPECT_TRUE(fails("greedy", "alpha", "1.05")); // greedy is alpha = 1 by definition
  EXPECT_EQ(makeStrategy("taso")->name(), "taso");
  EXPECT_EQ(makeStrategy("greedy")->name(), "greedy");
}
