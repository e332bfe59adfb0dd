// The Timeline and "Why this rewrite" docks. The timeline replays the log the live views show — the
// running search's, or a stored run's loaded from the session — with the best-cost curves of the
// model's other runs overlaid; the provenance panel explains whatever the user selects: a node of a
// candidate graph (its rule and step), an e-node, a committed step.
#pragma once

#include <QObject>
#include <QString>

#include <cstdint>

class QDockWidget;
class QMainWindow;

namespace tessera::views {
class LiveRun;
class ProvenancePanel;
class TimelineWidget;
} // namespace tessera::views

namespace tessera::gui {

class ReplayDocks : public QObject {
  Q_OBJECT
public:
  // Adds both docks to `window`; `run` is the live views' hub (not owned).
  ReplayDocks(QMainWindow* window, views::LiveRun* run);

  QDockWidget* timelineDock() const { return timelineDock_; }
  QDockWidget* provenanceDock() const { return provenanceDock_; }
  views::TimelineWidget* timeline() const { return timeline_; }
  views::ProvenancePanel* provenance() const { return provenance_; }

  // Reads run `runId`'s event log and the best-cost curves of the other runs of its model from the
  // session at `sessionPath` on a worker (its own connection), then replays the run in the live
  // views. A later call, or a live run starting, supersedes one still reading.
  void showStoredRun(const QString& sessionPath, int64_t runId);
  // A search starts: the timeline follows it under `name`; stored overlays stay for comparison.
  void followLiveRun(const QString& name);
  // The stored run shown, 0 for none (a live run or nothing).
  int64_t shownRunId() const { return shownRunId_; }

signals:
  // A stored run's log is in the live views (or could not be read: `error` says why).
  void storedRunShown(qint64 runId, const QString& error);

private:
  views::LiveRun* run_;
  views::TimelineWidget* timeline_;
  views::ProvenancePanel* provenance_;
  QDockWidget* timelineDock_;
  QDockWidget* provenanceDock_;
  int64_t shownRunId_ = 0;
  int generation_ = 0;
};

} // namespace tessera::gui
