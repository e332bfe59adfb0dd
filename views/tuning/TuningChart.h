// Best GFLOP/s against trials for one tuning run or one workload's stored records (Qt Charts): the
// best so far as a step line, every verified candidate as a dot, and oneDNN's GFLOP/s on the same
// threads as a dashed horizontal line, so a reader sees how close the search came and how fast.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace tessera::views {

class TuningChart : public QWidget {
  Q_OBJECT
public:
  explicit TuningChart(QWidget* parent = nullptr);

  // Empties the chart; the trial axis spans `plannedTrials` (at least) from the start.
  void clear(int plannedTrials = 0);
  // The next measured candidate: its GFLOP/s, 0 for a failed one.
  void addTrial(double gflops);
  // nullopt: no baseline line.
  void setBaseline(std::optional<double> gflops);
  // Other words for the same picture (SIP's steps against the tuned kernel, not trials against oneDNN).
  void setLabels(const QString& title, const QString& stepAxis, const QString& baselineName);

  int trialCount() const { return trials_; }
  double bestGflops() const { return best_; }
  std::optional<double> baseline() const { return baseline_; }
  int verifiedPoints() const; // dots drawn: verified candidates
  int bestLinePoints() const;
  QChart* chart() const { return chart_; }

private:
  void rescale();

  QChart* chart_;
  QChartView* view_;
  QValueAxis* trialAxis_;
  QValueAxis* gflopsAxis_;
  QLineSeries* bestLine_;
  QScatterSeries* candidates_;
  QScatterSeries* failures_;
  QLineSeries* baselineLine_;
  int trials_ = 0;
  int plannedTrials_ = 0;
  double best_ = 0;
  double highest_ = 0; // the highest dot
  std::optional<double> baseline_;
};

} // namespace tessera::views
