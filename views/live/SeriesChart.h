// A line chart of labelled (x, y) series (Qt Charts) for any measurement against anything: an
// agent's reward against real environment steps, a strength per generation, predicted against
// real reward per step. Series of one group (an agent) share a colour and differ in dash (its
// seeds), so a family reads as one.
#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace tessera::views {

struct ChartSeries {
  QString label;         // in the legend: "rlflow · seed 1"
  QString group;         // series of one group share a colour; empty: a colour of its own
  QList<QPointF> points; // in x order
  bool markers = false;  // mark each point (few measurements far apart)
};

class SeriesChart : public QWidget {
  Q_OBJECT
public:
  explicit SeriesChart(QWidget* parent = nullptr);

  void setTitles(const QString& title, const QString& xTitle, const QString& yTitle);
  // Replaces the lines with one per series, in order.
  void setSeries(std::vector<ChartSeries> series);
  const std::vector<ChartSeries>& series() const { return series_; }

  int seriesCount() const { return static_cast<int>(lines_.size()); }
  int pointCount(int series) const; // -1 for no such series
  QString seriesName(int series) const;
  Qt::Alignment legendAlignment() const; // below the plot for a few lines, at its right for more
  QChart* chart() const { return chart_; }

private:
  void redraw();

  QChart* chart_;
  QChartView* view_;
  QValueAxis* x_;
  QValueAxis* y_;
  std::vector<QLineSeries*> lines_;
  std::vector<ChartSeries> series_;
};

} // namespace tessera::views
