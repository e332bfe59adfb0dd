// The teaching sample in the explorer: Help ▸ Teaching Sample opens a copy of the bundled session
// (the bundled file is never written), shows the guide, replays a stored run in the timeline with
// the other runs' best-cost curves overlaid, and explains a rewritten node of a candidate.
#include "CandidatesPanel.h"
#include "MainWindow.h"
#include "TestWindowOptions.h"
#include "ReplayDocks.h"
#include "SessionDocument.h"
#include "TestModels.h"

#include "CandidateTableModel.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "live/BestCostChart.h"
#include "live/LiveRun.h"
#include "live/MctsTreeView.h"
#include "live/ProvenancePanel.h"
#include "live/TimelineWidget.h"

#include "search/Strategy.h"

#include <QCryptographicHash>
#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;
using tessera::testing::waitUntil;

namespace {

QByteArray fileHash(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

} // namespace

TEST(TeachingWindow, OpensACopyShowsTheGuideReplaysARunAndExplainsARewrite) {
  const QString bundled = MainWindow::teachingSessionPath();
  ASSERT_FALSE(bundled.isEmpty());
  const QByteArray bundledHash = fileHash(bundled);

  QTemporaryDir dir;
  MainWindow window(testWindowOptions(dir.path()));
  window.show();
  QSignalSpy opened(&window, &MainWindow::modelOpened);
  QSignalSpy sessionOpened(&window, &MainWindow::sessionOpened);
  QSignalSpy replayed(window.replayDocks(), &ReplayDocks::storedRunShown);
  window.openTeachingSample();
  ASSERT_TRUE(sessionOpened.wait(10000));
  ASSERT_TRUE(window.session());
  EXPECT_TRUE(window.session()->path().startsWith(dir.path())) << window.session()->path().toStdString();
  EXPECT_FALSE(window.guideDock()->isHidden());
  ASSERT_TRUE(opened.count() > 0 || opened.wait(10000));
  ASSERT_TRUE(waitUntil([&] { return !window.isBusy(); }, 30000));

  // The newest run is replayed, the model's other two runs overlaid.
  ASSERT_TRUE(replayed.count() > 0 || replayed.wait(10000));
  EXPECT_EQ(replayed.first().at(1).toString(), QString());
  EXPECT_NE(window.replayDocks()->shownRunId(), 0);
  views::TimelineWidget* timeline = window.replayDocks()->timeline();
  EXPECT_GT(timeline->slider()->maximum(), 0);
  EXPECT_EQ(timeline->chart()->runCount(), 3);

  // Selecting a candidate replays the run that produced it: greedy's, then MCTS's best.
  views::CandidateTableModel* candidates = window.candidatesPanel()->model();
  auto bestOf = [&](const char* strategy) {
    int best = -1;
    for (int row = 0; row < candidates->rowCount(); ++row) {
      const CandidateRecord& record = candidates->candidateAt(row);
      if (candidates->strategyOf(record) == QLatin1String(strategy) && (best < 0 || record.costMs < candidates->candidateAt(best).costMs))
        best = row;
    }
    return best;
  };
  for (const char* strategy : {"greedy", "mcts"}) {
    const int row = bestOf(strategy);
    ASSERT_GE(row, 0) << strategy;
    const CandidateRecord record = candidates->candidateAt(row);
    window.candidatesPanel()->selectCandidates({record.id});
    ASSERT_TRUE(waitUntil([&] { return window.replayDocks()->shownRunId() == record.runId; }, 10000)) << strategy;
    EXPECT_EQ(timeline->chart()->runCount(), 3) << strategy;
  }
  const CandidateRecord mcts = candidates->candidateAt(bestOf("mcts"));

  views::GraphScene* scene = window.graphView()->graphScene();
  ASSERT_TRUE(waitUntil([&] { return scene->snapshot().graph && !window.isBusy(); }, 30000));
  const SessionDocument::LoadedCandidate loaded = window.session()->loadCandidate(mcts.id);
  // A rewritten node the view shows (weight-only nodes may be hidden).
  std::optional<NodeId> rewritten;
  for (NodeId id = 0; id < loaded.origins.size() && !rewritten; ++id) {
    if (loaded.origins[id].rule.empty()) continue;
    scene->selectNode(id);
    if (scene->selectedNode() == id) rewritten = id;
  }
  ASSERT_TRUE(rewritten.has_value()) << "the best MCTS candidate shows rewritten nodes";
  const QString why = window.replayDocks()->provenance()->text();
  EXPECT_TRUE(why.contains(QString::fromStdString(loaded.origins[*rewritten].rule))) << why.toStdString();
  EXPECT_TRUE(why.contains(QStringLiteral("Chain of rewrites"))) << why.toStdString();

  // A committed node of the MCTS tree explains the step that committed it.
  const MctsTreeMirror& tree = window.liveRun()->state().tree;
  ASSERT_GE(tree.committedPath().size(), 2u);
  const uint32_t committed = tree.committedPath()[1];
  window.mctsView()->selectNode(committed);
  const QString step = window.replayDocks()->provenance()->text();
  EXPECT_TRUE(step.contains(QStringLiteral("Step %1").arg(tree.node(committed)->committedStep))) << step.toStdString();

  EXPECT_EQ(fileHash(bundled), bundledHash) << "the bundled session is never written";
}
