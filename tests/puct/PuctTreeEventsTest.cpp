// PUCT's prior on the MCTS tree's events: the node-created event carries it through the event
// codec, a session and the replay mirror; plain MCTS and sessions older than the field carry none.
#include "PuctTestSearch.h"

#include "replay/ReplayState.h"
#include "session/EventCodec.h"
#include "session/Session.h"

#include "../rl/RlTestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace tessera;
using namespace tessera::mcts;

namespace {

// A nearly flat guide (so the search still spreads out) whose prior grows with the rule's place in
// the pack, so every action's prior differs.
class RankedGuide final : public PriorModel {
public:
  static float priorOf(size_t rule, size_t rules) {
    return static_cast<float>(100 + rule) / static_cast<float>(100 * rules + rules * (rules - 1) / 2);
  }
  Guidance evaluate(const SearchState& state) override {
    Guidance guidance;
    for (size_t r = 0; r < state.space.rules.size(); ++r) guidance.prior.push_back(priorOf(r, state.space.rules.size()));
    return guidance;
  }
};

std::vector<const MctsNodeCreated*> createdNodes(const std::vector<Event>& events) {
  std::vector<const MctsNodeCreated*> created;
  for (const Event& event : events)
    if (const auto* node = std::get_if<MctsNodeCreated>(&event.payload)) created.push_back(node);
  return created;
}

MctsNodeCreated decodeNode(const std::string& json) {
  return std::get<MctsNodeCreated>(event_codec::decodePayload("mcts_node_created", json));
}

// Records `events` as a run of a fresh session, reads them back and folds them into a replay.
ReplayState replayThroughSession(const std::vector<Event>& events, const Graph& model, const std::string& name) {
  const std::string path = test::tempPath("puct-tree", name);
  std::filesystem::remove(path);
  Session session = Session::create(path);
  const int64_t run = session.beginRun(RunInfo{session.addModel("squeezenet", "squeezenet.onnx", model), "mcts", {}, 5, "analytic:h200"});
  session.appendEvents(run, events);
  ReplayState state;
  for (const Event& event : session.events(run)) state.apply(event);
  return state;
}

} // namespace

TEST(PuctTreeEvents, APriorRoundTripsThroughTheCodec) {
  MctsNodeCreated guided{7, 3, "fuse-conv-relu", 2, 1234};
  guided.prior = 0.1875;
  const std::string json = event_codec::encodePayload(guided);
  const MctsNodeCreated decoded = decodeNode(json);
  ASSERT_TRUE(decoded.prior.has_value()) << json;
  EXPECT_EQ(*decoded.prior, 0.1875);
  EXPECT_EQ(decoded.id, 7u);
  EXPECT_EQ(decoded.parent, 3u);
  EXPECT_EQ(decoded.action, "fuse-conv-relu");
  EXPECT_EQ(decoded.enodes, 1234u);
  // A prior of zero is a prior (the network ruled the action out), not an absent one.
  guided.prior = 0.0;
  EXPECT_EQ(decodeNode(event_codec::encodePayload(guided)).prior, std::optional<double>(0.0));
}

TEST(PuctTreeEvents, PlainMctsNodesCarryNoPriorAndOldLogsDecode) {
  const std::string plain = event_codec::encodePayload(MctsNodeCreated{7, 3, "fuse-conv-relu", 2, 1234});
  EXPECT_EQ(plain.find("pr"), std::string::npos) << "plain MCTS logs stay as they were: " << plain;
  EXPECT_FALSE(decodeNode(plain).prior.has_value());
  // Written before the field existed (samples/teaching's session holds such events).
  EXPECT_FALSE(decodeNode(R"({"act":"tensat-s024","d":1,"en":10,"id":2,"par":0})").prior.has_value());
  EXPECT_THROW(decodeNode(R"({"act":"a","d":1,"en":10,"id":2,"par":0,"pr":"much"})"), Error);
}

TEST(PuctTreeEvents, ASessionFromBeforePriorsStillReplaysItsTree) {
  const std::string path = test::tempPath("puct-tree", "phase_ordering.tsession");
  std::filesystem::copy_file(std::string(TESSERA_SOURCE_DIR) + "/samples/teaching/phase_ordering.tsession", path,
                             std::filesystem::copy_options::overwrite_existing);
  Session session = Session::open(path);
  std::optional<int64_t> mctsRun;
  for (const RunRecord& run : session.runs())
    if (run.info.strategy == "mcts") mctsRun = run.id;
  ASSERT_TRUE(mctsRun) << "the teaching session holds an MCTS run";
  ReplayState state;
  for (const Event& event : session.events(*mctsRun)) state.apply(event);
  ASSERT_GT(state.tree.size(), 10u);
  for (uint32_t id = 0; id < state.tree.size(); ++id)
    if (const MirrorMctsNode* node = state.tree.node(id)) {
      EXPECT_FALSE(node->prior.has_value()) << "node " << id;
      EXPECT_FALSE(state.tree.siblingRanks(id).has_value());
    }
}

TEST(PuctTreeEvents, AReplayedPuctRunKeepsEachNodesPriorAndPlainMctsHasNone) {
  const Graph model = test::sample("squeezenet.onnx");
  for (const bool guided : {true, false}) {
    SCOPED_TRACE(guided ? "PUCT" : "plain MCTS");
    test::PuctSearchRun search;
    search.options.seed = 5;
    search.options.nodeLimit = 10000;
    search.options.parameters = {{"simulations", "8"}, {"max_steps", "3"}, {"value_mix", "1"}};
    EventRecorder recorder;
    search.events.attach(&recorder);
    search.run(model, guided ? std::make_shared<RankedGuide>() : nullptr);
    const std::vector<const MctsNodeCreated*> created = createdNodes(recorder.events);
    ASSERT_GT(created.size(), 8u);
    const ReplayState state = replayThroughSession(recorder.events, model, guided ? "puct.tsession" : "mcts.tsession");

    size_t withPrior = 0;
    for (const MctsNodeCreated* event : created) {
      const MirrorMctsNode* node = state.tree.node(event->id);
      ASSERT_NE(node, nullptr);
      EXPECT_EQ(node->prior, event->prior) << "node " << event->id;
      if (!event->prior) continue;
      ++withPrior;
      // The prior the guide gave the node's rule at its parent.
      size_t rule = 0;
      while (rule < search.rules.size() && search.rules[rule]->name() != event->action) ++rule;
      ASSERT_LT(rule, search.rules.size()) << event->action;
      EXPECT_FLOAT_EQ(static_cast<float>(*node->prior), RankedGuide::priorOf(rule, search.rules.size()));
    }
    if (!guided) {
      EXPECT_EQ(withPrior, 0u);
      continue;
    }
    // Every node below a root has one; roots and rebases do not.
    size_t belowARoot = 0;
    for (const MctsNodeCreated* event : created) belowARoot += event->id != event->parent && event->action != kRebaseAction;
    EXPECT_EQ(withPrior, belowARoot);
  }
}

TEST(PuctTreeEvents, SiblingRanksTellWhereTheSearchOverruledTheNetwork) {
  MctsTreeMirror tree;
  uint64_t sequence = 0;
  tree.created(MctsNodeCreated{0, 0, "", 0, 10}, sequence++);
  auto child = [&](uint32_t id, double prior, uint32_t visits) {
    MctsNodeCreated event{id, 0, "rule-" + std::to_string(id), 1, 11};
    event.prior = prior;
    tree.created(event, sequence++);
    tree.backedUp(id, visits, visits * 0.5, 0, sequence++);
  };
  child(1, 0.6, 3);  // the network's favourite
  child(2, 0.3, 9);  // the search's
  child(3, 0.1, 0);
  const auto favourite = tree.siblingRanks(1), searched = tree.siblingRanks(2), last = tree.siblingRanks(3);
  ASSERT_TRUE(favourite && searched && last);
  EXPECT_EQ(favourite->byPrior, 1u);
  EXPECT_EQ(favourite->byVisits, 2u);
  EXPECT_EQ(favourite->siblings, 3u);
  EXPECT_FALSE(favourite->overruled());
  EXPECT_EQ(searched->byPrior, 2u);
  EXPECT_EQ(searched->byVisits, 1u);
  EXPECT_TRUE(searched->overruled());
  EXPECT_EQ(last->byPrior, 3u);
  EXPECT_FALSE(last->overruled());
  EXPECT_FALSE(tree.siblingRanks(0)) << "a root has no prior";
  // Equal visits: neither is the search's choice over the other.
  tree.backedUp(1, 9, 4.5, 0, sequence++);
  EXPECT_FALSE(tree.siblingRanks(2)->overruled());
  // A commit is the search's choice, whatever the visits say.
  tree.committed(3, 0, sequence++);
  EXPECT_TRUE(tree.siblingRanks(3)->searchChoice);
  EXPECT_TRUE(tree.siblingRanks(3)->overruled());
  tree.backedUp(2, 20, 10, 0, sequence++);
  EXPECT_FALSE(tree.siblingRanks(2)->overruled()) << "most visited, but a sibling was committed";
}
