// The search worker: a run finishes off the UI thread and reports its result; Stop ends a run
// early; a strategy this build cannot run fails with a message instead of running.
#include "SearchRunner.h"
#include "TestModels.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "onnx/OnnxImport.h"

#include <QElapsedTimer>
#include <QThread>

#include <cstdio>

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

  explicit Recorder(SearchRunner& runner) {
    QObject::connect(&runner, &SearchRunner::finished, [this](std::shared_ptr<const SearchOutcome> o) { outcome = o; });
    QObject::connect(&runner, &SearchRunner::failed, [this](const QString& m) { failure = m; });
    QObject::connect(&runner, &SearchRunner::progress, [this](const QString& line, int) { lines << line; });
    QObject::connect(&runner, &SearchRunner::runningChanged, [this](bool on) { running.push_back(on); });
    QObject::connect(&runner, &SearchRunner::bestCostChanged, [this](double ms) { best.push_back(ms); });
  }
  bool done() const { return outcome || !failure.isEmpty(); }
};

} // namespace

TEST(SearchRunner, RunFinishesOnTheWorkerAndEmitsItsResult) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  RunSettings settings;
  settings.nodeLimit = 5000;
  ASSERT_TRUE(runner.start(model, settings));
  EXPECT_TRUE(runner.isRunning());
  EXPECT_FALSE(runner.start(model, settings)) << "a second run must wait for the first";
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  const SearchOutcome& outcome = *recorder.outcome;

  EXPECT_NE(outcome.workerThread, std::this_thread::get_id()) << "the search must not run on the UI thread";
  EXPECT_FALSE(runner.isRunning());
  EXPECT_EQ(recorder.running, (std::vector<bool>{true, false}));
  EXPECT_FALSE(recorder.lines.isEmpty());

  // The numbers agree with an independent pricing of both graphs.
  auto cost = makeCostModel(settings.costSpec);
  EXPECT_NEAR(outcome.originalCostMs, graphCost(*model, *cost).totalMs, 1e-12);
  EXPECT_NEAR(outcome.optimizedCostMs, graphCost(*outcome.optimized, *cost).totalMs, 1e-12);
  EXPECT_LT(outcome.optimizedCostMs, outcome.originalCostMs);
  EXPECT_NEAR(outcome.speedupPct, (outcome.originalCostMs - outcome.optimizedCostMs) / outcome.originalCostMs * 100, 1e-9);
  EXPECT_LT(outcome.optimized->opCount(), model->opCount());
  EXPECT_TRUE(outcome.verificationRun);
  EXPECT_TRUE(outcome.verified) << outcome.verifyProblem;
  EXPECT_FALSE(outcome.rulesApplied.empty());
  ASSERT_EQ(recorder.best.size(), 2u);
  EXPECT_DOUBLE_EQ(recorder.best.front(), outcome.originalCostMs);
  EXPECT_DOUBLE_EQ(recorder.best.back(), outcome.optimizedCostMs);
}

TEST(SearchRunner, RunsASampleModelLikeTheCli) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(onnx_io::importOnnxFile(tessera::testing::samplePath("squeezenet")));
  ASSERT_TRUE(runner.start(model, RunSettings{}));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 120000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  EXPECT_LE(recorder.outcome->optimizedCostMs, recorder.outcome->originalCostMs);
  EXPECT_TRUE(recorder.outcome->verified) << recorder.outcome->verifyProblem;
}

TEST(SearchRunner, StopEndsARunEarly) {
  SearchRunner runner;
  Recorder recorder(runner);
  auto model = std::make_shared<const Graph>(tessera::testing::denseNet({6, 12, 24, 16}));
  RunSettings settings;
  settings.nodeLimit = 5'000'000;
  settings.iterationLimit = 1000;
  settings.timeLimitSeconds = 600;
  settings.verify = false;
  ASSERT_TRUE(runner.start(model, settings));
  // Let saturation begin, then stop.
  ASSERT_TRUE(waitUntil([&] { return recorder.lines.size() >= 2 || recorder.done(); }, 60000));
  runner.requestStop();
  QElapsedTimer timer;
  timer.start();
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 60000));
  ASSERT_TRUE(recorder.failure.isEmpty()) << recorder.failure.toStdString();
  EXPECT_EQ(recorder.outcome->stopReason, "stopped_by_user");
  EXPECT_LT(recorder.outcome->iterations, 1000u);
  std::printf("[ info ] stop honoured after %lld ms (%zu iterations, %zu e-nodes)\n", static_cast<long long>(timer.elapsed()),
              recorder.outcome->iterations, recorder.outcome->enodes);
}

TEST(SearchRunner, AStrategyThisBuildCannotRunFailsWithAMessage) {
  SearchRunner runner;
  Recorder recorder(runner);
  RunSettings settings;
  settings.strategy = "mcts";
  ASSERT_TRUE(runner.start(std::make_shared<const Graph>(tessera::testing::branchesGraph()), settings));
  ASSERT_TRUE(waitUntil([&] { return recorder.done(); }, 10000));
  EXPECT_FALSE(recorder.outcome);
  EXPECT_TRUE(recorder.failure.contains("not available yet")) << recorder.failure.toStdString();
  EXPECT_FALSE(runner.isRunning());
}
