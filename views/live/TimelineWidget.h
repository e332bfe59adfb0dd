// Timeline and replay: a slider over the run's event log (moving it seeks the LiveRun, which brings
// every view to that moment), a "Live" toggle that follows a running search, and the best-cost
// chart with other runs overlaid for comparison.
#pragma once

#include "BestCostChart.h"
#include "replay/ReplayState.h"

#include <QWidget>

class QCheckBox;
class QLabel;
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

public slots:
  // Overlays another run's best-cost curve (e.g. a stored run of another strategy).
  void addComparisonRun(const QString& name, const std::vector<tessera::Event>& events);
  void removeComparisonRun(const QString& name);
  // Renames the curve of the run the slider replays (a stored run shown, a new run started).
  void setRunName(const QString& name);
  void seekToIndex(int events);
  void showState(const tessera::ReplayState& state);

private:
  void onLogChanged(size_t events);

  LiveRun* run_;
  QString runName_;
  QSlider* slider_;
  QCheckBox* live_;
  QLabel* position_;
  BestCostChart* chart_;
  size_t curveEvents_ = 0;
};

} // namespace tessera::views
