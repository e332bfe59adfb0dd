// Training curves of RL agents (a SeriesChart): the reward of each episode for one or more training
// reports — one line per report, named by its seed — as a trailing mean over a few episodes, since
// single episodes on different models swing too far to read a trend from.
#pragma once

#include "rl/TrainingReport.h"

#include <QString>
#include <QWidget>

#include <vector>

class QChart;

namespace tessera::views {

class SeriesChart;

// What a report's line is called in the legend: "seed 1 · xrlflow-training.json".
QString curveName(const TrainingCurve& curve);
// The mean reward over the `window` episodes up to each one (fewer at the start); window 1: raw.
std::vector<double> trailingMean(const std::vector<EpisodeReward>& episodes, int window);

class TrainingCurveChart : public QWidget {
  Q_OBJECT
public:
  explicit TrainingCurveChart(QWidget* parent = nullptr);

  // Replaces the lines with one per curve, in order.
  void setCurves(std::vector<TrainingCurve> curves);
  const std::vector<TrainingCurve>& curves() const { return curves_; }
  // Episodes averaged into each point (1: every episode's own reward); redraws.
  void setSmoothing(int episodes);
  int smoothing() const { return smoothing_; }

  int seriesCount() const;
  int pointCount(int series) const; // -1 for no such series
  QString seriesName(int series) const;
  QChart* chart() const;

private:
  void redraw();

  SeriesChart* lines_;
  std::vector<TrainingCurve> curves_;
  int smoothing_ = 10;
};

} // namespace tessera::views
