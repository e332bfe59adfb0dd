// Timeline and replay: a slider over the run's event log (moving it seeks the LiveRun, which brings
// every view to that moment), Play (one committed step at a time, at the teaching pace), a "Live"
// toggle that follows a running search, and the best-cost chart with other runs overlaid.
#pragma once

#include "BestCostChart.h"
#include "replay/ReplayState.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTimer;
class QSlider;

namespace tessera::views {

class LiveRun;

class TimelineWidget : public QWidget {
  Q_OBJECT
public:
  // `run` is not owned; `runName` labels its curve in the chart.
  explicit TimelineWidget(LiveRun* run, const QString& runName = tr("this run"), QWidget* parent = nullptr);

  QSlider* slider() const { return slider_; }
  BestCostChart* chart() const { return chart_; }
  QString positionText() const;
  QPushButton* playButton() const { return play_; }
  bool playing() const;
  // The log index just after the first committed step past `from` (the log's end when none is left).
  size_t nextStepEnd(size_t from) const;

public slots:
  // Overlays another run's best-cost curve (e.g. a stored run of another strategy).
  void addComparisonRun(const QString& name, const std::vector<tessera::Event>& events);
  void removeComparisonRun(const QString& name);
  // Renames the curve of the run the slider replays (a stored run shown, a new run started).
  void setRunName(const QString& name);
  void seekToIndex(int events);
  void showState(const tessera::ReplayState& state);
  // Replays from the current moment (the start, when at the end) one committed step per interval.
  void play(bool on);
  // The teaching pace: the time between two steps of Play; 0 (full speed) plays 10 steps a second.
  void setStepInterval(int milliseconds);

private:
  void onLogChanged(size_t events);
  void playOneStep();

  LiveRun* run_;
  QString runName_;
  QSlider* slider_;
  QCheckBox* live_;
  QPushButton* play_;
  QTimer* playTimer_;
  QLabel* position_;
  BestCostChart* chart_;
  size_t curveEvents_ = 0;
};

} // namespace tessera::views
