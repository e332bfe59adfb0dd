// X-RLflow in the explorer (offscreen): the agent in the run panel with its checkpoint recorded,
// its decisions in the Agent decision dock and the session, and the Training view's reports.
#include "MainWindow.h"
#include "TestWindowOptions.h"
#include "RunPanel.h"
#include "SessionDocument.h"
#include "TrainingPage.h"
#include "TestModels.h"

#include "GraphScene.h"
#include "GraphView.h"
#include "live/AgentDecisionModel.h"
#include "live/AgentDecisionPanel.h"
#include "live/TrainingCurveChart.h"
#include "live/TrainingCurvesPanel.h"
#include "live/RealStepCurvesPanel.h"
#include "live/StrengthCurvesPanel.h"

#include "onnx/OnnxExport.h"
#include "rl/TrainingReport.h"
#include "session/Session.h"

#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

MainWindowOptions recordingOptions(const QTemporaryDir& dir) { return testWindowOptions(dir.path()); }

} // namespace

TEST(AgentWindow, TheRunPanelListsTheAgentAndSetsItsCheckpoint) {
  QTemporaryDir dir;
  MainWindow window(recordingOptions(dir));
  RunPanel* panel = window.runPanel();
  ASSERT_TRUE(panel->selectStrategy("xrlflow"));
  panel->setParameter("max_steps", "20");
  panel->setParameter("checkpoint", "/agents/mine.ckpt");
  const RunSettings settings = panel->settings();
  EXPECT_EQ(settings.strategy, "xrlflow");
  EXPECT_EQ(settings.search.parameters.at("checkpoint"), "/agents/mine.ckpt");
  EXPECT_EQ(settings.search.parameters.at("max_steps"), "20") << "setting one parameter keeps the others";
}

TEST(AgentWindow, TheTrainingViewShowsTheShippedAgentsReport) {
  const QString shipped = MainWindow::shippedTrainingReportPath();
  ASSERT_FALSE(shipped.isEmpty()) << "resources/agents/xrlflow-training.json is missing";
  const TrainingCurve curve = readTrainingCurve(shipped.toStdString());
  QTemporaryDir dir;
  MainWindow window(recordingOptions(dir));
  window.showView("training");
  EXPECT_EQ(window.currentViewName(), "training");
  views::TrainingCurveChart* chart = window.trainingPanel()->chart();
  ASSERT_TRUE(waitUntil([&] { return chart->seriesCount() == 1; }, 10000));
  EXPECT_EQ(chart->pointCount(0), static_cast<int>(curve.episodes.size()));
  EXPECT_EQ(window.itemsShown()["training"], 1);
}

// The strength chart opens on the shipped guide's recipe (completed-Q targets, 12 models) over three
// seeds beside the visit-share recipe's three on the same models, and with six lines its legend
// stands at the right, where no label is cut short.
TEST(AgentWindow, TheStrengthChartComparesTheShippedRecipeWithVisitShares) {
  QTemporaryDir dir;
  MainWindow window(recordingOptions(dir));
  window.showView("training");
  views::StrengthCurvesPanel* strength = window.trainingPage()->strengthPanel();
  ASSERT_TRUE(waitUntil([&] { return strength->chart()->seriesCount() == 6; }, 10000)) << strength->chart()->seriesCount();
  int visits = 0;
  for (int i = 0; i < 6; ++i) visits += strength->chart()->seriesName(i).startsWith("puct visits") ? 1 : 0;
  EXPECT_EQ(visits, 3);
  EXPECT_EQ(strength->chart()->seriesName(0), QStringLiteral("puct · seed 1")) << "the shipped guide's report first";
  EXPECT_EQ(strength->chart()->legendAlignment(), Qt::AlignRight);
}

// The Training view is made when first chosen (it was a tenth of the window's start-up); reports
// asked for before then (--training-report) are the ones it shows, and the bad ones are named.
TEST(AgentWindow, TrainingReportsAskedForBeforeTheViewIsMadeAreTheOnesItShows) {
  QTemporaryDir dir;
  const QString good = dir.filePath("good.json");
  const QString broken = dir.filePath("broken.json");
  QFile goodFile(good), brokenFile(broken);
  ASSERT_TRUE(goodFile.open(QIODevice::WriteOnly) && brokenFile.open(QIODevice::WriteOnly));
  goodFile.write(R"({"agent":"xrlflow","seed":7,"curve":[{"episode":1,"reward":0.5},{"episode":2,"reward":1.5},{"episode":3,"reward":2.0}]})");
  brokenFile.write(R"({"curve": [ {"reward": 1}, )");
  goodFile.close();
  brokenFile.close();

  MainWindow window(recordingOptions(dir));
  window.show();
  EXPECT_FALSE(window.trainingPanel()) << "made when the Training view is first chosen, not with the window";
  window.showTrainingReports({good, broken});
  EXPECT_FALSE(window.trainingPanel());
  EXPECT_EQ(window.itemsShown()["training"], 0);

  window.showView("training");
  ASSERT_TRUE(window.trainingPanel());
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 10000)) << "reading the reports counts as busy";
  views::TrainingCurveChart* chart = window.trainingPanel()->chart();
  ASSERT_EQ(chart->seriesCount(), 1) << "the good report only, instead of the shipped agent's";
  EXPECT_TRUE(chart->seriesName(0).contains("good.json")) << chart->seriesName(0).toStdString();
  EXPECT_EQ(chart->pointCount(0), 3);
  EXPECT_TRUE(window.trainingPanel()->errorText().contains("broken.json")) << window.trainingPanel()->errorText().toStdString();
  EXPECT_EQ(window.itemsShown()["training"], 1);
}

// A PUCT self-play report has no per-episode curve and no real steps: given alone it opens the
// Training view on the chart that draws it, and the view goes back to the real-step chart for others.
TEST(AgentWindow, SelfPlayReportsOpenOnTheStrengthChart) {
  QTemporaryDir dir;
  MainWindow window(recordingOptions(dir));
  window.show();
  // Two self-play reports of seed 1 with the same recipe: the shipped agent's and one trained on fewer models.
  const QString shipped = QStringLiteral(TESSERA_SOURCE_DIR "/resources/agents/puct-training.json");
  const QString fewer = QStringLiteral(TESSERA_SOURCE_DIR "/resources/agents/seeds/puct-completed-q-seed1.json");
  window.showTrainingReports({shipped, fewer});
  window.showView("training");
  ASSERT_TRUE(window.trainingPage());
  EXPECT_EQ(window.trainingPage()->currentChart(), static_cast<QWidget*>(window.trainingPage()->strengthPanel()));
  views::StrengthCurvesPanel* strength = window.trainingPage()->strengthPanel();
  ASSERT_TRUE(waitUntil([&] { return strength->chart()->seriesCount() == 2; }, 10000));
  // One agent and seed twice: the legend and the notes tell them apart by file.
  EXPECT_NE(strength->chart()->seriesName(0), strength->chart()->seriesName(1));
  const QString names = strength->chart()->seriesName(0) + QLatin1Char('|') + strength->chart()->seriesName(1);
  EXPECT_TRUE(names.contains("puct-completed-q-seed1.json") && names.contains("puct-training.json")) << names.toStdString();
  EXPECT_TRUE(strength->notesText().contains("puct-training.json: final network")) << strength->notesText().toStdString();
  window.showTrainingReports({QStringLiteral(TESSERA_SOURCE_DIR "/resources/agents/sample-efficiency/rlflow-seed1.json")});
  EXPECT_EQ(window.trainingPage()->currentChart(), static_cast<QWidget*>(window.trainingPage()->realStepsPanel()));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 10000));
}

#if TESSERA_HAVE_TORCH
TEST(AgentWindow, AnXrlflowRunShowsEachDecisionAndRecordsIt) {
  QTemporaryDir dir;
  const QString model = dir.filePath("branches.onnx");
  onnx_io::exportOnnxFile(tessera::testing::branchesGraph(), model.toStdString());
  MainWindow window(recordingOptions(dir));
  window.show();
  const std::string checkpoint = TESSERA_SOURCE_DIR "/resources/agents/xrlflow.ckpt";
  window.runPanel()->setParameter("checkpoint", checkpoint);
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.runWhenLoaded("xrlflow");
  window.openPath(model);
  ASSERT_TRUE(opened.wait(10000));
  ASSERT_TRUE(finished.count() > 0 || finished.wait(120000)) << window.lastError().toStdString();
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  // The dock shows the last decision, the one taken marked, and came forward by itself.
  views::AgentDecisionModel* shown = window.agentDecisionPanel()->model();
  ASSERT_GT(shown->rowCount(), 0);
  const int chosen = shown->chosenRow();
  ASSERT_GE(chosen, 0);
  EXPECT_TRUE(shown->index(chosen, views::AgentDecisionModel::Rule).data(views::AgentDecisionModel::ChosenRole).toBool());
  EXPECT_FALSE(window.agentDecisionDock()->visibleRegion().isEmpty()) << "raised over the docks it shares a place with";
  EXPECT_GT(window.itemsShown()["agent_decision"], 0);

  // The session holds the run with its checkpoint and a decision per committed step.
  ASSERT_TRUE(window.session());
  Session& session = window.session()->session();
  const std::vector<RunRecord> runs = session.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].info.strategy, "xrlflow");
  EXPECT_EQ(runs[0].info.parameters.at("checkpoint"), checkpoint);
  const std::vector<Event> events = session.events(runs[0].id);
  const auto count = [&](EventKind kind) { return std::count_if(events.begin(), events.end(), [&](const Event& e) { return e.kind() == kind; }); };
  EXPECT_GT(count(EventKind::AgentDecided), 0);
  EXPECT_EQ(count(EventKind::AgentDecided), count(EventKind::StepCommitted));
}
#endif
