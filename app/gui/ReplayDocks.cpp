#include "ReplayDocks.h"

#include "BackgroundWork.h"
#include "live/BestCostChart.h"
#include "live/LiveRun.h"
#include "live/ProvenancePanel.h"
#include "live/TimelineWidget.h"

#include "session/Session.h"
#include "support/Error.h"

#include <QDockWidget>
#include <QFutureWatcher>
#include <QMainWindow>

#include <algorithm>
#include <utility>
#include <vector>

namespace tessera::gui {

namespace {

QString runName(const RunRecord& run) { return QStringLiteral("%1 · run %2").arg(QString::fromStdString(run.info.strategy)).arg(run.id); }

struct StoredRun {
  int64_t runId = 0;
  QString name;
  std::vector<Event> events;
  std::vector<std::pair<QString, std::vector<views::CostSample>>> others; // the model's other finished runs
  QString error;
};

StoredRun readStoredRun(const QString& sessionPath, int64_t runId) {
  StoredRun stored;
  stored.runId = runId;
  try {
    Session session = Session::open(sessionPath.toStdString());
    std::vector<RunRecord> runs = session.runs();
    auto shown = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.id == runId; });
    if (shown == runs.end()) throw Error(sessionPath.toStdString() + ": no run " + std::to_string(runId));
    stored.name = runName(*shown);
    stored.events = session.events(runId);
    for (const RunRecord& other : runs) {
      if (other.id == runId || other.info.modelId != shown->info.modelId || !other.finishedAt) continue;
      stored.others.emplace_back(runName(other), views::bestCostCurve(session.events(other.id)));
    }
  } catch (const std::exception& e) {
    stored.error = QString::fromUtf8(e.what());
  }
  return stored;
}

} // namespace

ReplayDocks::ReplayDocks(QMainWindow* window, views::LiveRun* run) : QObject(window), run_(run) {
  timeline_ = new views::TimelineWidget(run, tr("this run"), window);
  timelineDock_ = new QDockWidget(tr("Timeline"), window);
  timelineDock_->setObjectName(QStringLiteral("timelineDock"));
  timelineDock_->setWidget(timeline_);
  window->addDockWidget(Qt::BottomDockWidgetArea, timelineDock_);

  provenance_ = new views::ProvenancePanel(run, window);
  provenanceDock_ = new QDockWidget(tr("Why this rewrite"), window);
  provenanceDock_->setObjectName(QStringLiteral("provenanceDock"));
  provenanceDock_->setWidget(provenance_);
  window->addDockWidget(Qt::RightDockWidgetArea, provenanceDock_);
  connect(run, &views::LiveRun::stateChanged, provenance_, &views::ProvenancePanel::showState);
}

void ReplayDocks::showStoredRun(const QString& sessionPath, int64_t runId) {
  const int generation = ++generation_;
  auto* watcher = new QFutureWatcher<StoredRun>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != generation_) return; // superseded by another run or a live search
    StoredRun stored = watcher->result();
    if (!stored.error.isEmpty()) {
      emit storedRunShown(stored.runId, stored.error);
      return;
    }
    views::BestCostChart* chart = timeline_->chart();
    for (const QString& name : chart->runNames()) chart->removeRun(name);
    timeline_->setRunName(stored.name);
    run_->loadEvents(stored.events);
    for (const auto& [name, curve] : stored.others) chart->setRun(name, curve);
    shownRunId_ = stored.runId;
    emit storedRunShown(stored.runId, {});
  });
  watcher->setFuture(views::runInBackground(readStoredRun, sessionPath, runId));
}

void ReplayDocks::followLiveRun(const QString& name) {
  ++generation_;
  shownRunId_ = 0;
  timeline_->setRunName(name);
}

} // namespace tessera::gui
