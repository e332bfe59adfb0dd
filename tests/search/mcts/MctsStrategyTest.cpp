#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "egraph/GraphConversion.h"
#include "onnx/OnnxImport.h"
#include "replay/ReplayModel.h"
#include "rewrite/DefaultRules.h"
#include "search/MctsStrategy.h"
#include "search/mcts/MctsPlanner.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <thread>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

// Inception-style branches twice over: 1x1 and 3x3 convs of one input, each followed by relu and
// concatenated. Fusion, enlarge/concat merging and the tensat rules all find work here.
Graph branches() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId previous = x;
  for (int stage = 0; stage < 2; ++stage) {
    const int channels = stage == 0 ? 8 : 16;
    std::string s = std::to_string(stage);
    NodeId w1 = g.addWeight("w1_" + s, Tensor::splat(f32({8, channels, 1, 1}), 0.1));
    NodeId w2 = g.addWeight("w2_" + s, Tensor::splat(f32({8, channels, 3, 3}), 0.05));
    NodeId a = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{previous}, {w1}})}});
    NodeId b = g.addNode(OpKind::Relu, {{g.addNode(OpKind::Conv, {{previous}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}})}});
    previous = g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}});
  }
  g.addOutput({previous}, "y");
  return g;
}

struct Fixture {
  RuleSet pack = defaultRules();
  std::vector<const Rule*> rules;
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  EventRecorder recorder;
  SearchOptions options;

  explicit Fixture(bool record = true) {
    for (const auto& rule : pack.rules()) rules.push_back(rule.get());
    if (record) events.attach(&recorder);
    options.seed = 7;
    options.nodeLimit = 300; // multi-pattern rules grow this model fast; keep every test quick
    options.parameters = {{"simulations", "8"}, {"rollout_depth", "2"}};
  }
  SearchResult run(const Graph& model) {
    SearchInput input{model, rules, *cost, control, events, options};
    return makeMctsStrategy()->run(input);
  }
};

std::string describe(const Event& event) {
  std::ostringstream out;
  out << eventKindName(event.kind());
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, ENodeAdded>) out << " " << p.eclass;
        else if constexpr (std::is_same_v<T, ClassesMerged>) out << " " << p.kept << "<-" << p.absorbed;
        else if constexpr (std::is_same_v<T, RuleApplied>) out << " " << p.rule << "@" << p.step << " +" << p.newNodes;
        else if constexpr (std::is_same_v<T, MctsNodeCreated>) out << " " << p.id << "<" << p.parent << " " << p.action << " " << p.enodes;
        else if constexpr (std::is_same_v<T, MctsNodeVisited>) out << " " << p.id;
        else if constexpr (std::is_same_v<T, MctsBackedUp>) out << " " << p.id << " " << p.visits << " " << p.totalValue;
        else if constexpr (std::is_same_v<T, StepCommitted>) out << " " << p.step << " " << p.action << " " << p.mctsNode << " " << p.enodes;
        else if constexpr (std::is_same_v<T, CandidateExtracted>) out << " " << p.candidate << " " << p.costMs;
        else if constexpr (std::is_same_v<T, BestCostChanged>) out << " " << p.costMs;
        else if constexpr (std::is_same_v<T, RunStateChanged>) out << " " << runStateName(p.state) << " " << p.reason;
        else if constexpr (std::is_same_v<T, UserDecision>) out << " " << decisionName(p.kind) << " " << p.rule << "@" << p.step;
        else if constexpr (std::is_same_v<T, EGraphRebased>) out << " @" << p.step << " seed " << p.seed.size();
      },
      event.payload);
  return out.str();
}

template <class T> std::vector<T> eventsOf(const EventRecorder& recorder) {
  std::vector<T> out;
  for (const Event& event : recorder.events)
    if (const T* payload = std::get_if<T>(&event.payload)) out.push_back(*payload);
  return out;
}
} // namespace

TEST(MctsStrategy, FindsACheaperGraphThatVerifies) {
  Fixture f;
  Graph original = branches();
  SearchResult result = f.run(original);
  EXPECT_GT(result.speedupPct, 0.0);
  EXPECT_LT(result.bestCostMs, result.originalCostMs);
  EXPECT_NEAR(result.bestCostMs, graphCost(result.best, *f.cost).totalMs, 1e-12);
  EXPECT_GT(result.steps, 0);
  EXPECT_FALSE(result.rulesApplied.empty());
  verifySearchResult(original, result, 2, 3);
  EXPECT_TRUE(result.verified) << result.verifyProblem;
  // Every candidate's origins name rules that were committed.
  for (const Candidate& candidate : result.candidates) {
    ASSERT_EQ(candidate.origins.size(), candidate.graph.size());
    for (const NodeOrigin& origin : candidate.origins)
      if (!origin.rule.empty()) {
        EXPECT_TRUE(result.rulesApplied.count(origin.rule)) << origin.rule;
      }
  }
}

TEST(MctsStrategy, SameSeedSameResultAndSameEvents) {
  Fixture a, b;
  SearchResult first = a.run(branches()), second = b.run(branches());
  EXPECT_EQ(first.bestCostMs, second.bestCostMs);
  EXPECT_EQ(first.steps, second.steps);
  EXPECT_EQ(first.rulesApplied, second.rulesApplied);
  ASSERT_EQ(a.recorder.events.size(), b.recorder.events.size());
  for (size_t i = 0; i < a.recorder.events.size(); ++i)
    ASSERT_EQ(describe(a.recorder.events[i]), describe(b.recorder.events[i])) << "event " << i;
}

TEST(MctsStrategy, NodeIdsAreDenseAndUniqueAcrossReplans) {
  Fixture f;
  SearchResult result = f.run(branches());
  auto created = eventsOf<MctsNodeCreated>(f.recorder);
  ASSERT_FALSE(created.empty());
  for (size_t i = 0; i < created.size(); ++i) {
    EXPECT_EQ(created[i].id, i);
    EXPECT_LE(created[i].parent, created[i].id);
  }
  // Each committed node hangs below the previous one.
  auto steps = eventsOf<StepCommitted>(f.recorder);
  ASSERT_EQ(steps.size(), static_cast<size_t>(result.steps));
  uint32_t parent = 0;
  for (const StepCommitted& step : steps) {
    EXPECT_EQ(created[step.mctsNode].parent, parent);
    EXPECT_EQ(created[step.mctsNode].action, step.action);
    parent = step.mctsNode;
  }
}

TEST(MctsStrategy, VetoedRuleIsNeverApplied) {
  Fixture f;
  f.control.veto("fuse-conv-relu");
  SearchResult result = f.run(branches());
  EXPECT_EQ(result.rulesApplied.count("fuse-conv-relu"), 0u);
  for (const auto& applied : eventsOf<RuleApplied>(f.recorder)) EXPECT_NE(applied.rule, "fuse-conv-relu");
  for (const auto& created : eventsOf<MctsNodeCreated>(f.recorder)) EXPECT_NE(created.action, "fuse-conv-relu");
  for (const Candidate& candidate : result.candidates)
    for (const NodeOrigin& origin : candidate.origins) EXPECT_NE(origin.rule, "fuse-conv-relu");
  auto decisions = eventsOf<UserDecision>(f.recorder);
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].kind, DecisionKind::Veto);
}

TEST(MctsStrategy, PinnedRuleIsAppliedFirst) {
  // Pin the last rule of the pack that changes the model, so MCTS would not pick it first by luck.
  Fixture f;
  Graph model = branches();
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, model);
  egraph.rebuild();
  std::string pinned;
  for (const Rule* rule : f.rules) {
    EGraph::Checkpoint checkpoint = egraph.checkpoint();
    if (mcts::applyRuleAction(egraph, seed.outputs, *rule, 100000).changed() && rule->name() != "fuse-conv-relu")
      pinned = rule->name();
    egraph.rollback(checkpoint);
  }
  ASSERT_FALSE(pinned.empty());
  f.control.pin(pinned);
  SearchResult result = f.run(model);
  auto applied = eventsOf<RuleApplied>(f.recorder);
  ASSERT_FALSE(applied.empty());
  EXPECT_EQ(applied.front().rule, pinned);
  EXPECT_EQ(applied.front().step, 0);
  auto steps = eventsOf<StepCommitted>(f.recorder);
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.front().action, pinned);
  EXPECT_GT(result.rulesApplied[pinned], 0u);
}

TEST(MctsStrategy, RespectsTheNodeLimit) {
  Fixture f;
  Graph model = branches();
  EGraph seeded;
  seedEGraph(seeded, model);
  // Every rule that changes this model adds at least as many nodes as it has conv-relu pairs (4).
  f.options.nodeLimit = seeded.numNodes() + 3;
  f.options.parameters["rebase"] = "0"; // one e-graph; the rebase test checks every epoch's size
  SearchResult result = f.run(model);
  EXPECT_EQ(result.stopReason, "node_limit");
  // One rule application may finish the pattern it started: a few nodes of slack, never a rule's worth.
  EXPECT_LE(result.enodes, f.options.nodeLimit + 8);
  for (const auto& created : eventsOf<MctsNodeCreated>(f.recorder)) EXPECT_LE(created.enodes, f.options.nodeLimit + 8);
}

TEST(MctsStrategy, NeverReturnsACostlierGraph) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  g.addOutput({g.addNode(OpKind::Exp, {{x}})}, "y");
  Fixture f;
  SearchResult result = f.run(g);
  EXPECT_EQ(result.stopReason, "saturated");
  EXPECT_EQ(result.bestCandidate, -1);
  EXPECT_EQ(result.speedupPct, 0.0);
  EXPECT_EQ(result.bestCostMs, result.originalCostMs);
  EXPECT_EQ(result.best.opCount(), g.opCount());
}

TEST(MctsStrategy, RollbackLeavesTheCommittedEGraphUnchanged) {
  Fixture f(false);
  EGraph egraph;
  SeededGraph seed = seedEGraph(egraph, branches());
  egraph.rebuild();
  const size_t nodes = egraph.numNodes(), classes = egraph.numClasses();
  mcts::MctsParameters params = mcts::MctsParameters::from(f.options);
  mcts::StateCoster coster(*f.cost, extract::ExtractionMethod::DagGreedy);
  mcts::RolloutPolicy rollout(params.rollout, f.rules.size());
  mcts::MctsTree tree;
  std::mt19937_64 rng(1);
  mcts::ActionSpace space = mcts::ActionSpace::arrange(f.rules, f.control);
  mcts::MctsPlanner planner({egraph, seed, tree, coster, rollout, rng, f.events, params, 1.0,
                             [&]() -> const mcts::ActionSpace& { return space; }, [] { return false; }});
  uint32_t root = tree.addRoot(nodes);
  tree.node(root).stateCost = coster.price(egraph, seed);
  tree.replanFrom(root, space.order);
  EXPECT_EQ(planner.plan(root), params.simulations);
  EXPECT_GT(tree.size(), 1u);
  EXPECT_EQ(egraph.numNodes(), nodes);
  EXPECT_EQ(egraph.numClasses(), classes);
  EXPECT_EQ(egraph.checkpointDepth(), 0u);
  EXPECT_EQ(egraph.checkInvariants(), "");
  for (uint32_t child : tree.node(root).children) EXPECT_GT(tree.node(child).enodes, nodes);
}

TEST(MctsStrategy, StopRequestedDuringSimulationsStopsPromptly) {
  // A sink that presses stop at the 20th backup, in the middle of the first step's simulations.
  struct StopAfterBackups : EventSink {
    Control* control = nullptr;
    int backups = 0, afterStop = 0;
    void receive(const Event& event) override {
      if (event.kind() != EventKind::MctsBackedUp) return;
      if (control->stopRequested()) ++afterStop;
      if (++backups == 20) control->stop();
    }
  } sink;
  Fixture f(false);
  sink.control = &f.control;
  f.events.attach(&sink);
  f.options.parameters["simulations"] = "500";
  SearchResult result = f.run(branches());
  EXPECT_EQ(result.stopReason, "stopped_by_user");
  EXPECT_EQ(result.steps, 0);
  EXPECT_LE(sink.afterStop, 4); // at most what was left of the simulation under way
  EXPECT_GE(result.bestCostMs, 0.0);
}

TEST(MctsStrategy, PausedSearchAdvancesOneStepPerStepCommand) {
  struct StepCounter : EventSink {
    std::mutex mutex;
    std::condition_variable changed;
    int steps = 0;
    void receive(const Event& event) override {
      if (event.kind() != EventKind::StepCommitted) return;
      std::lock_guard lock(mutex);
      ++steps;
      changed.notify_all();
    }
    bool waitFor(int count) {
      std::unique_lock lock(mutex);
      return changed.wait_for(lock, std::chrono::seconds(20), [&] { return steps >= count; });
    }
    int now() {
      std::lock_guard lock(mutex);
      return steps;
    }
  } counter;
  Fixture f;
  f.events.attach(&counter);
  f.control.pause();
  SearchResult result;
  std::thread search([&] { result = f.run(branches()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(counter.now(), 0);
  for (int expected = 1; expected <= 2; ++expected) {
    f.control.step();
    EXPECT_TRUE(counter.waitFor(expected));
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_EQ(counter.now(), expected);
  }
  f.control.stop();
  search.join();
  EXPECT_EQ(result.steps, 2);
  EXPECT_EQ(result.stopReason, "stopped_by_user");
  auto states = eventsOf<RunStateChanged>(f.recorder);
  ASSERT_FALSE(states.empty());
  EXPECT_EQ(states.back().state, RunState::Stopped);
}

TEST(MctsStrategy, EveryRolloutPolicyRuns) {
  for (const char* policy : {"random", "pruned", "heavy", "lookahead"}) {
    Fixture f(false);
    f.options.parameters = {{"simulations", "6"}, {"rollout", policy}, {"rollout_depth", "3"}};
    SearchResult result = f.run(branches());
    EXPECT_GT(result.speedupPct, 0.0) << policy;
    EXPECT_FALSE(result.stopReason.empty()) << policy;
  }
}

TEST(MctsStrategy, RejectsBadParameters) {
  for (auto [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"simulation", "3"}, {"simulations", "0"}, {"simulations", "ten"}, {"gamma", "1.5"},
           {"rollout", "greedy"}, {"reward_extract", "best"}, {"exploration", "-1"}, {"extract_main", "lp"},
           {"extract_final", "exact"}}) {
    Fixture f(false);
    f.options.parameters = {{name, value}};
    try {
      f.run(branches());
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
    }
  }
}

// PACT'24's main/final pair: the final candidate comes from extract_final, whatever --extract says,
// and extract_main is reward_extract by its paper name.
TEST(MctsStrategy, ExtractMainAndFinalChooseTheTwoExtractions) {
  Fixture f(false);
  f.options.extractMethod = "dag";
  f.options.parameters = {{"simulations", "4"}, {"extract_main", "ocf"}, {"extract_final", "tree"}, {"rebase", "0"}};
  SearchResult result = f.run(branches());
  ASSERT_GE(result.candidates.size(), 2u) << "a committed step that improved, then the final extraction";
  EXPECT_EQ(result.candidates.back().method, "tree");
  for (size_t i = 0; i + 1 < result.candidates.size(); ++i) EXPECT_EQ(result.candidates[i].method, "ocf") << i;

  Fixture g(false);
  g.options.parameters = {{"reward_extract", "dag"}, {"extract_main", "ocf"}};
  EXPECT_THROW(g.run(branches()), Error);
}

TEST(MctsStrategy, HonoursTheTimeLimitIncludingExtraction) {
  Fixture f(false);
  f.options.timeLimitSeconds = 1.5;
  f.options.parameters = {{"simulations", "100000"}};
  Graph model = onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/squeezenet.onnx");
  auto start = std::chrono::steady_clock::now();
  SearchResult result = f.run(model);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.stopReason, "time_limit");
  EXPECT_LE(seconds, 1.5 * 1.1);
  EXPECT_LE(result.searchSeconds + result.extractionSeconds, 1.5 * 1.1);
  EXPECT_GE(result.bestCostMs, 0.0);
  EXPECT_LE(result.bestCostMs, result.originalCostMs);
}

// A full e-graph is not the end: the best graph so far seeds a fresh e-graph (an epoch) while each
// epoch finds something cheaper. Every epoch stays under the node limit, the events say where each
// began (with the seed's provenance), the replayed mirror starts over, and the result verifies.
TEST(MctsStrategy, AFullEGraphIsRebasedOntoTheBestGraphAndTheSearchGoesOn) {
  Fixture once;
  once.options.extractMethod = "ilp";
  once.options.parameters["rebase"] = "0";
  const SearchResult single = once.run(branches());
  EXPECT_EQ(single.stopReason, "node_limit");
  EXPECT_TRUE(eventsOf<EGraphRebased>(once.recorder).empty());

  Fixture f;
  f.options.extractMethod = "ilp";
  SearchResult result = f.run(branches());
  const std::vector<EGraphRebased> rebases = eventsOf<EGraphRebased>(f.recorder);
  ASSERT_FALSE(rebases.empty()) << "the first e-graph fills up at 300 e-nodes";
  EXPECT_LE(result.bestCostMs, single.bestCostMs);
  verifySearchResult(branches(), result, 1, 3);
  EXPECT_TRUE(result.verified) << result.verifyProblem;

  // Each rebase is a committed step of its own, and each epoch's e-graph stays within the limit.
  size_t rebaseSteps = 0;
  for (const StepCommitted& step : eventsOf<StepCommitted>(f.recorder)) {
    EXPECT_LE(step.enodes, f.options.nodeLimit + 8);
    rebaseSteps += step.action == kRebaseAction;
  }
  EXPECT_EQ(rebaseSteps, rebases.size());
  // The seed of a later epoch keeps the rules that made it.
  bool seedFromRules = false;
  for (const EGraphRebased& rebase : rebases)
    for (const SeedOrigin& origin : rebase.seed) seedFromRules |= !origin.rule.empty();
  EXPECT_TRUE(seedFromRules);

  ReplayModel replay;
  replay.append(f.recorder.events);
  const ReplayState& end = replay.seekToEnd();
  EXPECT_EQ(end.egraph.epoch(), static_cast<int>(rebases.size()));
  EXPECT_EQ(end.egraph.numNodes(), result.enodes);
  ASSERT_FALSE(end.bestCost.empty());
  EXPECT_NEAR(end.bestCost.back().costMs, result.bestCostMs, 1e-12);

  // The best graph's rewritten nodes are explained, across epochs.
  ASSERT_GE(result.bestCandidate, 0);
  const Candidate& best = result.candidates[result.bestCandidate];
  EXPECT_TRUE(std::any_of(best.origins.begin(), best.origins.end(), [](const NodeOrigin& o) { return !o.rule.empty(); }));
}
