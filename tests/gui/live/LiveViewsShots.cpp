// Renders every live view from real event logs to PNGs (not a test: for people to look at).
// Usage: tessera_live_views_shots OUT_DIR [mcts]   (QT_QPA_PLATFORM=offscreen)
#include "RecordedRuns.h"
#include "live/EGraphView.h"
#include "live/LiveRun.h"
#include "live/MctsTreeView.h"
#include "live/ProvenancePanel.h"
#include "live/RulePanel.h"
#include "live/TimelineWidget.h"
#include "rewrite/DefaultRules.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsView>

#include <cstdio>

using namespace tessera;
using namespace tessera::views;

namespace {
void save(QWidget& widget, const QString& dir, const QString& name) {
  widget.show();
  QApplication::processEvents();
  widget.grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

void shootRun(const QString& dir, const QString& name, const std::vector<Event>& log, const std::vector<Event>* overlay) {
  LiveRun run;
  EGraphView egraph;
  MctsTreeView tree;
  RulePanel rules(ruleInfos(defaultRules()));
  ProvenancePanel provenance(&run);
  TimelineWidget timeline(&run, name);
  egraph.resize(1500, 950);
  tree.resize(1300, 800);
  rules.resize(900, 700);
  provenance.resize(700, 600);
  timeline.resize(1000, 380);
  for (QWidget* w : std::initializer_list<QWidget*>{&egraph, &tree, &rules, &provenance, &timeline}) w->show();
  QObject::connect(&run, &LiveRun::stateChanged, &egraph, &EGraphView::showState);
  QObject::connect(&run, &LiveRun::stateChanged, &tree, &MctsTreeView::showState);
  QObject::connect(&run, &LiveRun::stateChanged, &rules, &RulePanel::showState);
  QObject::connect(&run, &LiveRun::stateChanged, &provenance, &ProvenancePanel::showState);

  // Feed it as the runner would: a batch per frame; measure the worst batch.
  qint64 worst = 0;
  const size_t batch = std::max<size_t>(100, log.size() / 60);
  for (size_t from = 0; from < log.size(); from += batch) {
    QElapsedTimer timer;
    timer.start();
    run.applyEvents(std::vector<Event>(log.begin() + static_cast<long>(from), log.begin() + static_cast<long>(std::min(log.size(), from + batch))));
    egraph.graphicsView()->viewport()->repaint();
    tree.graphicsView()->viewport()->repaint();
    worst = std::max(worst, timer.elapsed());
  }
  QElapsedTimer seek;
  seek.start();
  run.seekToIndex(log.size() / 3);
  const qint64 seekMs = seek.elapsed();
  run.seekToIndex(log.size());
  std::fflush(stdout);
  std::printf("%s: %zu events, %zu e-nodes, %zu e-classes, %zu tree nodes; worst live batch %lld ms (batch %zu); "
              "seek to 1/3 with all views %lld ms\n",
              qPrintable(name), log.size(), run.state().egraph.numNodes(), run.state().egraph.numClasses(),
              run.state().tree.size(), static_cast<long long>(worst), batch, static_cast<long long>(seekMs));
  std::fflush(stdout);

  if (!egraph.visibility().shown.empty()) {
    egraph.fitToView();
    save(egraph, dir, name + QStringLiteral("-egraph-fit"));
    egraph.graphicsView()->setTransform(QTransform());
    egraph.graphicsView()->centerOn(egraph.classPosition(egraph.visibility().shown[egraph.visibility().shown.size() / 2]));
    save(egraph, dir, name + QStringLiteral("-egraph-100pct"));
    // Focus on the class with the most nodes.
    EClassId biggest = 0;
    size_t most = 0;
    for (const MirrorClass* c : run.state().egraph.classes())
      if (c->nodes.size() > most) {
        most = c->nodes.size();
        biggest = c->id;
      }
    egraph.focusClass(biggest, 2);
    save(egraph, dir, name + QStringLiteral("-egraph-focus"));
    egraph.clearFocus();
    egraph.setOpFilter(QStringLiteral("MatMul"));
    egraph.fitToView();
    save(egraph, dir, name + QStringLiteral("-egraph-filter-matmul"));
    egraph.setOpFilter({});
    egraph.setClassBudget(150);
    egraph.fitToView();
    save(egraph, dir, name + QStringLiteral("-egraph-budget150"));
  }
  tree.fitToView();
  save(tree, dir, name + QStringLiteral("-tree"));
  if (!run.state().tree.committedPath().empty()) {
    tree.selectNode(run.state().tree.committedPath().front());
    save(tree, dir, name + QStringLiteral("-tree-selected"));
  }
  save(rules, dir, name + QStringLiteral("-rules"));
  for (MirrorNodeId id = 0; id < run.state().egraph.numNodes(); ++id)
    if (run.state().egraph.nodes()[id].rule >= 0 && run.state().egraph.nodes()[id].step > 0) {
      provenance.explainENode(id);
      break;
    }
  if (!run.state().tree.committedPath().empty()) provenance.explainStep(0);
  save(provenance, dir, name + QStringLiteral("-provenance"));
  if (overlay) timeline.addComparisonRun(QStringLiteral("overlay"), *overlay);
  run.seekToIndex(log.size() * 2 / 3);
  save(timeline, dir, name + QStringLiteral("-timeline"));
}
} // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("live-shots");
  QDir().mkpath(dir);
  const bool withMcts = argc > 2 && std::string(argv[2]) == "mcts";
  const auto bert = recorded::recordEqsatRun("bert", 2000);
  const auto nasnet = recorded::recordEqsatRun("nasnet_a", 2000);
  const auto synthetic = recorded::syntheticMctsRun(8, 40);
  shootRun(dir, QStringLiteral("bert-eqsat"), bert, nullptr);
  shootRun(dir, QStringLiteral("nasnet-eqsat"), nasnet, &bert);
  shootRun(dir, QStringLiteral("synthetic-mcts"), synthetic, nullptr);
  if (withMcts) {
    const auto mcts = recorded::recordSearchRun("mcts", "bert", 2000, 30);
    shootRun(dir, QStringLiteral("bert-mcts"), mcts, &bert);
  }
  return 0;
}
