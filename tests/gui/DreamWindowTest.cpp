// RLFlow in the explorer (offscreen, issue #33): the Dream view traces the graph shown, the
// agent's real argmax play beside the world model's dream of the same actions, and refuses an
// X-RLflow checkpoint naming it; the Training view charts the shipped three-seed runs of both
// agents by real environment steps.
#include "DreamPage.h"
#include "MainWindow.h"
#include "TestModels.h"
#include "TestWindowOptions.h"

#include "live/RealStepCurvesPanel.h"
#include "live/SeriesChart.h"

#include "onnx/OnnxExport.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

TEST(DreamWindow, TheTrainingViewChartsBothAgentsThreeSeedsByRealSteps) {
  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.showView("training");
  auto* panel = window.findChild<views::RealStepCurvesPanel*>();
  ASSERT_TRUE(panel) << "made when the Training view is first chosen";
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 10000));
  EXPECT_TRUE(panel->errorText().isEmpty()) << panel->errorText().toStdString();
  views::SeriesChart* chart = panel->chart();
  ASSERT_EQ(chart->seriesCount(), 6);
  int rlflow = 0, xrlflow = 0;
  for (int s = 0; s < chart->seriesCount(); ++s) {
    EXPECT_GE(chart->pointCount(s), 2);
    rlflow += chart->seriesName(s).startsWith("rlflow") ? 1 : 0;
    xrlflow += chart->seriesName(s).startsWith("xrlflow") ? 1 : 0;
  }
  EXPECT_EQ(rlflow, 3);
  EXPECT_EQ(xrlflow, 3);
}

#if TESSERA_HAVE_TORCH
TEST(DreamWindow, TheDreamViewTracesTheGraphShownAndRefusesAnXrlflowAgent) {
  QTemporaryDir dir;
  const QString model = dir.filePath("branches.onnx");
  onnx_io::exportOnnxFile(tessera::testing::branchesGraph(), model.toStdString());
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  window.openPath(model);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  DreamPage* dream = window.dreamPage();
  QSignalSpy traced(dream, &DreamPage::traced);
  window.showView("dream"); // shown: it dreams from the graph the Graph view shows
  EXPECT_EQ(window.currentViewName(), "dream");
  ASSERT_TRUE(traced.count() > 0 || traced.wait(60000));
  EXPECT_TRUE(traced.takeFirst().at(0).toString().isEmpty()) << dream->statusText().toStdString();
  ASSERT_GT(dream->stepsShown(), 0);
  EXPECT_EQ(window.itemsShown()["dream"], dream->stepsShown());
  EXPECT_EQ(dream->rewardChart()->seriesCount(), 3) << "real, dreamt and one-step";
  EXPECT_EQ(dream->rewardChart()->pointCount(0), dream->stepsShown());
  EXPECT_EQ(dream->actionsChart()->seriesCount(), 2);
  EXPECT_TRUE(dream->statusText().contains("real environment steps")) << dream->statusText().toStdString();
  EXPECT_TRUE(dream->statusText().contains("played by the agent")) << dream->statusText().toStdString();

  // Greedy plays the real rollout instead: the world model dreams greedy's path.
  auto* policy = dream->findChild<QComboBox*>("dreamPolicy");
  ASSERT_TRUE(policy);
  ASSERT_EQ(policy->count(), 3) << "the agent, greedy and the shipped X-RLflow agent";
  policy->setCurrentIndex(1);
  ASSERT_TRUE(dream->trace());
  ASSERT_TRUE(traced.wait(60000));
  EXPECT_TRUE(traced.takeFirst().at(0).toString().isEmpty()) << dream->statusText().toStdString();
  EXPECT_TRUE(dream->statusText().contains("played by greedy")) << dream->statusText().toStdString();
  EXPECT_GT(dream->stepsShown(), 0);
  policy->setCurrentIndex(0);

  const QString xrlflow = TESSERA_SOURCE_DIR "/resources/agents/xrlflow.ckpt";
  dream->setCheckpoint(xrlflow);
  ASSERT_TRUE(dream->trace());
  ASSERT_TRUE(traced.wait(30000));
  const QString error = traced.takeFirst().at(0).toString();
  EXPECT_TRUE(error.contains("xrlflow.ckpt") && error.contains("xrlflow")) << error.toStdString();
  EXPECT_EQ(dream->statusText(), error);
}
#endif
