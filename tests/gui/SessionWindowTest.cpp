// Sessions in the main window: opening a session with hundreds of candidates is instant and loads
// no candidate graph until one is selected; selecting shows it, two compare; a run is recorded in
// the model's session; a corrupt session is refused with its name and left untouched; a candidate
// exported to ONNX re-imports and computes what the original computes; every SQLite operation on
// the session runs off the UI thread, and New Session / Save Session As report a bad path.
#include "CandidateExport.h"
#include "CandidatesPanel.h"
#include "MainWindow.h"
#include "RunPanel.h"
#include "TestWindowOptions.h"
#include "SearchRunner.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "TestModels.h"

#include "CandidateTableModel.h"
#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"

#include "egraph/GraphConversion.h"
#include "interp/Verify.h"
#include "live/RulePanel.h"
#include "rewrite/DefaultRules.h"
#include "search/mcts/RuleAction.h"
#include "onnx/OnnxExport.h"
#include "onnx/ModelMetadata.h"
#include "onnx/OnnxImport.h"
#include "support/ReadFile.h"
#include "session/Session.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

MainWindowOptions quietOptions(const QString& sessionDirectory) { return testWindowOptions(sessionDirectory); }

// A session holding `count` candidates of one run: variants of branchesGraph whose costs differ.
void writeSession(const std::string& path, int count) {
  Session session = Session::create(path);
  Graph model = tessera::testing::branchesGraph();
  int64_t modelId = session.addModel("branches", "/models/branches.onnx", model);
  RunInfo info;
  info.modelId = modelId;
  info.strategy = "mcts";
  int64_t runId = session.beginRun(info);
  for (int i = 0; i < count; ++i) {
    Candidate candidate;
    candidate.graph = model;
    candidate.costMs = 1.0 + 0.001 * ((i * 37) % count); // a permutation, so sorting is visible
    candidate.method = "dag";
    candidate.step = i;
    session.addCandidate(runId, i, candidate);
  }
  RunSummary summary;
  summary.stopReason = "steps";
  summary.originalCostMs = 2.0;
  summary.bestCostMs = 1.0;
  session.finishRun(runId, summary);
}

QString writeModel(const QTemporaryDir& dir) {
  QString path = dir.filePath("branches.onnx");
  onnx_io::exportOnnxFile(tessera::testing::branchesGraph(), path.toStdString());
  return path;
}


// Opens `path` with `strategy` started once it is open, and waits until the run has finished and
// its session listing has arrived; false when any of it timed out.
bool openAndRun(MainWindow& window, const QString& path, const QString& strategy) {
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded(strategy);
  window.openPath(path);
  return (opened.count() > 0 || opened.wait(10000)) && (finished.count() > 0 || finished.wait(60000)) &&
         waitUntil([&] { return !window.isBusy(); }, 30000);
}

} // namespace

TEST(CandidateTableModel, PagesRowsAndPassesTheModelTester) {
  std::vector<CandidateRecord> candidates;
  for (int i = 0; i < 150; ++i) candidates.push_back(CandidateRecord{i + 1, 1, i, 10.0 - i * 0.01, "dag", i, 5});
  RunRecord run;
  run.id = 1;
  run.info.strategy = "eqsat";
  run.summary = RunSummary{};
  run.summary->originalCostMs = 10.0;
  views::CandidateTableModel model;
  model.setCandidates(candidates, {run});
  EXPECT_EQ(model.totalCandidates(), 150);
  EXPECT_EQ(model.rowCount(), views::CandidateTableModel::kPageRows);
  ASSERT_TRUE(model.canFetchMore({}));
  model.fetchMore({});
  EXPECT_EQ(model.rowCount(), 2 * views::CandidateTableModel::kPageRows);
  // Best first, with the speedup against the run's original.
  EXPECT_EQ(model.candidateAt(0).id, 150);
  EXPECT_EQ(model.index(0, views::CandidateTableModel::Speedup).data().toString(), "14.90 %");
  EXPECT_EQ(model.index(0, views::CandidateTableModel::Strategy).data().toString(), "eqsat");
  EXPECT_EQ(model.rowOf(1), 149) << "asking for a row fetches up to it";
  EXPECT_EQ(model.rowCount(), 150);
  EXPECT_FALSE(model.canFetchMore({}));
  // The tester fetches on its own, so it checks the fully fetched model.
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
}

TEST(CandidateTableModel, MarksTheSpeedupsOfAnAgentOnAModelItTrainedOn) {
  std::vector<CandidateRecord> candidates{CandidateRecord{1, 1, 0, 6.0, "agent", 3, 5}, CandidateRecord{2, 2, 0, 8.0, "agent", 2, 5},
                                          CandidateRecord{3, 3, 0, 9.0, "dag", 1, 5}};
  std::vector<RunRecord> runs(3);
  for (int i = 0; i < 3; ++i) {
    runs[i].id = i + 1;
    runs[i].info.strategy = i < 2 ? "xrlflow" : "greedy";
    runs[i].summary = RunSummary{};
    runs[i].summary->originalCostMs = 10.0;
  }
  runs[0].summary->inSample = true;
  runs[1].summary->inSample = false; // held out: no mark
  views::CandidateTableModel model;
  model.setCandidates(candidates, runs);
  const auto speedup = [&](int row, int role) { return model.index(row, views::CandidateTableModel::Speedup).data(role).toString(); };
  EXPECT_EQ(speedup(0, Qt::DisplayRole), "40.00 % i");
  EXPECT_NE(speedup(0, Qt::ToolTipRole).indexOf("in-sample"), -1) << speedup(0, Qt::ToolTipRole).toStdString();
  EXPECT_EQ(speedup(1, Qt::DisplayRole), "20.00 %");
  EXPECT_EQ(speedup(2, Qt::DisplayRole), "10.00 %");
}

TEST(SessionWindow, OpeningFiveHundredCandidatesIsInstantAndLazy) {
  QTemporaryDir dir;
  QString path = dir.filePath("big.tsession");
  writeSession(path.toStdString(), 500);

  MainWindow window(quietOptions(dir.path()));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy sessionOpened(&window, &MainWindow::sessionOpened);
  QElapsedTimer timer;
  timer.start();
  window.openPath(path);
  ASSERT_TRUE(sessionOpened.wait(10000));
  qint64 listedMs = timer.elapsed();
  ASSERT_TRUE(window.session());
  views::CandidateTableModel* model = window.candidatesPanel()->model();
  EXPECT_EQ(model->totalCandidates(), 500);
  EXPECT_LE(model->rowCount(), views::CandidateTableModel::kPageRows) << "rows arrive in pages";
  EXPECT_EQ(window.candidateGraphsLoaded(), 0u) << "listing loads no graph";
  EXPECT_LT(listedMs, 1500);
  std::printf("[ info ] 500 candidates listed in %lld ms\n", static_cast<long long>(listedMs));
  ASSERT_TRUE(opened.count() > 0 || opened.wait(10000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_EQ(window.original().graph->opCount(), tessera::testing::branchesGraph().opCount());
  EXPECT_EQ(window.candidateGraphsLoaded(), 0u);

  // Selecting one loads exactly that one, off the UI thread, and shows it.
  window.candidatesPanel()->selectCandidates({model->candidateAt(3).id});
  EXPECT_TRUE(window.isBusy()) << "the candidate loads on a worker";
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_EQ(window.candidateGraphsLoaded(), 1u);
  EXPECT_EQ(window.shownCandidate(), model->candidateAt(3).id);
  EXPECT_EQ(window.currentViewName(), "graph");
  EXPECT_EQ(window.graphView()->graphScene()->snapshot().graph->opCount(), tessera::testing::branchesGraph().opCount());

  // Two compare.
  window.candidatesPanel()->selectCandidates({model->candidateAt(0).id, model->candidateAt(1).id});
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_EQ(window.candidateGraphsLoaded(), 3u);
  EXPECT_EQ(window.currentViewName(), "compare");
  EXPECT_TRUE(window.compareWidget()->hasGraphs());
}

TEST(SessionWindow, ARunIsRecordedInTheModelsSessionAndListed) {
  QTemporaryDir dir;
  QString modelPath = writeModel(dir);
  MainWindow window(quietOptions(dir.filePath("sessions")));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded("eqsat");
  window.openPath(modelPath);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(finished.count() > 0 || finished.wait(60000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000)) << "the listing arrives from the session's worker";
  ASSERT_TRUE(window.session());
  EXPECT_EQ(window.session()->path(), SessionDocument::defaultPathFor(modelPath, dir.filePath("sessions")));
  EXPECT_EQ(window.candidatesPanel()->model()->totalCandidates(),
            static_cast<int>(window.lastOutcome()->result.candidates.size()));
  ASSERT_GT(window.candidatesPanel()->model()->totalCandidates(), 0);
  // The outcome names the cost model as every headline does: the tests price with analytic:h200.
  const QString outcome = window.runPanel()->outcome();
  EXPECT_TRUE(outcome.contains(QStringLiteral("cost model analytic:h200, a prediction for NVIDIA H200"))) << outcome.toStdString();
  EXPECT_TRUE(outcome.contains(QStringLiteral("not a measurement on this machine"))) << outcome.toStdString();

  // The export of the best re-imports and computes what the original computes.
  QString exported = dir.filePath("best.onnx");
  EXPECT_EQ(window.exportCandidate(exported), QString());
  Graph reimported = onnx_io::importOnnxFile(exported.toStdString());
  VerifyResult check = verifyEquivalent(*window.original().graph, reimported, VerifyOptions{});
  EXPECT_TRUE(check.equivalent) << check.worst;

  // Reopened from the session, the stored candidate exports the same graph.
  QString sessionPath = window.session()->path();
  MainWindow reopened(quietOptions(dir.filePath("sessions")));
  QSignalSpy reopenedModel(&reopened, &MainWindow::modelOpened);
  reopened.openPath(sessionPath);
  ASSERT_TRUE(reopenedModel.count() > 0 || reopenedModel.wait(10000));
  const qint64 stored0 = reopened.candidatesPanel()->model()->candidateAt(0).id;
  reopened.candidatesPanel()->selectCandidates({stored0});
  ASSERT_TRUE(waitUntil([&] { return reopened.shownCandidate() == stored0 && !reopened.isBusy(); }, 30000));
  QString fromSession = dir.filePath("from_session.onnx");
  EXPECT_EQ(reopened.exportCandidate(fromSession), QString());
  Graph stored = onnx_io::importOnnxFile(fromSession.toStdString());
  EXPECT_TRUE(verifyEquivalent(*window.original().graph, stored, VerifyOptions{}).equivalent);

  // A second run on the same model lands in the same session, under the same model.
  QSignalSpy finishedAgain(&window, &MainWindow::runFinished);
  ASSERT_TRUE(window.startRun("eqsat"));
  ASSERT_TRUE(finishedAgain.wait(60000));
  Session check2 = Session::open(sessionPath.toStdString());
  EXPECT_EQ(check2.runs().size(), 2u);
  EXPECT_EQ(check2.models().size(), 1u);
}

TEST(SessionWindow, ACorruptSessionIsRefusedByNameAndLeftUntouched) {
  QTemporaryDir dir;
  QString bad = dir.filePath("broken.tsession");
  QByteArray junk("SQLite format 3\0 but then nothing a database needs", 50);
  {
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(junk);
  }
  MainWindow window(quietOptions(dir.path()));
  QSignalSpy failed(&window, &MainWindow::modelFailed);
  window.openPath(bad);
  ASSERT_TRUE(failed.wait(10000));
  ASSERT_EQ(failed.count(), 1);
  EXPECT_TRUE(window.lastError().contains("broken.tsession")) << window.lastError().toStdString();
  EXPECT_FALSE(window.session());
  QFile file(bad);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll(), junk) << "a refused session is never written";
}

TEST(SessionWindow, SaveSessionAsCopiesAndSwitches) {
  QTemporaryDir dir;
  QString path = dir.filePath("a.tsession");
  writeSession(path.toStdString(), 3);
  MainWindow window(quietOptions(dir.path()));
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  window.openPath(path);
  ASSERT_TRUE(opened.count() > 0 || opened.wait(10000));
  QString copy = dir.filePath("b.tsession");
  QSignalSpy saved(&window, &MainWindow::sessionSavedAs);
  QSignalSpy failed(&window, &MainWindow::sessionFailed);
  ASSERT_TRUE(window.saveSessionAs(copy));
  ASSERT_TRUE(saved.wait(10000));
  EXPECT_EQ(window.session()->path(), copy);
  EXPECT_EQ(Session::open(copy.toStdString()).candidates().size(), 3u);
  ASSERT_TRUE(window.saveSessionAs(copy)) << "accepted; the worker refuses it";
  ASSERT_TRUE(failed.wait(10000)) << "an existing file is never overwritten";
  EXPECT_TRUE(window.lastError().contains("b.tsession"));
  EXPECT_EQ(window.session()->path(), copy) << "a refused copy changes nothing";
  EXPECT_EQ(saved.count(), 1);
}

// File ▸ New Session and Save Session As on the worker: a path that cannot be written is reported
// (no crash, the open session kept), a good one switches to the new file and lists it.
TEST(SessionWindow, NewSessionAndSaveAsReportABadPath) {
  QTemporaryDir dir;
  MainWindow window(quietOptions(dir.path()));
  QSignalSpy created(&window, &MainWindow::sessionCreated);
  QSignalSpy saved(&window, &MainWindow::sessionSavedAs);
  QSignalSpy failed(&window, &MainWindow::sessionFailed);
  EXPECT_FALSE(window.saveSessionAs(dir.filePath("x.tsession"))) << "no session to save";

  const QString unwritable = dir.filePath("missing/folder/new.tsession");
  ASSERT_TRUE(window.newSession(unwritable));
  ASSERT_TRUE(failed.wait(10000));
  EXPECT_EQ(created.count(), 0);
  EXPECT_FALSE(window.session());
  EXPECT_FALSE(window.lastError().isEmpty());

  const QString path = dir.filePath("new.tsession");
  ASSERT_TRUE(window.newSession(path));
  ASSERT_TRUE(created.wait(10000));
  ASSERT_TRUE(window.session());
  EXPECT_EQ(window.session()->path(), path);
  EXPECT_EQ(window.candidatesPanel()->model()->totalCandidates(), 0);

  ASSERT_TRUE(window.saveSessionAs(dir.filePath("missing/folder/copy.tsession")));
  ASSERT_TRUE(failed.wait(10000));
  EXPECT_EQ(failed.count(), 2);
  EXPECT_EQ(saved.count(), 0);
  EXPECT_EQ(window.session()->path(), path) << "the session stays the one that was open";
  EXPECT_FALSE(window.isBusy());
}

// Opening a session, listing its candidates, New Session and Save Session As all touch SQLite on
// the session's worker: the UI thread keeps turning while a large session opens.
TEST(SessionWindow, SessionWorkRunsOffTheUiThread) {
  QTemporaryDir dir;
  QString path = dir.filePath("large.tsession");
  writeSession(path.toStdString(), 2000);
  MainWindow window(quietOptions(dir.path()));
  window.show();
  SessionController* sessions = window.sessionController();
  const std::thread::id ui = std::this_thread::get_id();

  // The largest gap between ticks of a 5 ms timer while the session opens: the UI thread's stall.
  QElapsedTimer sinceTick;
  double maxGapMs = 0;
  QTimer ticker;
  ticker.setInterval(5);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    maxGapMs = std::max(maxGapMs, sinceTick.nsecsElapsed() / 1e6);
    sinceTick.restart();
  });
  QSignalSpy sessionOpened(&window, &MainWindow::sessionOpened);
  QElapsedTimer call;
  call.start();
  window.openPath(path);
  const qint64 callMs = call.elapsed();
  EXPECT_TRUE(window.isBusy()) << "the session opens on a worker";
  sinceTick.start();
  ticker.start();
  ASSERT_TRUE(sessionOpened.wait(30000));
  ticker.stop();
  EXPECT_NE(sessions->lastOperationThread(), ui);
  EXPECT_NE(sessions->lastOperationThread(), std::thread::id());
  EXPECT_EQ(window.candidatesPanel()->model()->totalCandidates(), 2000);
  std::printf("[ info ] openPath returned in %lld ms; longest UI gap while the session opened %.1f ms\n",
              static_cast<long long>(callMs), maxGapMs);
  EXPECT_LT(callMs, 100) << "openPath only starts the worker";
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  // A listing (as after a run) is on the worker too, and so are New Session and Save Session As.
  QSignalSpy saved(&window, &MainWindow::sessionSavedAs);
  QSignalSpy created(&window, &MainWindow::sessionCreated);
  sessions->refresh();
  EXPECT_TRUE(window.isBusy());
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_NE(sessions->lastOperationThread(), ui);
  ASSERT_TRUE(window.saveSessionAs(dir.filePath("copy.tsession")));
  ASSERT_TRUE(saved.wait(30000));
  EXPECT_NE(sessions->lastOperationThread(), ui);
  ASSERT_TRUE(window.newSession(dir.filePath("fresh.tsession")));
  ASSERT_TRUE(created.wait(30000));
  EXPECT_NE(sessions->lastOperationThread(), ui);
}

// Pin and veto as a user gives them, in the rule panel of the main window: the run applies the pinned
// rule first, never the vetoed one, and the session's decisions table holds both.
TEST(SessionWindow, PinAndVetoFromTheRulePanelSteerTheRunAndAreRecorded) {
  QTemporaryDir dir;
  QString modelPath = writeModel(dir);
  MainWindow window(quietOptions(dir.filePath("sessions")));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  window.openPath(modelPath);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  // The last rule of the pack that changes the model, so MCTS would not take it first by luck.
  const Graph model = tessera::testing::branchesGraph();
  const RuleSet pack = defaultRules();
  EGraph egraph;
  const SeededGraph seed = seedEGraph(egraph, model);
  std::string pinned;
  for (const auto& rule : pack.rules()) {
    const EGraph::Checkpoint checkpoint = egraph.checkpoint();
    if (mcts::applyRuleAction(egraph, seed.outputs, *rule, 100000).changed() && rule->name() != "fuse-conv-relu") pinned = rule->name();
    egraph.rollback(checkpoint);
  }
  ASSERT_FALSE(pinned.empty());
  window.rulePanel()->requestVeto(QStringLiteral("fuse-conv-relu"));
  window.rulePanel()->requestPin(QString::fromStdString(pinned));

  QSignalSpy finished(&window, &MainWindow::runFinished);
  ASSERT_TRUE(window.startRun("mcts"));
  ASSERT_TRUE(finished.wait(60000));
  const SearchResult& result = window.lastOutcome()->result;
  EXPECT_EQ(result.rulesApplied.count("fuse-conv-relu"), 0u);
  EXPECT_GT(result.rulesApplied.count(pinned), 0u);

  Session session = Session::open(window.session()->path().toStdString());
  const int64_t runId = window.lastOutcome()->runId;
  const std::vector<Event> events = session.events(runId);
  auto firstStep = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind() == EventKind::StepCommitted; });
  ASSERT_NE(firstStep, events.end());
  EXPECT_EQ(std::get<StepCommitted>(firstStep->payload).action, pinned);
  for (const Event& event : events)
    if (const auto* applied = std::get_if<RuleApplied>(&event.payload)) {
      EXPECT_NE(applied->rule, "fuse-conv-relu");
    }
  for (const CandidateRecord& candidate : session.candidates(runId))
    for (const ProvenanceRecord& origin : session.provenance(candidate.id)) EXPECT_NE(origin.rule, "fuse-conv-relu");
  bool vetoRecorded = false, pinRecorded = false;
  for (const DecisionRecord& decision : session.decisions(runId)) {
    vetoRecorded |= decision.kind == "veto" && decision.rule == "fuse-conv-relu";
    pinRecorded |= decision.kind == "pin" && decision.rule == pinned;
  }
  EXPECT_TRUE(vetoRecorded);
  EXPECT_TRUE(pinRecorded);
}

// File ▸ Load Rules: the rules of a file, checked as the CLI checks them, fill the Rules dock and
// go with the next run, whose session names the file; a file that is not rules is refused by name.
TEST(SessionWindow, ARuleFileLoadsIntoTheDockAndTheNextRun) {
  QTemporaryDir dir;
  const QString modelPath = writeModel(dir);
  MainWindow window(quietOptions(dir.filePath("sessions")));
  window.show();
  const QString rules = QStringLiteral(TESSERA_SOURCE_DIR "/resources/rules/synth-real.rules");
  QSignalSpy loaded(&window, &MainWindow::rulesLoaded);
  ASSERT_TRUE(window.loadRules(rules));
  ASSERT_TRUE(loaded.wait(60000));
  EXPECT_EQ(loaded.at(0).at(0).toString(), rules);
  const int count = loaded.at(0).at(1).toInt();
  EXPECT_GT(count, 0);
  EXPECT_LT(static_cast<size_t>(count), defaultRules().size()) << "the file's rules, not the built-in pack";

  ASSERT_TRUE(openAndRun(window, modelPath, "eqsat"));
  EXPECT_EQ(window.rulePanel()->model()->rowCount(), count) << "the dock lists the loaded rules";
  Session session = Session::open(window.session()->path().toStdString());
  ASSERT_EQ(session.runs().size(), 1u);
  EXPECT_EQ(session.runs()[0].info.parameters.at("rules"), rules.toStdString());

  const QString notRules = dir.filePath("not.rules");
  QFile file(notRules);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("this is not a rule\n");
  file.close();
  QSignalSpy failed(&window, &MainWindow::rulesFailed);
  ASSERT_TRUE(window.loadRules(notRules));
  ASSERT_TRUE(failed.wait(30000));
  EXPECT_TRUE(failed.at(0).at(0).toString().contains(notRules)) << failed.at(0).at(0).toString().toStdString();
}

// File ▸ Export for a runtime: the candidate is timed against the original there, and the file
// names the runtime and what was measured, as `optimize --out F --deploy R` writes it.
TEST(SessionWindow, AnExportForARuntimeIsTimedThereAndSaysSo) {
  const std::vector<std::string> runtimes = exportRuntimes();
  if (std::find(runtimes.begin(), runtimes.end(), "cpu") == runtimes.end())
    GTEST_SKIP() << "no usable CPU backend in this build (oneDNN was not found at configure time)";
  QTemporaryDir dir;
  MainWindow window(quietOptions(dir.filePath("sessions")));
  window.show();
  ASSERT_TRUE(openAndRun(window, writeModel(dir), "eqsat"));

  const QString exported = dir.filePath("for_cpu.onnx");
  ASSERT_EQ(window.exportCandidate(exported, QStringLiteral("cpu")), QString());
  const std::map<std::string, std::string> metadata = onnx_io::readMetadata(readFileBytes(exported.toStdString(), 1 << 24));
  EXPECT_EQ(metadata.at("tessera.deploy_runtime"), "cpu");
  ASSERT_TRUE(metadata.count("tessera.kept_original")) << "the candidate was timed on the CPU";
  EXPECT_EQ(metadata.at("tessera.deploy_device").rfind("cpu:", 0), 0u) << metadata.at("tessera.deploy_device");
  const Graph written = onnx_io::importOnnxFile(exported.toStdString());
  EXPECT_TRUE(verifyEquivalent(*window.original().graph, written, VerifyOptions{}).equivalent);
  if (metadata.at("tessera.kept_original") == "1") {
    EXPECT_EQ(written.opCount(), window.original().graph->opCount()) << "a candidate no faster there leaves the original in the file";
  }
}
