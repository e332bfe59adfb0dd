#include "BestCostChart.h"

#include "AxisEnd.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::views {

namespace {

void setRangeIfChanged(QValueAxis* axis, double min, double max) {
  if (axis->min() != min || axis->max() != max) axis->setRange(min, max);
}

} // namespace

std::vector<CostSample> bestCostCurve(const std::vector<Event>& events) {
  std::vector<CostSample> curve;
  for (const Event& event : events) {
    const auto* changed = std::get_if<BestCostChanged>(&event.payload);
    if (!changed) continue;
    if (curve.empty()) curve.push_back({0, changed->previousMs});
    curve.push_back({event.seconds, changed->costMs});
  }
  if (!curve.empty() && !events.empty() && events.back().seconds > curve.back().seconds)
    curve.push_back({events.back().seconds, curve.back().costMs}); // the curve runs to the end of the log
  return curve;
}

BestCostChart::BestCostChart(QWidget* parent) : QWidget(parent) {
  chart_ = new QChart;
  chart_->setTitle(tr("Best cost over time"));
  chart_->legend()->setAlignment(Qt::AlignRight);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  time_ = new QValueAxis;
  time_->setTitleText(tr("seconds"));
  time_->setLabelFormat(QStringLiteral("%.3g"));
  cost_ = new QValueAxis;
  cost_->setTitleText(tr("best cost (ms)"));
  cost_->setLabelFormat(QStringLiteral("%.4g"));
  chart_->addAxis(time_, Qt::AlignBottom);
  chart_->addAxis(cost_, Qt::AlignLeft);
  cursor_ = new QLineSeries;
  cursor_->setName(tr("now"));
  QPen pen(QColor(200, 60, 60));
  pen.setStyle(Qt::DashLine);
  cursor_->setPen(pen);
  chart_->addSeries(cursor_);
  cursor_->attachAxis(time_);
  cursor_->attachAxis(cost_);
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  rescale();
}

QLineSeries* BestCostChart::series(const QString& name) const {
  for (QAbstractSeries* s : chart_->series())
    if (s != cursor_ && s->name() == name) return static_cast<QLineSeries*>(s);
  return nullptr;
}

void BestCostChart::setRun(const QString& name, const std::vector<CostSample>& curve) {
  QLineSeries* line = series(name);
  if (!line) {
    line = new QLineSeries;
    line->setName(name);
    chart_->addSeries(line);
    line->attachAxis(time_);
    line->attachAxis(cost_);
    QPen pen = line->pen();
    pen.setWidthF(2.2);
    line->setPen(pen);
  }
  QList<QPointF> points;
  for (size_t i = 0; i < curve.size(); ++i) {
    if (i > 0) points.append(QPointF(curve[i].seconds, curve[i - 1].costMs)); // step: hold until the change
    points.append(QPointF(curve[i].seconds, curve[i].costMs));
  }
  line->replace(points);
  rescale();
}

void BestCostChart::removeRun(const QString& name) {
  if (QLineSeries* line = series(name)) {
    chart_->removeSeries(line);
    delete line;
    rescale();
  }
}

int BestCostChart::runCount() const { return static_cast<int>(chart_->series().size()) - 1; }

QStringList BestCostChart::runNames() const {
  QStringList names;
  for (QAbstractSeries* s : chart_->series())
    if (s != cursor_) names.append(s->name());
  return names;
}

int BestCostChart::pointCount(const QString& name) const {
  QLineSeries* line = series(name);
  return line ? static_cast<int>(line->count()) : -1;
}

void BestCostChart::setCursor(double seconds) {
  cursorSeconds_ = seconds;
  cursor_->replace(QList<QPointF>{{seconds, cost_->min()}, {seconds, cost_->max()}});
}

void BestCostChart::rescale() {
  double maxTime = 1e-3;
  double low = std::numeric_limits<double>::max();
  double high = std::numeric_limits<double>::lowest();
  for (QAbstractSeries* s : chart_->series()) {
    if (s == cursor_) continue;
    for (const QPointF& p : static_cast<QLineSeries*>(s)->points()) {
      maxTime = std::max(maxTime, p.x());
      low = std::min(low, p.y());
      high = std::max(high, p.y());
    }
  }
  if (low > high) {
    low = 0;
    high = 1;
  }
  const double pad = std::max((high - low) * 0.08, std::abs(high) * 0.01 + 1e-9);
  // A live run's time grows with every batch; a rounded end moves the axis a few times a run
  // instead, and an axis is only set when it changes: each change lays the whole chart out again.
  setRangeIfChanged(time_, 0, axisEndAtOrAbove(maxTime * 1.02));
  setRangeIfChanged(cost_, std::max(0.0, low - pad), high + pad);
  setCursor(cursorSeconds_);
}

} // namespace tessera::views
