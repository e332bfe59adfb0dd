// The hub the live views share: owns one run's event log as a ReplayModel, takes the batches the
// search runner drains (applyEvents) or a stored run's whole log (loadEvents), and announces the
// state the views must show. While following, every batch moves to the end of the log; a seek
// (the timeline) stops following until follow(true).
//
// Docking: connect SearchRunner's batch signal to applyEvents, stateChanged to each view's
// showState (EGraphView, MctsTreeView, RulePanel, ProvenancePanel; TimelineWidget connects itself)
// and reset to EGraphView::clear and MctsTreeView::clear (a new run must not inherit a layout).
#pragma once

#include "events/Event.h"
#include "replay/ReplayModel.h"

#include <QObject>
#include <QString>

#include <vector>

namespace tessera::views {

class LiveRun : public QObject {
  Q_OBJECT
public:
  explicit LiveRun(QObject* parent = nullptr);

  const ReplayModel& replay() const { return replay_; }
  const ReplayState& state() const { return replay_.state(); }
  bool following() const { return following_; }
  // Seconds the last stateChanged took to fold events (the views' own time is theirs).
  double lastFoldSeconds() const { return lastFoldSeconds_; }

public slots:
  void applyEvents(const std::vector<tessera::Event>& batch);
  // Replaces the log (a stored run) and shows its end.
  void loadEvents(const std::vector<tessera::Event>& events);
  void clear();
  void seekToIndex(size_t count);       // stops following unless this is the end
  void seekToSequence(quint64 sequence);
  void follow(bool follow);

signals:
  // A different log replaces the current one (loadEvents, clear): views drop what they built.
  void reset();
  // `state` stays valid until the next stateChanged; views keep a pointer to it.
  void stateChanged(const tessera::ReplayState& state);
  // The log grew or was replaced: the timeline's range.
  void logChanged(size_t events);
  void followingChanged(bool following);

private:
  void announce();

  ReplayModel replay_;
  bool following_ = true;
  double lastFoldSeconds_ = 0;
};

} // namespace tessera::views
