#include "CandidatesController.h"

#include "BackgroundWork.h"
#include "CandidatesPanel.h"
#include "CostModels.h"
#include "EndToEndTiming.h"
#include "RunPanel.h"
#include "SessionController.h"

#include "CandidateTableModel.h"
#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "MeasuredLatencyBar.h"
#include "PropertiesPanel.h"


#include <QFutureWatcher>
#include <QTimer>

#include <optional>
#include <utility>

namespace tessera::gui {

CandidatesController::CandidatesController(SessionController* session, CandidatesPanel* panel, RunPanel* runPanel,
                                           views::GraphView* graphView, views::CompareWidget* compare,
                                           views::PropertiesPanel* properties, QObject* parent)
    : QObject(parent), session_(session), panel_(panel), runPanel_(runPanel), graphView_(graphView), compare_(compare),
      properties_(properties) {
  connect(compare_->measuredBar(), &views::MeasuredLatencyBar::measureRequested, this, &CandidatesController::timeCompared);
}

void CandidatesController::setOriginal(views::GraphSnapshot original) {
  ++candidateGeneration_; // a candidate of the previous model still loading must not replace this one
  loading_ = false;
  original_ = std::move(original);
  best_ = {};
  shownCandidate_ = {};
  shownCandidateId_ = 0;
  shownOrigins_.clear();
  graphView_->graphScene()->setSnapshot(original_);
  compare_->clear();
  showTimingBackend();
  showProperties(original_, -1);
}

void CandidatesController::showTimingBackend() {
  const TimingBackend backend = timingBackendFor(original_.costSpec);
  compare_->setTimingBackend(QString::fromStdString(backend.name), QString::fromStdString(backend.why));
}

void CandidatesController::timeCompared() {
  const views::GraphSnapshot& before = compare_->beforeView()->graphScene()->snapshot();
  const views::GraphSnapshot& after = compare_->afterView()->graphScene()->snapshot();
  const std::string backend = timingBackendFor(original_.costSpec).name;
  if (!before.graph || !after.graph || backend.empty()) return;
  if (timing_) {
    // One device timing at a time (two would time each other): the graphs compared now are timed
    // when the running timing, of the pair they replaced, ends.
    timingQueued_ = true;
    compare_->measuredBar()->setMeasuring();
    return;
  }
  // Seconds of runs on the device: on a worker, so the window stays usable. The result is shown
  // only if the same two graphs are still compared.
  struct Timed {
    std::optional<EndToEndComparison> comparison;
    QString error;
  };
  timing_ = true;
  compare_->measuredBar()->setMeasuring();
  emit statusMessage(tr("Timing both graphs end to end on %1…").arg(QString::fromStdString(backend)), 0);
  auto* watcher = new QFutureWatcher<Timed>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, original = before.graph, candidate = after.graph] {
    watcher->deleteLater();
    timing_ = false;
    const Timed timed = watcher->result();
    // A request for graphs compared since runs now, unless yet other graphs have replaced those.
    if (std::exchange(timingQueued_, false) && compare_->measuredBar()->isMeasuring())
      QTimer::singleShot(0, this, &CandidatesController::timeCompared);
    if (compare_->beforeView()->graphScene()->snapshot().graph != original || compare_->afterView()->graphScene()->snapshot().graph != candidate)
      return; // other graphs are compared now; their bar was reset when they came, or shows the queued timing
    if (!timed.comparison) {
      compare_->measuredBar()->setFailed(timed.error);
      emit logged(tr("end-to-end timing failed: %1").arg(timed.error));
      return;
    }
    compare_->setMeasured(*timed.comparison);
    emit statusMessage(tr("Timed end to end: %1").arg(QString::fromStdString(timed.comparison->describeSpeedup())), 5000);
    emit logged(tr("end to end on %1: %2 ms -> %3 ms, %4")
                    .arg(QString::fromStdString(timed.comparison->device))
                    .arg(timed.comparison->originalMs, 0, 'f', 4)
                    .arg(timed.comparison->candidateMs, 0, 'f', 4)
                    .arg(QString::fromStdString(timed.comparison->describeSpeedup())));
    emit endToEndTimed();
  });
  watcher->setFuture(views::runInBackground([backend, original = before.graph, candidate = after.graph] {
    Timed timed;
    try {
      timed.comparison = timeEndToEnd(backend, *original, *candidate);
    } catch (const std::exception& error) {
      timed.error = QString::fromUtf8(error.what());
    }
    return timed;
  }));
}

void CandidatesController::showBest(views::GraphSnapshot best, const std::map<std::string, size_t>& rulesApplied,
                                    std::vector<NodeOrigin> origins) {
  best_ = std::move(best);
  compare_->setGraphs(originalAsBefore(), best_, rulesApplied, std::move(origins));
  // The cost model changed while the run went on: the best is priced by the one it ran with.
  const std::string spec = runPanel_->costSpec();
  if (best_.costSpec != original_.costSpec) onCostModelChanged(QString::fromStdString(spec));
}

const NodeOrigin* CandidatesController::originOf(qint64 node) const {
  if (!shownCandidate_.graph || node < 0 || static_cast<size_t>(node) >= shownOrigins_.size()) return nullptr;
  return &shownOrigins_[node];
}

void CandidatesController::load(const QList<qint64>& ids, std::function<void(std::vector<LoadedCandidate>)> show) {
  if (session_->path().isEmpty() || ids.isEmpty()) return;
  std::vector<int64_t> wanted;
  std::vector<std::string> titles;
  views::CandidateTableModel* model = panel_->model();
  for (qint64 id : ids) {
    wanted.push_back(id);
    std::string title = "candidate " + std::to_string(id);
    if (const int row = model->rowOf(id); row >= 0) {
      const CandidateRecord& record = model->candidateAt(row);
      title += " (" + model->strategyOf(record).toStdString() + ", run " + std::to_string(record.runId) + ")";
    }
    titles.push_back(std::move(title));
  }
  const int generation = ++candidateGeneration_;
  loading_ = true;
  emit statusMessage(tr("Loading %n candidate(s)…", nullptr, static_cast<int>(ids.size())), 0);
  auto* watcher = new QFutureWatcher<std::vector<LoadedCandidate>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, show = std::move(show)] {
    watcher->deleteLater();
    if (generation != candidateGeneration_) return;
    loading_ = false;
    std::vector<LoadedCandidate> loaded = watcher->result();
    graphsLoaded_ += loaded.size();
    if (!loaded.empty() && !loaded.front().error.isEmpty()) {
      emit failed(tr("Cannot load candidate"), loaded.front().error);
      return;
    }
    show(std::move(loaded));
  });
  // The worker reads with its own connection, so this never waits on the session's worker.
  watcher->setFuture(loadCandidatesAsync(session_->path(), std::move(wanted), std::move(titles), runPanel_->costSpec()));
}

void CandidatesController::onCandidatesSelected(const QList<qint64>& ids) {
  if (ids.size() == 2) {
    compareCandidates(ids[0], ids[1]);
    return;
  }
  if (ids.size() != 1) return;
  load(ids, [this](std::vector<LoadedCandidate> loaded) { showCandidate(std::move(loaded.front())); });
}

void CandidatesController::showCandidate(LoadedCandidate loaded) {
  shownCandidate_ = loaded.snapshot;
  shownCandidateId_ = loaded.id;
  shownOrigins_ = loaded.origins;
  graphView_->graphScene()->setSnapshot(shownCandidate_);
  showProperties(shownCandidate_, -1);
  if (original_.graph) compare_->setGraphs(originalAsBefore(), shownCandidate_, {}, std::move(loaded.origins));
  emit statusMessage(tr("Showing %1 (%2 ms)").arg(QString::fromStdString(shownCandidate_.title)).arg(shownCandidate_.totalMs, 0, 'f', 4), 5000);
  emit candidateShown(shownCandidateId_);
}

void CandidatesController::showOriginal() {
  if (!original_.graph) return;
  ++candidateGeneration_; // a candidate still loading would replace the original just shown
  loading_ = false;
  shownCandidate_ = {};
  shownCandidateId_ = 0;
  shownOrigins_.clear();
  graphView_->graphScene()->setSnapshot(original_);
  showProperties(original_, -1);
  emit originalShown();
}

void CandidatesController::compareWithOriginal(qint64 candidateId) {
  if (!original_.graph) return;
  load({candidateId}, [this](std::vector<LoadedCandidate> loaded) {
    if (!original_.graph) return;
    compare_->setGraphs(originalAsBefore(), loaded.front().snapshot, {}, std::move(loaded.front().origins));
    emit compareShown();
  });
}

void CandidatesController::compareCandidates(qint64 left, qint64 right) {
  load({left, right}, [this](std::vector<LoadedCandidate> loaded) {
    LoadedCandidate& a = loaded[0];
    LoadedCandidate& b = loaded[1];
    // The costlier graph on the left, so the compare reads as "before → after".
    if (b.snapshot.totalMs > a.snapshot.totalMs) std::swap(a, b);
    compare_->setGraphs(a.snapshot, b.snapshot, {}, std::move(b.origins));
    emit compareShown();
  });
}

void CandidatesController::onCostModelChanged(const QString& spec) {
  if (!original_.graph) return;
  // A measured model times the ops it has not seen yet (seconds on a first use), so pricing runs
  // off the UI thread; a later change of model supersedes an unfinished one.
  struct Repriced {
    views::GraphSnapshot original, shownCandidate, best;
    QString error;
  };
  const int generation = ++repriceGeneration_;
  repricing_ = true;
  emit statusMessage(tr("Pricing with %1…").arg(spec), 0);
  auto* watcher = new QFutureWatcher<Repriced>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, spec] {
    watcher->deleteLater();
    if (generation != repriceGeneration_) return;
    repricing_ = false;
    Repriced repriced = watcher->result();
    if (!repriced.error.isEmpty()) {
      emit failed(tr("Cost model"), repriced.error);
      return;
    }
    // The graphs may have changed meanwhile (another model opened, a candidate shown): keep only
    // the prices of the graphs still on screen.
    if (repriced.original.graph == original_.graph) original_ = std::move(repriced.original);
    if (shownCandidate_.graph && repriced.shownCandidate.graph == shownCandidate_.graph) shownCandidate_ = std::move(repriced.shownCandidate);
    if (best_.graph && repriced.best.graph == best_.graph) best_ = std::move(repriced.best);
    const views::GraphSnapshot& shown = shownCandidate_.graph ? shownCandidate_ : original_;
    graphView_->graphScene()->setCosts(shown);
    if (best_.graph) compare_->setCosts(originalAsBefore(), best_);
    std::optional<NodeId> selected = graphView_->graphScene()->selectedNode();
    showProperties(shown, selected ? static_cast<qint64>(*selected) : -1);
    showTimingBackend();
    if (std::string note = fallbackNote(spec.toStdString()); !note.empty()) emit logged(QString::fromStdString(note));
    emit logged(tr("cost model %1: %2 ms").arg(QString::fromStdString(original_.costSpec)).arg(original_.totalMs, 0, 'f', 4));
    emit costsChanged();
  });
  watcher->setFuture(views::runInBackground([original = original_, shown = shownCandidate_, best = best_, spec] {
    Repriced repriced;
    try {
      std::shared_ptr<CostModel> model = sharedCostModel(spec.toStdString());
      repriced.original = original.repriced(*model);
      if (shown.graph) repriced.shownCandidate = shown.repriced(*model);
      if (best.graph) repriced.best = best.repriced(*model);
    } catch (const std::exception& error) {
      repriced.error = QString::fromUtf8(error.what());
    }
    return repriced;
  }));
}

std::shared_ptr<const Graph> CandidatesController::exportedGraph() const {
  const bool selected = shownCandidate_.graph && panel_->selectedCandidates().contains(shownCandidateId_);
  return selected ? shownCandidate_.graph : best_.graph;
}

void CandidatesController::showProperties(const views::GraphSnapshot& snapshot, qint64 node) {
  properties_->showNode(snapshot, node >= 0 ? std::optional<NodeId>(static_cast<NodeId>(node)) : std::nullopt);
}

views::GraphSnapshot CandidatesController::originalAsBefore() const {
  views::GraphSnapshot before = original_;
  before.title = "original";
  return before;
}

} // namespace tessera::gui
