// Best cost over time for one or more runs, overlaid (Qt Charts), as step lines, with a cursor at
// the moment the replay shows.
#pragma once

#include "events/Event.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace tessera::views {

struct CostSample {
  double seconds = 0;
  double costMs = 0;
};
// The best-cost curve a log describes: the original cost at 0 s, then every improvement.
std::vector<CostSample> bestCostCurve(const std::vector<Event>& events);

class BestCostChart : public QWidget {
  Q_OBJECT
public:
  explicit BestCostChart(QWidget* parent = nullptr);

  // Adds or replaces the curve called `name`.
  void setRun(const QString& name, const std::vector<CostSample>& curve);
  void removeRun(const QString& name);
  void setCursor(double seconds);
  int runCount() const;
  QStringList runNames() const;
  // Points of a run's drawn step line (two per change), for tests.
  int pointCount(const QString& name) const;
  QChart* chart() const { return chart_; }

private:
  void rescale();
  QLineSeries* series(const QString& name) const;

  QChart* chart_;
  QChartView* view_;
  QValueAxis* time_;
  QValueAxis* cost_;
  QLineSeries* cursor_;
  double cursorSeconds_ = 0;
};

} // namespace tessera::views
