// The main window end to end (offscreen): a corrupt model reports an error and leaves the window
// usable, a run fills the compare tab; and the command line. Sessions: SessionWindowTest.
#include "CommandLine.h"
#include "MainWindow.h"
#include "TestWindowOptions.h"
#include "RunPanel.h"
#include "SearchRunner.h"
#include "TestModels.h"
#include "ThemeController.h"

#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "MeasuredLatencyBar.h"
#include "NodePropertiesModel.h"
#include "live/EGraphView.h"
#include "live/LiveRun.h"
#include "live/MctsTreeView.h"
#include "PropertiesPanel.h"

#include "onnx/OnnxExport.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>

#include <QAction>
#include <QFile>
#include <QGuiApplication>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

MainWindowOptions quietOptions() { return testWindowOptions(); }

// The branches model written into `dir`; runs in a window with recordingOptions(dir) are recorded
// there, not in the user's data directory.
QString writeBranchesModel(const QTemporaryDir& dir) {
  QString path = dir.filePath("branches.onnx");
  onnx_io::exportOnnxFile(tessera::testing::branchesGraph(), path.toStdString());
  return path;
}

MainWindowOptions recordingOptions(const QTemporaryDir& dir) { return testWindowOptions(dir.path()); }

// Opens `path` in `window` with a `strategy` run queued, and waits until the run has finished and
// the window is idle again.
::testing::AssertionResult openAndRun(MainWindow& window, const QString& path, const char* strategy) {
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded(strategy);
  window.openPath(path);
  if (!opened.wait(10000)) return ::testing::AssertionFailure() << "the model did not open: " << window.lastError().toStdString();
  if (finished.count() == 0 && !finished.wait(60000)) return ::testing::AssertionFailure() << "the " << strategy << " run did not finish";
  if (!waitUntil([&] { return !window.isBusy(); }, 30000)) return ::testing::AssertionFailure() << "the window stayed busy";
  return ::testing::AssertionSuccess();
}

} // namespace

TEST(MainWindow, CorruptModelReportsAnErrorAndKeepsTheWindowUsable) {
  QTemporaryDir dir;
  QString bad = dir.filePath("corrupt.onnx");
  QFile file(bad);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("\x08\x07 this is not a protobuf \xff\xff\xff");
  file.close();

  MainWindow window(quietOptions());
  window.show();
  QSignalSpy failed(&window, &MainWindow::modelFailed);
  window.openPath(bad);
  ASSERT_TRUE(failed.wait(10000));
  EXPECT_TRUE(window.lastError().contains(bad)) << window.lastError().toStdString();
  EXPECT_FALSE(window.original().graph);
  EXPECT_FALSE(window.isBusy());

  // Still usable: a good model opens and appears.
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  window.openPath(QString::fromStdString(tessera::testing::samplePath("squeezenet")));
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_EQ(window.itemsShown()["graph"], static_cast<int>(window.original().graph->size() - window.original().graph->weightNodes().size()));
  EXPECT_EQ(window.propertiesPanel()->model()->value("Model", "Ops"), QString::number(window.original().graph->opCount()));

  // A missing file names itself too.
  window.openPath(dir.filePath("missing.onnx"));
  ASSERT_TRUE(failed.wait(10000));
  EXPECT_TRUE(window.lastError().contains("missing.onnx"));
  EXPECT_TRUE(window.original().graph) << "the open model stays open";
}

TEST(MainWindow, ARunFillsTheCompareTab) {
  QTemporaryDir dir;
  QString path = writeBranchesModel(dir);
  MainWindow window(recordingOptions(dir));
  window.show();
  ASSERT_TRUE(openAndRun(window, path, "eqsat"));
  EXPECT_EQ(window.currentViewName(), "compare");
  ASSERT_TRUE(window.lastOutcome());
  EXPECT_LT(window.lastOutcome()->result.bestCostMs, window.lastOutcome()->result.originalCostMs);
  EXPECT_TRUE(window.compareWidget()->hasGraphs());
  const auto& diff = window.compareWidget()->diff();
  EXPECT_GT(diff.added + diff.removed + diff.changed, 0u) << "an improved graph differs from the original";
  EXPECT_EQ(window.itemsShown()["compare"], window.compareWidget()->beforeView()->graphScene()->visibleNodeCount() +
                                                window.compareWidget()->afterView()->graphScene()->visibleNodeCount());
  EXPECT_FALSE(window.startRun("annealing")) << "unknown strategies are refused";
}

// The compare view puts what the device measured beside what the cost model predicted: "Time end
// to end" runs both graphs on the CPU backend on a worker, and new graphs drop the old figures.
TEST(MainWindow, TimingTheComparedGraphsShowsTheMeasuredLatencyBesideThePrediction) {
  if (!TESSERA_HAVE_CPU_PLUGIN) GTEST_SKIP() << "this build has no CPU plugin (oneDNN was not found at configure time)";
  QTemporaryDir dir;
  QString path = writeBranchesModel(dir);
  MainWindow window(recordingOptions(dir));
  window.show();
  ASSERT_TRUE(openAndRun(window, path, "eqsat"));

  views::MeasuredLatencyBar* bar = window.compareWidget()->measuredBar();
  EXPECT_FALSE(bar->hasMeasurement());
  EXPECT_TRUE(bar->text().contains("not yet")) << bar->text().toStdString();
  EXPECT_TRUE(bar->text().contains("cpu")) << "an analytic prediction is checked on the CPU backend";
  ASSERT_TRUE(bar->measureButton()->isEnabled());
  bar->measureButton()->click();
  EXPECT_FALSE(bar->measureButton()->isEnabled()) << "one timing at a time";
  EXPECT_TRUE(window.isBusy());
  ASSERT_TRUE(waitUntil([&] { return bar->hasMeasurement(); }, 120000)) << bar->text().toStdString();
  const std::string line = bar->text().toStdString();
  EXPECT_NE(line.find("measured "), std::string::npos) << line;
  EXPECT_NE(line.find("interval"), std::string::npos) << line;
  EXPECT_NE(line.find("end to end on cpu:"), std::string::npos) << line;
  EXPECT_TRUE(bar->measureButton()->isEnabled());

  // Other graphs compared: the measurement belonged to the old pair.
  window.compareWidget()->setGraphs(window.compareWidget()->afterView()->graphScene()->snapshot(),
                                    window.compareWidget()->beforeView()->graphScene()->snapshot(), {});
  EXPECT_FALSE(bar->hasMeasurement());
  EXPECT_TRUE(bar->text().contains("not yet")) << bar->text().toStdString();

  // Asked again for other graphs while a timing runs: that request waits for it, then runs.
  bar->measureButton()->click();
  ASSERT_TRUE(bar->isMeasuring());
  window.compareWidget()->setGraphs(window.compareWidget()->afterView()->graphScene()->snapshot(),
                                    window.compareWidget()->beforeView()->graphScene()->snapshot(), {});
  ASSERT_TRUE(bar->measureButton()->isEnabled()) << "new graphs can be timed while the old pair's timing runs";
  bar->measureButton()->click();
  EXPECT_TRUE(bar->isMeasuring());
  ASSERT_TRUE(waitUntil([&] { return bar->hasMeasurement(); }, 240000)) << bar->text().toStdString();
  EXPECT_FALSE(window.isBusy());
}

// A second run in the same window starts from a clean e-graph and tree: its picture is exactly
// what a fresh view shows for its log, not the first run's layout with the second run's ids in it.
TEST(MainWindow, TwoConsecutiveRunsStartFromACleanView) {
  QTemporaryDir dir;
  QString path = writeBranchesModel(dir);
  MainWindow window(recordingOptions(dir));
  window.show();
  window.showView("egraph");
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded("mcts");
  window.openPath(path);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(finished.count() > 0 || finished.wait(60000));
  views::EGraphView* egraph = window.egraphView();
  ASSERT_GT(egraph->shownClasses(), 0u);
  ASSERT_GT(window.mctsView()->shownNodes(), 1u);
  const size_t firstRunClasses = egraph->layout().placedCount();

  ASSERT_TRUE(window.startRun("eqsat"));
  // Before the second run's first batch arrives, nothing of the first is left.
  EXPECT_EQ(egraph->shownClasses(), 0u);
  EXPECT_EQ(egraph->layout().placedCount(), 0u) << "the first run placed " << firstRunClasses << " classes";
  EXPECT_EQ(window.mctsView()->shownNodes(), 0u);
  ASSERT_TRUE(finished.count() > 1 || finished.wait(60000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  views::LiveRun freshRun;
  views::EGraphView fresh;
  fresh.resize(egraph->size());
  QObject::connect(&freshRun, &views::LiveRun::stateChanged, &fresh, &views::EGraphView::showState);
  freshRun.loadEvents(window.liveRun()->replay().events());
  ASSERT_GT(fresh.shownClasses(), 0u);
  // Where each class sits depends on how the run's events were batched (the layout is stable as
  // the graph grows, so a class keeps the place it got in an early batch): positions are not
  // compared, only what the log decides, the classes shown.
  std::vector<EClassId> shown = egraph->visibility().shown;
  std::vector<EClassId> freshShown = fresh.visibility().shown;
  std::sort(shown.begin(), shown.end());
  std::sort(freshShown.begin(), freshShown.end());
  EXPECT_EQ(shown, freshShown);
  for (EClassId id : shown) EXPECT_TRUE(egraph->layout().placed(id)) << "class " << id;
  EXPECT_EQ(window.mctsView()->shownNodes(), 0u) << "eqsat grows no tree; the first run's must be gone";
}

// What a run writes into the docks (status lines, results) wraps or elides: a window that widens
// in the middle of a run repaints everything and, at the screen's width, runs off the screen.
TEST(MainWindow, ARunDoesNotWidenTheWindow) {
  QTemporaryDir dir;
  QString path = writeBranchesModel(dir);
  MainWindow window(recordingOptions(dir));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.openPath(path);
  ASSERT_TRUE(opened.wait(10000));
  const int before = window.minimumSizeHint().width();
  ASSERT_TRUE(window.startRun("mcts"));
  ASSERT_TRUE(finished.wait(60000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_LE(window.minimumSizeHint().width(), before);
}

// The explorer fits a common laptop screen (1,366 px wide): no page or dock asks for more width than
// that leaves. The SIP page (780 px) and the Rules dock (440 px) once made it 1,661 px at least.
TEST(MainWindow, FitsA1366PixelWideScreen) {
  MainWindow window(quietOptions());
  window.show();
  EXPECT_LE(window.minimumSizeHint().width(), 1366);
  EXPECT_LE(window.minimumSize().width(), 1366);
}

TEST(MainWindow, DroppedModelFilesOpen) {
  MainWindow window(quietOptions());
  window.show();
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(tessera::testing::samplePath("squeezenet")))});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &drop);
  ASSERT_TRUE(opened.wait(10000));
  EXPECT_TRUE(window.original().graph);

  QMimeData text;
  text.setUrls({QUrl::fromLocalFile("/tmp/notes.txt")});
  QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
  refused.setAccepted(false);
  QCoreApplication::sendEvent(&window, &refused);
  EXPECT_FALSE(refused.isAccepted());
}

TEST(MainWindow, RecentFilesAndLayoutPersist) {
  QSettings().clear();
  QString model = QString::fromStdString(tessera::testing::samplePath("squeezenet"));
  MainWindowOptions persistent;
  persistent.interactiveErrors = false;
  {
    MainWindow window(persistent);
    window.show();
    QSignalSpy opened(&window, &MainWindow::modelOpened);
    window.openPath(model);
    ASSERT_TRUE(opened.wait(10000));
    window.close(); // saves the layout
  }
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  ASSERT_FALSE(recent.isEmpty());
  EXPECT_EQ(recent.front(), QFileInfo(model).absoluteFilePath());
  EXPECT_FALSE(settings.value("mainWindow/state").toByteArray().isEmpty());
  EXPECT_EQ(settings.value("view/theme").toString(), "system");
  QSettings().clear();
}

// Light takes Fusion's palette from the one style the controller keeps (switching back and forth
// used to create, and leak, a style each time); dark and system restore their palettes.
TEST(ThemeController, SwitchesPalettesAndKeepsOneStyle) {
  const QPalette system = QGuiApplication::palette();
  {
    ThemeController theme;
    EXPECT_EQ(theme.theme(), "system");
    theme.setTheme("light");
    const QPalette light = QGuiApplication::palette();
    theme.setTheme("dark");
    EXPECT_EQ(theme.theme(), "dark");
    EXPECT_LT(QGuiApplication::palette().color(QPalette::Window).lightness(), 100);
    const QStyle* fusion = theme.lightStyle();
    ASSERT_NE(fusion, nullptr);
    theme.setTheme("light");
    theme.setTheme("light");
    EXPECT_EQ(QGuiApplication::palette().color(QPalette::Window), light.color(QPalette::Window));
    EXPECT_EQ(theme.lightStyle(), fusion) << "one style for every switch to light";
    theme.setTheme("bogus"); // follows the system
    EXPECT_EQ(theme.theme(), "system");
    EXPECT_EQ(QGuiApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
  }
  QGuiApplication::setPalette(system);
}

TEST(CommandLine, ParsesTheDesignedArguments) {
  CommandLine ok = parseCommandLine({"tessera", "model.onnx", "--run", "eqsat", "--view", "compare", "--screenshot", "out.png", "--after", "2.5"});
  EXPECT_TRUE(ok.error.isEmpty()) << ok.error.toStdString();
  EXPECT_EQ(ok.file, "model.onnx");
  EXPECT_EQ(ok.run, "eqsat");
  EXPECT_EQ(ok.view, "compare");
  EXPECT_EQ(ok.screenshot, "out.png");
  EXPECT_DOUBLE_EQ(ok.afterSeconds, 2.5);
  CommandLine defaults = parseCommandLine({"tessera"});
  EXPECT_TRUE(defaults.error.isEmpty());
  EXPECT_EQ(defaults.view, "graph");
  EXPECT_TRUE(defaults.screenshot.isEmpty());
  EXPECT_FALSE(parseCommandLine({"tessera", "--view", "tree"}).error.isEmpty());
  EXPECT_FALSE(parseCommandLine({"tessera", "--after", "soon", "--screenshot", "x.png"}).error.isEmpty());
  EXPECT_FALSE(parseCommandLine({"tessera", "a.onnx", "b.onnx"}).error.isEmpty());
  EXPECT_FALSE(parseCommandLine({"tessera", "--bogus"}).error.isEmpty());
  EXPECT_TRUE(parseCommandLine({"tessera", "s.tsession", "--run", "mcts"}).error.isEmpty());
  EXPECT_TRUE(parseCommandLine({"tessera", "m.onnx", "--run", "annealing"}).error.contains("annealing"));
}

TEST(RunPanel, ControlsFollowTheRunState) {
  RunPanel panel;
  auto button = [&](const QString& text) -> QPushButton* {
    for (QPushButton* b : panel.findChildren<QPushButton*>())
      if (b->text() == text) return b;
    return nullptr;
  };
  panel.setModelLoaded(true);
  ASSERT_TRUE(button("Start") && button("Pause") && button("Step") && button("Stop"));
  EXPECT_TRUE(button("Start")->isEnabled());
  EXPECT_FALSE(button("Pause")->isEnabled());
  EXPECT_FALSE(button("Step")->isEnabled());

  panel.setRunning(true);
  EXPECT_FALSE(button("Start")->isEnabled());
  EXPECT_TRUE(button("Pause")->isEnabled());
  EXPECT_TRUE(button("Stop")->isEnabled());
  EXPECT_FALSE(button("Step")->isEnabled()) << "a single step only makes sense while paused";
  QSignalSpy paused(&panel, &RunPanel::pauseRequested);
  button("Pause")->click();
  EXPECT_EQ(paused.count(), 1);

  panel.setPaused(true);
  ASSERT_TRUE(button("Resume"));
  EXPECT_TRUE(button("Step")->isEnabled());
  QSignalSpy resumed(&panel, &RunPanel::resumeRequested);
  QSignalSpy stepped(&panel, &RunPanel::stepRequested);
  button("Step")->click();
  button("Resume")->click();
  EXPECT_EQ(stepped.count(), 1);
  EXPECT_EQ(resumed.count(), 1);

  // Every strategy can be chosen; whether it runs is the runner's to say.
  for (const char* name : {"greedy", "taso", "eqsat", "mcts"}) {
    EXPECT_TRUE(panel.selectStrategy(name)) << name;
    EXPECT_EQ(panel.settings().strategy, name);
  }
  EXPECT_FALSE(panel.selectStrategy("annealing"));
}
