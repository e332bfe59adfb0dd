// The search worker on the Strategy interface: a run finishes off the UI thread and reports its
// result; events reach the UI thread in ordered batches; a paused run makes no progress, a single
// step advances exactly one step, stop ends the run; a run is recorded in its session, the same run
// as optimize and bench record, and a failed one as failed.
#include "CostModels.h"
#include "MainWindow.h"
#include "MeasuringPause.h"
#include "RunController.h"
#include "SearchRunner.h"
#include "TestModels.h"
#include "TestWindowOptions.h"

#include "BackgroundWork.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "ir/GraphHash.h"
#include "interp/Verify.h"
#include "onnx/OnnxImport.h"
#include "session/Session.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

struct Recorder {
  std::shared_ptr<const SearchOutcome> outcome;
  QString failure;
  QStringList lines;
  std::vector<bool> running;
  std::vector<double> best;
  std::vector<double> bestAgainst; // the original each best cost came with
  std::vector<Event> events;
  int batches = 0;
  bool batchOffUiThread = false;

  explicit Recorder(SearchRunner& runner) {
    QObject::connect(&runner, &SearchRunner::finished, [this](std::shared_ptr<const SearchOutcome> o) { outcome = o; });
    QObject::connect(&runner, &SearchRunner::failed, [this](const QString& m) { failure = m; });
    QObject::connect(&runner, &SearchRunner::progress, [this](const QString& line, int) { lines << line; });
    QObject::connect(&runner, &SearchRunner::runningChanged, [this](bool on) { running.push_back(on); });
    QObject::connect(&runner, &SearchRunner::bestCostChanged, [this](double ms, double original) {
      best.push_back(ms);
      bestAgainst.push_back(original);
    });
    QObject::connect(&runner, &SearchRunner::eventsArrived, [this](EventBatch batch) {
      if (QThread::currentThread() != qApp->thread()) batchOffUiThread = true;
      ++batches;
      events.insert(events.end(), batch->begin(), batch->end());
    });
  }
  bool done() const { return outcome || !failure.isEmpty(); }
  int count(EventKind kind) const {
    return static_cast<int>(std::count_if(events.begin(), events.end(), [&](const Event& e) { return e.kind() == kind; }));
  }
  int states(RunState state) const {
    return static_cast<int>(std::count_if(events.begin(), events.end(), [&](const Event& e) {
      const auto* change = std::get_if<RunStateChanged>(&e.payload);
      return change && change->state == state;
    }));
  }
  int decisions(DecisionKind kind) const {
    return static_cast<int>(std::count_if(events.begin(), events.end(), [&](const Event& e) {
      const auto* decision = std::get_if<UserDecision>(&e.payload);
      return decision && decision->kind == kind;
    }));
  }
};

// Lets the event loop (and the drain timer) run for a while.
void idle(int milliseconds) { waitUntil([] { return false; }, milliseconds); }

} // namespace

TEST(SearchRunner, RunFinishesOnTheWorkerAndEmitsItsResult) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  RunSettings settings;
  settings.search.nodeLimit = 5000;
  ASSERT_TRUE(runner.start(model, settings));
  EXPECT_TRUE(runner.isRunning());
  EXPECT_FALSE(runner.start(model, settings)) << "a second run must wait for the first";
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  const SearchOutcome& outcome = *recorder.outcome;
  const SearchResult& result = outcome.result;

  EXPECT_NE(outcome.workerThread, std::this_thread::get_id()) << "the search must not run on the UI thread";
  EXPECT_FALSE(runner.isRunning());
  EXPECT_EQ(recorder.running, (std::vector<bool>{true, false}));
  EXPECT_FALSE(recorder.lines.isEmpty());

  // The numbers agree with an independent pricing of both graphs.
  auto cost = makeCostModel(settings.costSpec);
  EXPECT_NEAR(result.originalCostMs, graphCost(*model, *cost).totalMs, 1e-12);
  EXPECT_NEAR(result.bestCostMs, graphCost(*outcome.optimized, *cost).totalMs, 1e-12);
  EXPECT_LT(result.bestCostMs, result.originalCostMs);
  EXPECT_NEAR(result.speedupPct, (result.originalCostMs - result.bestCostMs) / result.originalCostMs * 100, 1e-9);
  // A rewritten graph (fused, or merged with the same op count: cheaper either way, as checked above).
  EXPECT_FALSE(structurallyEqual(*outcome.optimized, *model));
  EXPECT_TRUE(result.verificationRun);
  EXPECT_TRUE(result.verified) << result.verifyProblem;
  EXPECT_FALSE(result.rulesApplied.empty());
  EXPECT_FALSE(result.candidates.empty());
  // Best cost: the original first, the final best last, never rising in between.
  ASSERT_GE(recorder.best.size(), 2u);
  EXPECT_DOUBLE_EQ(recorder.best.front(), result.originalCostMs);
  EXPECT_DOUBLE_EQ(recorder.best.back(), result.bestCostMs);
  EXPECT_TRUE(std::is_sorted(recorder.best.rbegin(), recorder.best.rend()));
  // Each comes with the run's own original, whatever the views are priced with.
  for (double original : recorder.bestAgainst) EXPECT_DOUBLE_EQ(original, result.originalCostMs);
}

TEST(SearchRunner, EventsArriveInOrderedBatchesOnTheUiThread) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(onnx_io::importOnnxFile(tessera::testing::samplePath("squeezenet")));
  RunSettings settings;
  settings.verify = false;
  ASSERT_TRUE(runner.start(model, settings));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();

  EXPECT_FALSE(recorder.batchOffUiThread);
  ASSERT_GT(recorder.events.size(), 100u) << "every e-node is an event";
  EXPECT_LT(recorder.batches * 10, static_cast<int>(recorder.events.size())) << "batches, not one signal per event";
  EXPECT_EQ(runner.eventsDelivered(), recorder.events.size());
  for (size_t i = 0; i < recorder.events.size(); ++i) ASSERT_EQ(recorder.events[i].sequence, i) << "no event lost or reordered";
  EXPECT_EQ(recorder.count(EventKind::StepCommitted), recorder.outcome->result.steps);
  EXPECT_EQ(recorder.count(EventKind::CandidateExtracted), static_cast<int>(recorder.outcome->result.candidates.size()));
  EXPECT_GT(recorder.count(EventKind::ENodeAdded), 0);
  std::printf("[ info ] %zu events in %d batches\n", recorder.events.size(), recorder.batches);
}

TEST(SearchRunner, PausedRunMakesNoProgressAndStepAdvancesExactlyOneStep) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(tessera::testing::denseNet({3, 3}));
  RunSettings settings;
  settings.search.nodeLimit = 1'000'000;
  settings.search.iterationLimit = 50;
  settings.search.timeLimitSeconds = 120;
  settings.verify = false;
  ASSERT_TRUE(runner.start(model, settings, {}, /*startPaused=*/true));
  EXPECT_TRUE(runner.isPaused());

  idle(400);
  EXPECT_TRUE(runner.isRunning());
  EXPECT_EQ(recorder.count(EventKind::StepCommitted), 0) << "a paused run makes no progress";

  runner.step();
  ASSERT_TRUE(waitUntil([&] { return recorder.count(EventKind::StepCommitted) >= 1 || recorder.done(); }, 30000));
  idle(400);
  EXPECT_EQ(recorder.count(EventKind::StepCommitted), 1) << "one step, then paused again";
  EXPECT_TRUE(runner.isRunning());
  EXPECT_TRUE(runner.isPaused());

  runner.step();
  ASSERT_TRUE(waitUntil([&] { return recorder.count(EventKind::StepCommitted) >= 2 || recorder.done(); }, 30000));
  idle(300);
  EXPECT_EQ(recorder.count(EventKind::StepCommitted), 2);

  runner.requestStop(); // also releases the pause
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 30000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  EXPECT_EQ(recorder.outcome->result.stopReason, "stopped_by_user");
  EXPECT_EQ(recorder.outcome->result.steps, 2);
  EXPECT_FALSE(runner.isPaused());
  // Every decision is in the event log, recorded by the search.
  EXPECT_EQ(recorder.decisions(DecisionKind::Pause), 1);
  EXPECT_EQ(recorder.decisions(DecisionKind::Step), 2);
  EXPECT_EQ(recorder.decisions(DecisionKind::Stop), 1);
}

// The teaching pace holds a live run between steps (here an hour, so the test never waits on it),
// and full speed lets it finish; the pace is presentation, not a decision in the log.
TEST(SearchRunner, PaceHoldsEachStepUntilFullSpeed) {
  SearchRunner runner;
  Recorder recorder(runner);
  runner.setStepInterval(3'600'000);
  auto model = std::make_shared<const Graph>(tessera::testing::denseNet({3, 3}));
  RunSettings settings;
  settings.search.nodeLimit = 1'000'000;
  settings.search.iterationLimit = 4;
  settings.search.timeLimitSeconds = 7200;
  settings.verify = false;
  ASSERT_TRUE(runner.start(model, settings));
  ASSERT_TRUE(waitUntil([&] { return recorder.count(EventKind::StepCommitted) >= 1 || recorder.done(); }, 30000));
  idle(400);
  EXPECT_EQ(recorder.count(EventKind::StepCommitted), 1) << "the second step waits for the pace";
  EXPECT_TRUE(runner.isRunning());
  EXPECT_FALSE(runner.isPaused()) << "pacing is not pausing";

  runner.setStepInterval(0);
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  EXPECT_GT(recorder.outcome->result.steps, 1);
  EXPECT_EQ(recorder.count(EventKind::UserDecision), 0);
}

TEST(SearchRunner, ResumeLetsAPausedRunFinish) {
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.verify = false;
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings, {}, true));
  // Resume once the run waits at its first step: a resume that comes before it reaches that point
  // (a fixed 200 ms on a loaded machine) leaves it nothing to resume from, and no Resumed state.
  ASSERT_TRUE(waitUntil([&] { return recorder.states(RunState::Paused) >= 1; }, 30000));
  EXPECT_FALSE(recorder.done());
  runner.resume();
  EXPECT_FALSE(runner.isPaused());
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 30000));
  ASSERT_TRUE(recorder.outcome) << recorder.failure.toStdString();
  EXPECT_NE(recorder.outcome->result.stopReason, "stopped_by_user");
  EXPECT_EQ(recorder.decisions(DecisionKind::Resume), 1);
  EXPECT_GE(recorder.states(RunState::Resumed), 1);
}

TEST(SearchRunner, StopEndsARunEarly) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(tessera::testing::denseNet({6, 12, 24, 16}));
  RunSettings settings;
  settings.search.nodeLimit = 5'000'000;
  settings.search.iterationLimit = 1000;
  settings.search.timeLimitSeconds = 600;
  settings.verify = false;
  ASSERT_TRUE(runner.start(model, settings, {}, /*startPaused=*/true));
  runner.step();
  ASSERT_TRUE(waitUntil([&] { return recorder.count(EventKind::StepCommitted) >= 1 || recorder.done(); }, 60000));
  runner.requestStop();
  QElapsedTimer timer;
  timer.start();
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  EXPECT_EQ(recorder.outcome->result.stopReason, "stopped_by_user");
  EXPECT_EQ(recorder.outcome->result.steps, 1);
  EXPECT_FALSE(recorder.outcome->result.candidates.empty()) << "a stopped run still extracts its best graph";
  std::printf("[ info ] stop honoured after %lld ms (%d steps, %zu e-nodes)\n", static_cast<long long>(timer.elapsed()),
              recorder.outcome->result.steps, recorder.outcome->result.enodes);
}

TEST(SearchRunner, AFailingStrategyReportsItsMessage) {
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.strategy = "annealing";
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 10000));
  EXPECT_FALSE(recorder.outcome);
  EXPECT_TRUE(recorder.failure.contains("unknown strategy 'annealing'")) << recorder.failure.toStdString();
  EXPECT_FALSE(runner.isRunning());
}

TEST(SearchRunner, ARunIsRecordedInItsSession) {
  QTemporaryDir dir;
  std::string path = dir.filePath("runs.tsession").toStdString();
  Session::create(path);
  SearchRunner runner;
  Recorder recorder(runner);
  qint64 announcedRun = 0;
  QObject::connect(&runner, &SearchRunner::runRecorded, [&](qint64, qint64 run) { announcedRun = run; });
  auto model = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  RunSettings settings;
  settings.search.seed = 7;
  settings.search.multiIterations = 2;
  settings.search.parameters["multi_schedule"] = "first";
  ASSERT_TRUE(runner.start(model, settings, RunDestination{path, {0, "branches", "/models/branches.onnx"}}));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  const SearchOutcome& outcome = *recorder.outcome;
  EXPECT_TRUE(outcome.recordingError.empty()) << outcome.recordingError;
  ASSERT_GT(outcome.runId, 0);
  EXPECT_EQ(announcedRun, outcome.runId);

  Session session = Session::open(path);
  ASSERT_EQ(session.models().size(), 1u);
  EXPECT_EQ(session.models().front().name, "branches");
  EXPECT_EQ(session.models().front().id, outcome.modelId);
  std::optional<RunRecord> run = session.run(outcome.runId);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->info.strategy, "eqsat");
  EXPECT_EQ(run->info.seed, 7u);
  EXPECT_EQ(run->info.costSpec, "analytic:h200");
  EXPECT_EQ(run->info.parameters["k_multi"], "2") << "the explorer records what the CLI records";
  EXPECT_EQ(run->info.parameters["multi_schedule"], "first");
  ASSERT_TRUE(run->summary);
  EXPECT_EQ(run->summary->stopReason, outcome.result.stopReason);
  EXPECT_DOUBLE_EQ(run->summary->bestCostMs, outcome.result.bestCostMs);
  EXPECT_EQ(session.eventCount(outcome.runId), recorder.events.size()) << "the session logs what the views saw";
  std::vector<CandidateRecord> candidates = session.candidates(outcome.runId);
  ASSERT_EQ(candidates.size(), outcome.result.candidates.size());
  ASSERT_EQ(outcome.candidateIds.size(), candidates.size());
  EXPECT_DOUBLE_EQ(candidates.front().costMs, outcome.result.candidates.front().costMs);
  Graph stored = session.loadCandidate(outcome.candidateIds.front());
  // Export may spell fused ops with standard ones, so compare what the graphs compute.
  EXPECT_TRUE(verifyEquivalent(outcome.result.candidates.front().graph, stored).equivalent);

  // A second run on the same model adds a run, not a model.
  Recorder second(runner);
  ASSERT_TRUE(runner.start(model, settings, RunDestination{path, {outcome.modelId, "branches", "/models/branches.onnx"}}));
  ASSERT_TRUE(waitUntil([&] { return second.done(); }, 60000));
  EXPECT_EQ(session.models().size(), 1u);
  EXPECT_EQ(session.runs().size(), 2u);
}

TEST(SearchRunner, AnUnwritableSessionDoesNotStopTheRun) {
  QTemporaryDir dir;
  SearchRunner runner;
  Recorder recorder(runner);
  RunDestination recording{dir.filePath("missing/nowhere.tsession").toStdString(), {0, "branches", ""}};
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), RunSettings{}, recording));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.outcome) << recorder.failure.toStdString();
  EXPECT_EQ(recorder.outcome->runId, 0);
  EXPECT_NE(recorder.outcome->recordingError.find("nowhere.tsession"), std::string::npos) << recorder.outcome->recordingError;
}

namespace {

// squeezenet through the explorer's runner, recorded as the explorer records a model file.
std::shared_ptr<const SearchOutcome> runSqueezenet(const std::string& sessionPath) {
  const std::string path = tessera::testing::samplePath("squeezenet");
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.strategy = "greedy";
  settings.costSpec = "analytic:a100";
  settings.search.seed = 3;
  settings.search.timeLimitSeconds = 30;
  RunDestination destination{sessionPath, recordedModelOf(path)};
  EXPECT_TRUE(runner.start(std::make_shared<const Graph>(onnx_io::importOnnxFile(path)), settings, destination));
  EXPECT_TRUE(waitUntil([&] { return recorder.done(); }, 120000));
  EXPECT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  return recorder.outcome;
}

// tessera-cli with `arguments`; false (with its output) when it did not exit 0.
::testing::AssertionResult runCli(const QStringList& arguments) {
  QProcess cli;
  cli.setProcessChannelMode(QProcess::MergedChannels);
  cli.start(QStringLiteral(TESSERA_CLI), arguments);
  if (!cli.waitForFinished(300000) || cli.exitCode() != 0) return ::testing::AssertionFailure() << cli.readAll().toStdString();
  return ::testing::AssertionSuccess();
}

// The one run of `a` and of `b` record the same settings and summary and return the same graph.
void expectTheSameRun(const std::string& a, const std::string& b) {
  Session first = Session::open(a), second = Session::open(b);
  ASSERT_EQ(first.runs().size(), 1u);
  ASSERT_EQ(second.runs().size(), 1u);
  const RunRecord x = first.runs().front(), y = second.runs().front();
  EXPECT_EQ(x.info.strategy, y.info.strategy);
  EXPECT_EQ(x.info.seed, y.info.seed);
  EXPECT_EQ(x.info.costSpec, y.info.costSpec);
  EXPECT_EQ(x.info.parameters, y.info.parameters) << "every setting, the defaults included";
  ASSERT_EQ(first.models().size(), 1u);
  ASSERT_EQ(second.models().size(), 1u);
  EXPECT_EQ(first.models()[0].name, second.models()[0].name);
  EXPECT_EQ(first.models()[0].sourcePath, second.models()[0].sourcePath);
  ASSERT_TRUE(x.summary && y.summary);
  EXPECT_EQ(x.summary->stopReason, y.summary->stopReason);
  EXPECT_DOUBLE_EQ(x.summary->bestCostMs, y.summary->bestCostMs);
  EXPECT_DOUBLE_EQ(x.summary->speedupPct, y.summary->speedupPct);
  EXPECT_EQ(x.summary->verified, y.summary->verified);
  const std::vector<CandidateRecord> xs = first.candidates(x.id), ys = second.candidates(y.id);
  ASSERT_EQ(xs.size(), ys.size());
  ASSERT_FALSE(xs.empty());
  auto cheapest = [](const std::vector<CandidateRecord>& all) {
    return std::min_element(all.begin(), all.end(), [](const CandidateRecord& p, const CandidateRecord& q) { return p.costMs < q.costMs; })->id;
  };
  EXPECT_TRUE(structurallyEqual(first.loadCandidate(cheapest(xs)), second.loadCandidate(cheapest(ys))));
}

} // namespace

// The explorer's runner and `optimize` run the same plan through core's runModel.
TEST(SearchRunner, TheExplorerRecordsTheSameRunAndGraphAsOptimize) {
  QTemporaryDir dir;
  const std::string explorer = dir.filePath("explorer.tsession").toStdString(), cli = dir.filePath("optimize.tsession").toStdString();
  std::shared_ptr<const SearchOutcome> outcome = runSqueezenet(explorer);
  ASSERT_TRUE(outcome);
  EXPECT_GT(outcome->result.speedupPct, 10) << "greedy fuses squeezenet's conv-relu pairs";
  ASSERT_TRUE(runCli({"optimize", QString::fromStdString(tessera::testing::samplePath("squeezenet")), "--strategy", "greedy", "--seed", "3",
                      "--cost", "analytic:a100", "--time-limit", "30", "--session", QString::fromStdString(cli)}));
  expectTheSameRun(explorer, cli);
}

TEST(SearchRunner, TheExplorerRecordsTheSameRunAndGraphAsBench) {
  QTemporaryDir dir;
  const std::string explorer = dir.filePath("explorer.tsession").toStdString(), cli = dir.filePath("bench.tsession").toStdString();
  ASSERT_TRUE(runSqueezenet(explorer));
  ASSERT_TRUE(runCli({"bench", "--models", QString::fromStdString(tessera::testing::samplePath("squeezenet")), "--strategies", "greedy",
                      "--seed", "3", "--cost", "analytic:a100", "--time-limit", "30", "--session", QString::fromStdString(cli)}));
  expectTheSameRun(explorer, cli);
}

// A run that fails after its row began (eqsat cannot write its e-graph) is marked failed in the
// session, from the explorer as from the CLI.
TEST(SearchRunner, AFailedRunIsMarkedFailedInItsSession) {
  QTemporaryDir dir;
  const std::string path = dir.filePath("runs.tsession").toStdString();
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.search.parameters["egraph_json"] = "/dev/null/e.json";
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings,
                           RunDestination{path, {0, "branches", "/models/branches.onnx"}}));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  EXPECT_FALSE(recorder.outcome);
  EXPECT_TRUE(recorder.failure.contains("/dev/null/e.json")) << recorder.failure.toStdString();
  Session session = Session::open(path);
  ASSERT_EQ(session.runs().size(), 1u);
  const RunRecord run = session.runs().front();
  ASSERT_TRUE(run.finishedAt && run.summary);
  EXPECT_EQ(run.summary->stopReason.rfind("failed: ", 0), 0u) << run.summary->stopReason;
}

// Pins and vetoes typed in the explorer are checked against the rules, as the CLI checks them.
TEST(SearchRunner, AnUnknownPinnedRuleIsRefusedByName) {
  SearchRunner runner;
  Recorder recorder(runner);
  runner.pin(QStringLiteral("no-such-rule"));
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), RunSettings{}));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  EXPECT_FALSE(recorder.outcome);
  EXPECT_TRUE(recorder.failure.contains("no-such-rule")) << recorder.failure.toStdString();
}

#if TESSERA_HAVE_CPU_PLUGIN
// With a measured cost model the explorer does no harm as optimize does: the device decides, and
// the compare view's title says when the original was kept.
TEST(SearchRunner, AMeasuredRunDoesNoHarmAndSaysWhenItKeptTheOriginal) {
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.strategy = "greedy";
  settings.costSpec = "measured:cpu";
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 300000));
  ASSERT_TRUE(recorder.outcome) << recorder.failure.toStdString();
  const SearchOutcome& outcome = *recorder.outcome;
  ASSERT_TRUE(outcome.deployCheck);
  EXPECT_EQ(outcome.deployCheck->runtime, "cpu") << "do no harm times on the measured backend";
  ASSERT_TRUE(outcome.deployCheck->outcome) << outcome.deployCheck->skipped;
  const bool kept = outcome.deployCheck->keptOriginal();
  EXPECT_EQ(kept, structurallyEqual(*outcome.optimized, *outcome.original));
  EXPECT_EQ(outcome.best.title.rfind("kept the original", 0) == 0, kept) << outcome.best.title;
  if (kept) {
    EXPECT_EQ(outcome.result.speedupPct, 0);
  }
}
#endif

namespace {

// Starts a greedy run priced analytically, paused, and waits until its worker holds the measuring pause.
bool startPausedAnalyticRun(SearchRunner& runner) {
  RunSettings settings;
  settings.strategy = "greedy";
  settings.costSpec = "analytic:h200";
  return runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings, {}, /*startPaused=*/true) &&
         waitUntil([] { return ownSearchRunning(); }, 10000);
}

} // namespace

// The explorer's measuring beside its own search would time both slower: it waits until the run
// ends, the status bar says what waits, and analytic pricing, or a measured model's answer that
// needs no timing, goes on at once.
TEST(SearchRunner, TheExplorersOtherMeasuringWaitsWhileItsOwnSearchRuns) {
  using namespace std::chrono_literals;
  std::future<void> timing, analytic, measured, answered; // declared first: they end after the window stops its run
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.filePath("sessions")));
  SearchRunner& runner = *window.searchRunner();
  ASSERT_FALSE(ownSearchRunning());
  // Signatures of the test's own: one this process has timed before the run, one nobody has timed.
  const auto relu = [](int64_t elements) {
    const TensorType type{DType::Float32, {1, elements}};
    return OpSignature{OpKind::Relu, {type}, {type}, {}};
  };
  const OpSignature timedBefore = relu(4099 + QCoreApplication::applicationPid() % 1000);
  const OpSignature neverTimed = relu(7919 + QCoreApplication::applicationPid() % 1000);
#if TESSERA_HAVE_CPU_PLUGIN
  (void)sharedCostModel("measured:cpu")->costMs(timedBefore);
#endif
  ASSERT_TRUE(startPausedAnalyticRun(runner));

  timing = std::async(std::launch::async, [] { waitForOwnSearch("timing end to end on cpu"); });
  analytic = std::async(std::launch::async, [&] { (void)sharedCostModel("analytic:h200")->costMs(neverTimed); });
#if TESSERA_HAVE_CPU_PLUGIN
  answered = std::async(std::launch::async, [&] { (void)sharedCostModel("measured:cpu")->costMs(timedBefore); });
  measured = std::async(std::launch::async, [&] { (void)sharedCostModel("measured:cpu")->costMs(neverTimed); });
  EXPECT_EQ(answered.wait_for(10s), std::future_status::ready) << "what needs no timing is answered during the search";
#endif
  EXPECT_EQ(analytic.wait_for(10s), std::future_status::ready) << "analytic pricing never waits";
  ASSERT_TRUE(waitUntil([&] { return window.runController()->measuringWaitText().contains(QStringLiteral("timing end to end on cpu")); }, 10000))
      << window.runController()->measuringWaitText().toStdString();
  EXPECT_TRUE(window.runController()->measuringWaitText().startsWith(QStringLiteral("waiting for the search to end: ")));
  EXPECT_EQ(timing.wait_for(200ms), std::future_status::timeout) << "nothing is timed while the search runs";
#if TESSERA_HAVE_CPU_PLUGIN
  ASSERT_TRUE(waitUntil([&] { return window.runController()->measuringWaitText().contains(QStringLiteral("pricing with measured:cpu")); }, 60000))
      << window.runController()->measuringWaitText().toStdString();
  EXPECT_EQ(measured.wait_for(0s), std::future_status::timeout);
#endif

  runner.resume(); // the paused greedy run goes on and ends
  ASSERT_TRUE(waitUntil([&] { return !runner.isRunning() && !ownSearchRunning(); }, 60000));
  EXPECT_EQ(timing.wait_for(10s), std::future_status::ready) << "the run has ended: measuring goes on";
#if TESSERA_HAVE_CPU_PLUGIN
  EXPECT_EQ(measured.wait_for(10s), std::future_status::ready);
#endif
  ASSERT_TRUE(waitUntil([&] { return window.runController()->measuringWaitText().isEmpty(); }, 5000)) << "nothing waits now";
}

// Measuring that waits in the background pool lends its thread: more waiting jobs than the pool has
// threads still leave room for work that measures nothing.
TEST(SearchRunner, MeasuringThatWaitsLeavesTheBackgroundPoolFree) {
  SearchRunner runner;
  Recorder recorder(runner);
  ASSERT_TRUE(startPausedAnalyticRun(runner));
  std::vector<QFuture<void>> waiting;
  for (int i = 0; i <= views::backgroundThreadPool()->maxThreadCount(); ++i)
    waiting.push_back(views::runInBackground([] { waitForOwnSearch("timing end to end on cpu"); }));
  ASSERT_TRUE(waitUntil([&] { return measuringWaits().size() == waiting.size(); }, 10000)) << measuringWaits().size();
  QFuture<int> other = views::runInBackground([] { return 42; });
  EXPECT_TRUE(waitUntil([&] { return other.isFinished(); }, 10000)) << "other work ran while measuring waited";
  EXPECT_FALSE(waiting.front().isFinished());
  runner.resume();
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  for (QFuture<void>& job : waiting) EXPECT_TRUE(waitUntil([&] { return job.isFinished(); }, 10000));
  EXPECT_TRUE(measuringWaits().empty());
}
