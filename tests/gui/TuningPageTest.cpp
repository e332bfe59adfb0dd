// The explorer's Tuning view (offscreen): a tuning database's records per workload, files it must
// refuse by name, a malformed workload, and a short tuning run that fills the chart and the table
// from a thread of its own while the UI thread keeps turning.
#include "MainWindow.h"
#include "TestModels.h"
#include "TestWindowOptions.h"
#include "TuningPage.h"
#include "TuningRunner.h"

#include "tuning/TuningChart.h"
#include "tuning/TuningRecordModel.h"

#include "support/Error.h"
#include "tune/DesignSpace.h"
#include "tune/Schedule.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"
#include "tune/Workload.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <thread>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

// A record of `workload` whose trace is a real sample of the design space, so it replays.
tune::TuningRecord storedRecord(const std::string& workload, uint64_t sample, tune::TrialStatus status, double gflops, int trial) {
  const tune::Compute compute = tune::computeOf(tune::parseWorkload(workload));
  tune::TuningRecord r;
  r.workload = workload;
  r.target = "cpu:test x2";
  r.trace = tune::traceToJson(tune::MultiLevelTilingSpace().sample(compute, sample).trace());
  r.hash = workload + "#" + std::to_string(sample);
  r.status = status;
  r.gflops = status == tune::TrialStatus::Ok ? gflops : 0;
  r.latencyMs = status == tune::TrialStatus::Ok ? compute.workload.flops() / (gflops * 1e6) : 0;
  r.error = status == tune::TrialStatus::Ok ? "" : "candidate.c:3: error: expected ';'\nmore compiler output";
  r.search = "random";
  r.trial = trial;
  return r;
}

const char* kMatmul = "matmul:32x32x32";
const char* kConv = "conv2d:1x8x9x9,16x8x3x3,s1,p1";

QString writeDatabase(const QTemporaryDir& dir) {
  const QString path = dir.filePath("records.db");
  tune::TuningDatabase database(path.toStdString());
  database.add(storedRecord(kMatmul, 1, tune::TrialStatus::Ok, 3.0, 1));
  database.add(storedRecord(kMatmul, 2, tune::TrialStatus::Ok, 5.0, 2));
  database.add(storedRecord(kMatmul, 3, tune::TrialStatus::CompileError, 0, 3));
  database.add(storedRecord(kConv, 1, tune::TrialStatus::WrongResult, 0, 1));
  return path;
}

} // namespace

TEST(TuningPage, IsMadeWhenItsTabIsFirstChosen) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  EXPECT_FALSE(window.tuningPage()->isBuilt());
  window.showView("tuning");
  EXPECT_TRUE(window.tuningPage()->isBuilt());
  EXPECT_EQ(window.currentViewName(), "tuning");
}

TEST(TuningPage, ListsTheRecordsOfADatabasePerWorkload) {
  QTemporaryDir dir;
  const QString path = writeDatabase(dir);
  MainWindow window(testWindowOptions(dir.path()));
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  QSignalSpy opened(page, &TuningPage::databaseOpened);
  page->openDatabase(path);
  EXPECT_TRUE(window.isBusy()) << "the database is read on a worker";
  ASSERT_TRUE(opened.wait(30000));
  EXPECT_TRUE(page->errorText().isEmpty()) << page->errorText().toStdString();

  ASSERT_EQ(page->workloadPicker()->count(), 2);
  EXPECT_EQ(page->workloadPicker()->itemText(0), kMatmul);
  EXPECT_EQ(page->workloadPicker()->itemText(1), kConv);
  EXPECT_EQ(page->recordsShown(), 3);
  EXPECT_EQ(window.itemsShown()["tuning"], 3);
  EXPECT_EQ(page->chart()->trialCount(), 3);
  EXPECT_EQ(page->chart()->verifiedPoints(), 2);
  EXPECT_DOUBLE_EQ(page->chart()->bestGflops(), 5.0);
  views::TuningRecordModel* model = page->records();
  EXPECT_EQ(model->data(model->index(0, views::TuningRecordModel::Outcome), Qt::DisplayRole).toString(), "ok");
  EXPECT_EQ(model->data(model->index(2, views::TuningRecordModel::Outcome), Qt::DisplayRole).toString(), "failed build");
  EXPECT_EQ(model->data(model->index(2, views::TuningRecordModel::Message), Qt::DisplayRole).toString(),
            "candidate.c:3: error: expected ';'");
  EXPECT_EQ(model->data(model->index(1, views::TuningRecordModel::Gflops), Qt::DisplayRole).toString(), "5.00");

  // With no row chosen, the best candidate's trace and the loop nest it replays to.
  EXPECT_EQ(model->bestRow(), 1);
  EXPECT_TRUE(page->candidateCaption().startsWith("Best candidate: trial 2")) << page->candidateCaption().toStdString();
  const tune::Trace best = tune::traceFromJson(model->recordAt(1).trace);
  EXPECT_EQ(page->traceText()->toPlainText().toStdString(), tune::traceToText(best));
  const tune::Schedule replayed = tune::replaySchedule(tune::computeOf(tune::parseWorkload(kMatmul)), best);
  EXPECT_EQ(page->loopNestText()->toPlainText().toStdString(), replayed.nest().toString());

  // Choosing a row shows that candidate.
  page->table()->selectRow(0);
  EXPECT_TRUE(page->candidateCaption().startsWith("Selected candidate: trial 1")) << page->candidateCaption().toStdString();
  EXPECT_EQ(page->traceText()->toPlainText().toStdString(), tune::traceToText(tune::traceFromJson(model->recordAt(0).trace)));
  page->table()->selectRow(2);
  EXPECT_TRUE(page->candidateCaption().contains("failed build")) << page->candidateCaption().toStdString();

  // The other workload, from the picker.
  page->workloadPicker()->setCurrentIndex(1);
  EXPECT_EQ(page->recordsShown(), 1);
  EXPECT_EQ(model->data(model->index(0, views::TuningRecordModel::Outcome), Qt::DisplayRole).toString(), "wrong result");
  EXPECT_EQ(page->chart()->verifiedPoints(), 0);
  EXPECT_TRUE(page->progressText().contains(kConv)) << page->progressText().toStdString();
}

TEST(TuningPage, AFileThatIsNotATuningDatabaseIsRefusedByName) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  TuningPage* page = window.tuningPage();
  const QString text = dir.filePath("notes.db");
  {
    QFile file(text);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("these are notes, not a database\n");
  }
  const QString missing = dir.filePath("missing.db");
  for (const QString& path : {text, missing}) {
    QSignalSpy failed(page, &TuningPage::databaseFailed);
    page->openDatabase(path);
    ASSERT_TRUE(failed.wait(30000)) << path.toStdString();
    const QString message = failed.front().front().toString();
    EXPECT_TRUE(message.contains(path)) << message.toStdString();
    EXPECT_TRUE(page->errorText().contains(path)) << page->errorText().toStdString();
    EXPECT_EQ(page->recordsShown(), 0);
    EXPECT_TRUE(page->databasePath().isEmpty()) << "a run would not write into a file that is no database";
  }
  EXPECT_FALSE(QFile::exists(missing)) << "opening a database to read it never creates one";
}

TEST(TuningPage, AMalformedWorkloadShowsTheParsersError) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  const QString malformed = "matmul:64x64";
  std::string expected;
  try {
    tune::parseWorkload(malformed.toStdString());
  } catch (const Error& e) {
    expected = e.what();
  }
  ASSERT_FALSE(expected.empty()) << "the parser accepts " << malformed.toStdString();
  EXPECT_FALSE(page->startTuning(malformed, 8));
  EXPECT_FALSE(page->isRunning());
  EXPECT_EQ(page->errorText().toStdString(), expected);
  EXPECT_FALSE(page->startButton()->isEnabled());
  // Mending it clears the error and enables Start again.
  page->workloadField()->setText("matmul:64x64x64");
  EXPECT_TRUE(page->errorText().isEmpty());
  EXPECT_TRUE(page->startButton()->isEnabled());
}

// A short run: every measured candidate reaches the table and the chart, the tuner works on its
// own thread, and the UI thread keeps turning (a 5 ms timer's longest gap) until Start is back.
TEST(TuningPage, AShortRunFillsTheChartAndTheTableOffTheUiThread) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  page->searchChoice()->setCurrentText("random");
  QSignalSpy finished(page, &TuningPage::runFinished);
  QSignalSpy failed(page, &TuningPage::runFailed);

  QElapsedTimer sinceTick;
  double maxGapMs = 0;
  int ticks = 0;
  QTimer ticker;
  ticker.setInterval(5);
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    maxGapMs = std::max(maxGapMs, sinceTick.nsecsElapsed() / 1e6);
    sinceTick.restart();
    ++ticks;
  });
  QElapsedTimer call;
  call.start();
  ASSERT_TRUE(page->startTuning("matmul:64x64x64", 8)) << page->errorText().toStdString();
  const qint64 callMs = call.elapsed();
  EXPECT_TRUE(page->isRunning());
  EXPECT_TRUE(window.isBusy());
  EXPECT_FALSE(page->startButton()->isEnabled());
  EXPECT_TRUE(page->stopButton()->isEnabled());
  sinceTick.start();
  ticker.start();
  ASSERT_TRUE(finished.wait(600'000)) << "the run did not end";
  ticker.stop();
  ASSERT_TRUE(failed.isEmpty()) << failed.front().front().toString().toStdString();

  EXPECT_EQ(page->recordsShown(), 8);
  EXPECT_EQ(page->chart()->trialCount(), 8);
  EXPECT_GT(page->chart()->verifiedPoints(), 0) << "no candidate of a 64^3 matmul verified";
  EXPECT_GT(page->chart()->bestLinePoints(), 0);
  EXPECT_GT(page->chart()->bestGflops(), 0);
#if TESSERA_HAVE_CPU_PLUGIN
  EXPECT_TRUE(page->chart()->baseline().has_value()) << "oneDNN's baseline line";
#endif
  EXPECT_TRUE(page->progressText().contains("trial 8 of 8")) << page->progressText().toStdString();
  EXPECT_TRUE(page->candidateCaption().startsWith("Best candidate")) << page->candidateCaption().toStdString();
  EXPECT_TRUE(page->loopNestText()->toPlainText().contains("for ")) << page->loopNestText()->toPlainText().toStdString();
  EXPECT_TRUE(page->traceText()->toPlainText().contains("SamplePerfectTile"));
  EXPECT_TRUE(page->startButton()->isEnabled());
  EXPECT_FALSE(page->stopButton()->isEnabled());
  EXPECT_FALSE(window.isBusy());

  EXPECT_NE(page->runner()->lastWorkerThread(), std::this_thread::get_id());
  EXPECT_NE(page->runner()->lastWorkerThread(), std::thread::id());
  std::printf("[ info ] startTuning returned in %lld ms; %d UI ticks, longest UI gap during the run %.1f ms\n",
              static_cast<long long>(callMs), ticks, maxGapMs);
  EXPECT_LT(callMs, 200) << "startTuning only starts the tuner's thread";
  EXPECT_LT(maxGapMs, 1000) << "the UI thread stalled while the tuner ran";
}

// The Code choice offers this build's code generations, LLVM first where it has it, and a run
// builds its kernels in the chosen one: each record's kernel is the one that language generates.
TEST(TuningPage, TheCodeChoiceIsTheLanguageTheKernelsAreBuiltIn) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  EXPECT_EQ(page->codegenChoice()->currentText().toStdString(), tune::languageName(tune::defaultCpuLanguage()));
  EXPECT_EQ(page->codegenChoice()->findText("c") >= 0, true);
  for (const QString& codegen : {QStringLiteral("c"), page->codegenChoice()->itemText(0)}) {
    SCOPED_TRACE(codegen.toStdString());
    page->searchChoice()->setCurrentText("random");
    page->codegenChoice()->setCurrentText(codegen);
    QSignalSpy finished(page, &TuningPage::runFinished);
    ASSERT_TRUE(page->startTuning("matmul:16x16x16", 3)) << page->errorText().toStdString();
    ASSERT_TRUE(finished.wait(600'000)) << "the run did not end";
    const tune::KernelLanguage language = tune::parseCpuLanguage(codegen.toStdString());
    const tune::Compute compute = tune::computeOf(tune::parseWorkload("matmul:16x16x16"));
    ASSERT_EQ(page->recordsShown(), 3);
    for (int row = 0; row < 3; ++row) {
      const tune::TuningRecord& record = page->records()->recordAt(row);
      EXPECT_EQ(tune::lowerCandidate(compute, tune::traceFromJson(record.trace), language).hash, record.hash);
    }
  }
}

// Flush caches times each kernel with its operands flushed first, and keeps the records apart
// from a warm runner's, under the target measured:cpu looks at first.
TEST(TuningPage, FlushCachesRecordsUnderTheFlushedTarget) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  EXPECT_FALSE(page->flushCachesChoice()->isChecked()) << "a kernel benchmark's warm caches by default";
  page->searchChoice()->setCurrentText("random");
  page->flushCachesChoice()->setChecked(true);
  QSignalSpy finished(page, &TuningPage::runFinished);
  ASSERT_TRUE(page->startTuning("matmul:16x16x16", 2)) << page->errorText().toStdString();
  ASSERT_TRUE(finished.wait(600'000)) << "the run did not end";
  ASSERT_EQ(page->recordsShown(), 2);
  for (int row = 0; row < 2; ++row) EXPECT_TRUE(page->records()->recordAt(row).target.ends_with(", caches flushed"));
}

// Stop ends a run before its next kernel runs: what was measured stays listed, and Start is back.
TEST(TuningPage, StopEndsARunWithWhatItMeasured) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.showView("tuning");
  TuningPage* page = window.tuningPage();
  page->searchChoice()->setCurrentText("random");
  QSignalSpy finished(page, &TuningPage::runFinished);
  ASSERT_TRUE(page->startTuning("matmul:64x64x64", 64));
  EXPECT_FALSE(page->startTuning("matmul:32x32x32", 8)) << "one run at a time";
  ASSERT_TRUE(waitUntil([&] { return page->recordsShown() >= 1; }, 600'000));
  page->stopTuning();
  ASSERT_TRUE(finished.wait(600'000));
  const int measured = page->recordsShown();
  EXPECT_GE(measured, 1);
  EXPECT_LT(measured, 64);
  EXPECT_EQ(page->chart()->trialCount(), measured);
  EXPECT_TRUE(page->progressText().contains("stopped")) << page->progressText().toStdString();
  EXPECT_TRUE(page->startButton()->isEnabled());
  EXPECT_FALSE(page->isRunning());
}
