// The store: models, runs, candidates with provenance, events, decisions and op costs written by
// one Session and read back by another, also while a run is still being written.
#include "session/Session.h"

#include "SessionTestSupport.h"
#include "support/Database.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <optional>
#include <thread>

namespace tessera {
namespace {

TEST(Session, CreateRefusesAnExistingFileAndOpenOrCreateReopensIt) {
  std::string path = test::tempSessionPath("create");
  int64_t modelId = 0;
  {
    Session session = Session::create(path);
    modelId = session.addModel("squeezenet", "samples/squeezenet.onnx", test::sampleModel());
  }
  EXPECT_THROW(Session::create(path), Error);
  Session again = Session::openOrCreate(path);
  ASSERT_EQ(again.models().size(), 1u);
  EXPECT_EQ(again.models()[0].id, modelId);
  sql::Statement mode(again.database(), "PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.columnText(0), "wal");
  EXPECT_EQ(again.database().queryInt("PRAGMA application_id"), 0x5453534E);
}

TEST(Session, ModelsRoundTripThroughOnnx) {
  Session session = Session::create(test::tempSessionPath("models"));
  Graph model = test::sampleModel();
  int64_t id = session.addModel("squeezenet", "samples/squeezenet.onnx", model);
  std::vector<ModelRecord> models = session.models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].name, "squeezenet");
  EXPECT_EQ(models[0].sourcePath, "samples/squeezenet.onnx");
  EXPECT_EQ(models[0].opCount, model.opCount());
  EXPECT_GT(models[0].addedAt, 1.6e9);
  Graph loaded = session.loadModel(id);
  EXPECT_EQ(loaded.opCount(), model.opCount());
  EXPECT_EQ(loaded.outputs().size(), model.outputs().size());
  EXPECT_THROW(session.loadModel(id + 100), Error);
}

TEST(Session, RunsKeepTheirInfoAndSummary) {
  Session session = Session::create(test::tempSessionPath("runs"));
  int64_t model = session.addModel("squeezenet", "x.onnx", test::sampleModel());
  RunInfo info{model, "mcts", {{"simulations", "128"}, {"rollout", "heavy"}}, 42, "analytic:h200"};
  int64_t runId = session.beginRun(info);
  int64_t unfinished = session.beginRun(RunInfo{model, "taso", {}, 7, "measured:cpu"});

  RunSummary summary{"node_limit", 10.0, 7.5, 25.0, 1234, 567, 9, true};
  session.finishRun(runId, summary);
  EXPECT_THROW(session.finishRun(999, summary), Error);
  session.appendEvents(runId, test::manyEvents(5));

  std::vector<RunRecord> runs = session.runs();
  ASSERT_EQ(runs.size(), 2u);
  const RunRecord& run = runs[0];
  EXPECT_EQ(run.id, runId);
  EXPECT_EQ(run.info.strategy, "mcts");
  EXPECT_EQ(run.info.parameters, info.parameters);
  EXPECT_EQ(run.info.seed, 42u);
  EXPECT_EQ(run.info.costSpec, "analytic:h200");
  EXPECT_EQ(run.eventCount, 5u);
  ASSERT_TRUE(run.finishedAt && run.summary);
  EXPECT_GE(run.durationSeconds(), 0);
  EXPECT_EQ(run.summary->stopReason, "node_limit");
  EXPECT_DOUBLE_EQ(run.summary->bestCostMs, 7.5);
  EXPECT_DOUBLE_EQ(run.summary->speedupPct, 25.0);
  EXPECT_EQ(run.summary->enodes, 1234u);
  EXPECT_EQ(run.summary->eclasses, 567u);
  EXPECT_EQ(run.summary->steps, 9);
  EXPECT_EQ(run.summary->verified, std::optional<bool>(true));

  EXPECT_EQ(runs[1].id, unfinished);
  EXPECT_FALSE(runs[1].finishedAt);
  EXPECT_FALSE(runs[1].summary);
  EXPECT_EQ(session.run(unfinished)->info.strategy, "taso");
  EXPECT_FALSE(session.run(12345));
}

TEST(Session, ARunKeepsWhetherItsAgentTrainedOnTheModel) {
  Session session = Session::create(test::tempSessionPath("in-sample"));
  int64_t model = session.addModel("squeezenet", "x.onnx", test::sampleModel());
  std::map<int64_t, std::optional<bool>> verdicts;
  for (std::optional<bool> verdict : {std::optional<bool>(true), std::optional<bool>(false), std::optional<bool>()}) {
    int64_t runId = session.beginRun(RunInfo{model, "xrlflow", {}, 1, "analytic:h200"});
    RunSummary summary{"saturated", 10.0, 6.0, 40.0, 0, 0, 3, true};
    summary.inSample = verdict;
    session.finishRun(runId, summary);
    verdicts[runId] = verdict;
  }
  for (const RunRecord& run : session.runs()) {
    ASSERT_TRUE(run.summary);
    EXPECT_EQ(run.summary->inSample, verdicts.at(run.id)) << "run " << run.id;
  }
}

TEST(Session, CandidatesListWithoutGraphsAndLoadWithProvenance) {
  Session session = Session::create(test::tempSessionPath("candidates"));
  Graph model = test::sampleModel();
  int64_t runId = session.beginRun(RunInfo{session.addModel("m", "m.onnx", model), "eqsat", {}, 1, "analytic:h200"});
  Candidate first = test::sampleCandidate(model, 3.25, 1);
  Candidate second = test::sampleCandidate(model, 2.5, 4);
  int64_t firstId = session.addCandidate(runId, 0, first);
  int64_t secondId = session.addCandidate(runId, 1, second);
  EXPECT_THROW(session.addCandidate(runId, 1, second), Error) << "an index is used once per run";

  std::vector<CandidateRecord> listed = session.candidates(runId);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, firstId);
  EXPECT_EQ(listed[1].index, 1);
  EXPECT_DOUBLE_EQ(listed[1].costMs, 2.5);
  EXPECT_EQ(listed[1].method, "dag");
  EXPECT_EQ(listed[1].step, 4);
  EXPECT_EQ(listed[1].opCount, model.opCount());
  EXPECT_EQ(session.candidates().size(), 2u);
  EXPECT_TRUE(session.candidates(runId + 1).empty());

  Graph loaded = session.loadCandidate(secondId);
  EXPECT_EQ(loaded.opCount(), model.opCount());
  std::vector<ProvenanceRecord> provenance = session.provenance(secondId);
  ASSERT_EQ(provenance.size(), second.origins.size());
  size_t fromRules = 0;
  for (const ProvenanceRecord& record : provenance) {
    EXPECT_EQ(record.rule, second.origins[record.nodeIndex].rule);
    EXPECT_EQ(record.step, second.origins[record.nodeIndex].step);
    ASSERT_FALSE(record.nodeName.empty());
    if (!record.rule.empty()) ++fromRules;
    OpKind kind = second.graph.node(record.nodeIndex).kind;
    if (kind == OpKind::Input || kind == OpKind::Weight) continue;
    std::optional<NodeId> found = loaded.findNode(record.nodeName);
    ASSERT_TRUE(found) << "node " << record.nodeIndex << " '" << record.nodeName << "' is not in the loaded graph";
    EXPECT_EQ(loaded.node(*found).kind, kind) << record.nodeName;
  }
  EXPECT_GT(fromRules, 0u);
  EXPECT_THROW(session.loadCandidate(secondId + 10), Error);

  Candidate broken = first;
  broken.origins.pop_back();
  EXPECT_THROW(session.addCandidate(runId, 2, broken), Error);
}

TEST(Session, EventsReadBackByRangeAndDecisionsAreTabled) {
  Session session = Session::create(test::tempSessionPath("events"));
  int64_t runId = session.beginRun(RunInfo{session.addModel("m", "m.onnx", test::sampleModel()), "mcts", {}, 1, "analytic:h200"});
  std::vector<Event> written = test::manyEvents(100);
  session.appendEvents(runId, written);
  EXPECT_EQ(session.eventCount(runId), 100u);
  EXPECT_EQ(session.eventCount(runId + 1), 0u);

  std::vector<Event> all = session.events(runId);
  ASSERT_EQ(all.size(), written.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_TRUE(test::sameEvent(all[i], written[i])) << "event " << i;
  std::vector<Event> middle = session.events(runId, 20, 30);
  ASSERT_EQ(middle.size(), 10u);
  EXPECT_EQ(middle.front().sequence, 20u);
  EXPECT_EQ(middle.back().sequence, 29u);
  EXPECT_THROW(session.appendEvents(runId, std::vector<Event>{written[3]}), Error) << "a sequence number is used once";
  EXPECT_EQ(session.eventCount(runId), 100u) << "the failed batch left nothing behind";

  std::vector<DecisionRecord> decisions = session.decisions(runId);
  ASSERT_EQ(decisions.size(), test::decisionsAmong(test::manyEvents(100)));
  EXPECT_EQ(decisions[0].kind, "veto");
  EXPECT_EQ(decisions[0].rule, "matmul-assoc");
  EXPECT_EQ(decisions[0].step, 6);
  EXPECT_DOUBLE_EQ(decisions[0].seconds, written[10].seconds);
}

TEST(Session, OpCostsByDevice) {
  Session session = Session::create(test::tempSessionPath("costs"));
  session.recordOpCosts("cuda:H200", {{"Conv[1,3,224,224]", 0.25}, {"Relu[1,64]", 0.01}});
  session.recordOpCosts("cuda:H200", {{"Relu[1,64]", 0.02}});
  session.recordOpCosts("cpu", {{"Relu[1,64]", 1.5}});
  std::map<std::string, double> h200 = session.opCosts("cuda:H200");
  EXPECT_EQ(h200.size(), 2u);
  EXPECT_DOUBLE_EQ(h200["Relu[1,64]"], 0.02);
  EXPECT_DOUBLE_EQ(session.opCosts("cpu")["Relu[1,64]"], 1.5);
  EXPECT_TRUE(session.opCosts("tpu").empty());
}

// A second connection reads while the first appends batches (WAL: readers never block).
TEST(Session, AnotherConnectionReadsWhileARunIsWritten) {
  std::string path = test::tempSessionPath("concurrent");
  Session writer = Session::create(path);
  int64_t runId = writer.beginRun(RunInfo{writer.addModel("m", "m.onnx", test::sampleModel()), "mcts", {}, 1, "analytic:h200"});
  std::atomic<bool> done{false};
  std::thread writing([&] {
    for (int batch = 0; batch < 40; ++batch) writer.appendEvents(runId, test::manyEvents(250, batch * 250));
    done = true;
  });
  Session reader = Session::open(path);
  size_t lastSeen = 0;
  int reads = 0;
  while (!done || reads == 0) {
    std::vector<Event> events = reader.events(runId);
    EXPECT_EQ(events.size() % 250, 0u) << "a reader sees whole batches only";
    EXPECT_GE(events.size(), lastSeen);
    for (size_t i = 0; i < events.size(); ++i) ASSERT_EQ(events[i].sequence, i);
    lastSeen = events.size();
    ++reads;
  }
  writing.join();
  EXPECT_EQ(reader.eventCount(runId), 10000u);
  EXPECT_EQ(reader.runs().at(0).eventCount, 10000u);
}

} // namespace
} // namespace tessera
