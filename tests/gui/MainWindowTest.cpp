// The main window end to end (offscreen): a corrupt model reports an error and leaves the window
// usable, a session file is explained, a run fills the compare tab; and the command line.
#include "CommandLine.h"
#include "MainWindow.h"
#include "RunPanel.h"
#include "SearchRunner.h"
#include "TestModels.h"

#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "NodePropertiesModel.h"
#include "PropertiesPanel.h"

#include "onnx/OnnxExport.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>

#include <QAction>
#include <QFile>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

MainWindowOptions quietOptions() {
  MainWindowOptions options;
  options.persistSettings = false;
  options.interactiveErrors = false;
  return options;
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

TEST(MainWindow, SessionFilesAreExplainedNotOpened) {
  MainWindow window(quietOptions());
  QSignalSpy failed(&window, &MainWindow::modelFailed);
  window.openPath("demo.tsession");
  EXPECT_FALSE(window.isBusy());
  EXPECT_FALSE(window.original().graph);
  EXPECT_EQ(failed.count(), 0);
}

TEST(MainWindow, ARunFillsTheCompareTab) {
  QTemporaryDir dir;
  QString path = dir.filePath("branches.onnx");
  onnx_io::exportOnnxFile(tessera::testing::branchesGraph(), path.toStdString());
  MainWindow window(quietOptions());
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded("eqsat");
  window.openPath(path);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(finished.count() > 0 || finished.wait(60000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));
  EXPECT_EQ(window.currentViewName(), "compare");
  ASSERT_TRUE(window.lastOutcome());
  EXPECT_LT(window.lastOutcome()->optimizedCostMs, window.lastOutcome()->originalCostMs);
  EXPECT_TRUE(window.compareWidget()->hasGraphs());
  const auto& diff = window.compareWidget()->diff();
  EXPECT_GT(diff.added + diff.removed + diff.changed, 0u) << "an improved graph differs from the original";
  EXPECT_EQ(window.itemsShown()["compare"], window.compareWidget()->beforeView()->graphScene()->visibleNodeCount() +
                                                window.compareWidget()->afterView()->graphScene()->visibleNodeCount());
  EXPECT_FALSE(window.startRun("mcts")) << "strategies this build lacks are refused";
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
}
