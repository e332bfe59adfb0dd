// What a guided evaluation pays for (issue #37, equal wall time): the guide reads a new leaf's graph
// from the extraction that priced the leaf, not from a second extraction of the same e-graph, and
// a state below the committed root is read once in a run, even when a later step expands it again.
#include "PuctTestSearch.h"

#include "ir/GraphHash.h"
#include "search/mcts/PriorModel.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace tessera;
using namespace tessera::mcts;
using tessera::test::PuctSearchRun;
using tessera::test::sample;

namespace {

// A flat prior over the rules that match (so the search spreads out and later steps expand again
// what earlier steps' trees held), checking each leaf's extraction against a fresh one and noting
// where in the event stream each leaf was read: the search publishes the leaf's node right after.
class AuditingGuide final : public PriorModel {
public:
  explicit AuditingGuide(const EventRecorder& recorder) : recorder_(recorder) {}
  Guidance evaluate(const SearchState& state) override {
    if (state.root) {
      rootsWithAnExtraction += state.extraction != nullptr;
    } else {
      readAt.push_back(recorder_.events.size());
      if (!state.extraction) {
        ++leavesWithoutAnExtraction;
      } else {
        const ExtractedGraph fresh = extractGraph(state.egraph, state.seed, state.enodeCoster, "dag");
        if (fresh.dagCostMs != state.extraction->dagCostMs || !structurallyEqual(fresh.graph, state.extraction->graph)) ++mismatches;
      }
    }
    Guidance guidance;
    guidance.prior.assign(state.space.rules.size(), 0.0f);
    for (size_t r = 0; r < guidance.prior.size(); ++r) guidance.prior[r] = state.matches[r] > 0 ? 1.0f : 0.0f;
    return guidance;
  }
  std::vector<size_t> readAt; // per leaf read, the number of events published before it
  int leavesWithoutAnExtraction = 0, mismatches = 0, rootsWithAnExtraction = 0;

private:
  const EventRecorder& recorder_;
};

// Each created node's actions from the run's first root: node ids are unique in a run and a
// committed node hangs below the previous root, so this names a state for the whole run (the
// rebase is a node of its own, so a state's name stays unique across it).
std::map<uint32_t, std::vector<std::string>> pathsFromTheFirstRoot(const std::vector<Event>& events) {
  std::map<uint32_t, std::vector<std::string>> paths{{0, {}}};
  for (const Event& event : events)
    if (const auto* created = std::get_if<MctsNodeCreated>(&event.payload); created && created->id != created->parent) {
      std::vector<std::string> path = paths.at(created->parent);
      path.push_back(created->action);
      paths[created->id] = std::move(path);
    }
  return paths;
}

} // namespace

TEST(PuctGuidedEvaluation, ALeafIsReadFromItsPricingsExtractionAndOnlyOnce) {
  PuctSearchRun search;
  search.options.seed = 2;
  search.options.nodeLimit = 10000;
  search.options.parameters = {{"simulations", "16"}, {"max_steps", "3"}, {"value_mix", "1"}};
  EventRecorder recorder;
  search.events.attach(&recorder);
  auto guide = std::make_shared<AuditingGuide>(recorder);
  const SearchResult result = search.run(sample("squeezenet.onnx"), guide);
  ASSERT_GE(result.steps, 2);
  ASSERT_FALSE(guide->readAt.empty());

  // One extraction per new leaf: the guide was handed the one that priced it, equal to a fresh one.
  EXPECT_EQ(guide->leavesWithoutAnExtraction, 0);
  EXPECT_EQ(guide->mismatches, 0);
  EXPECT_EQ(guide->rootsWithAnExtraction, 0) << "a root's state was not just priced";

  // Each leaf read is the node created next. No state is read twice, though later steps create
  // some of those read again (a re-planned root's children start over).
  const std::map<uint32_t, std::vector<std::string>> paths = pathsFromTheFirstRoot(recorder.events);
  std::set<uint32_t> readNodes;
  std::set<std::vector<std::string>> readStates;
  for (size_t at : guide->readAt) {
    const MctsNodeCreated* leaf = nullptr;
    for (size_t e = at; e < recorder.events.size() && !leaf; ++e) leaf = std::get_if<MctsNodeCreated>(&recorder.events[e].payload);
    ASSERT_NE(leaf, nullptr);
    readNodes.insert(leaf->id);
    EXPECT_TRUE(readStates.insert(paths.at(leaf->id)).second) << "state read twice: node " << leaf->id;
  }
  size_t readBeforeAndCreatedAgain = 0;
  for (const auto& [id, path] : paths) readBeforeAndCreatedAgain += !readNodes.count(id) && readStates.count(path);
  EXPECT_GT(readBeforeAndCreatedAgain, 0u) << "the run must expand a state it read again, for the test to say anything";
}
