#include "live/SeriesChart.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>
#include <limits>

namespace tessera::views {

namespace {

// Distinct in both themes and for the common colour-vision deficiencies (Okabe–Ito).
const QColor kGroupColours[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115),
                                QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0)};
const Qt::PenStyle kMemberDashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
constexpr size_t kBottomLegendEntries = 4;

} // namespace

SeriesChart::SeriesChart(QWidget* parent) : QWidget(parent) {
  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(6, 6, 6, 6));
  QFont titleFont = chart_->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  titleFont.setBold(true);
  chart_->setTitleFont(titleFont);
  x_ = new QValueAxis;
  x_->setLabelFormat(QStringLiteral("%.4g"));
  y_ = new QValueAxis;
  y_->setLabelFormat(QStringLiteral("%.3g"));
  chart_->addAxis(x_, Qt::AlignBottom);
  chart_->addAxis(y_, Qt::AlignLeft);
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
}

void SeriesChart::setTitles(const QString& title, const QString& xTitle, const QString& yTitle) {
  chart_->setTitle(title);
  x_->setTitleText(xTitle);
  y_->setTitleText(yTitle);
}

void SeriesChart::setSeries(std::vector<ChartSeries> series) {
  series_ = std::move(series);
  redraw();
}

int SeriesChart::pointCount(int series) const {
  if (series < 0 || series >= seriesCount()) return -1;
  return static_cast<int>(lines_[static_cast<size_t>(series)]->count());
}

QString SeriesChart::seriesName(int series) const {
  if (series < 0 || series >= seriesCount()) return {};
  return lines_[static_cast<size_t>(series)]->name();
}

Qt::Alignment SeriesChart::legendAlignment() const { return chart_->legend()->alignment(); }

void SeriesChart::redraw() {
  for (QLineSeries* line : lines_) {
    chart_->removeSeries(line);
    delete line;
  }
  lines_.clear();
  double xLow = std::numeric_limits<double>::max(), xHigh = std::numeric_limits<double>::lowest();
  double yLow = xLow, yHigh = xHigh;
  QStringList groups;
  std::vector<int> members;
  for (size_t i = 0; i < series_.size(); ++i) {
    const ChartSeries& s = series_[i];
    // A series with no group is a group of its own.
    const QString group = s.group.isEmpty() ? QStringLiteral("\x1f%1").arg(i) : s.group;
    qsizetype g = groups.indexOf(group);
    if (g < 0) {
      groups << group;
      members.push_back(0);
      g = groups.size() - 1;
    }
    const int member = members[static_cast<size_t>(g)]++;
    auto* line = new QLineSeries;
    line->setName(s.label);
    QPen pen(kGroupColours[static_cast<size_t>(g) % std::size(kGroupColours)]);
    pen.setWidthF(2.0);
    pen.setStyle(kMemberDashes[static_cast<size_t>(member) % std::size(kMemberDashes)]);
    line->setPen(pen);
    line->setPointsVisible(s.markers);
    line->replace(s.points);
    chart_->addSeries(line);
    line->attachAxis(x_);
    line->attachAxis(y_);
    lines_.push_back(line);
    for (const QPointF& p : s.points) {
      xLow = std::min(xLow, p.x());
      xHigh = std::max(xHigh, p.x());
      yLow = std::min(yLow, p.y());
      yHigh = std::max(yHigh, p.y());
    }
  }
  // A legend below the plot shares one row among its entries and cuts their labels short beyond a
  // few; at the right each entry has a row of its own.
  chart_->legend()->setAlignment(lines_.size() > kBottomLegendEntries ? Qt::AlignRight : Qt::AlignBottom);
  if (xLow > xHigh) {
    xLow = yLow = 0;
    xHigh = yHigh = 1;
  }
  const double pad = std::max((yHigh - yLow) * 0.06, 0.5);
  xLow = std::min(xLow, 0.0); // counts (steps, generations) read best from zero
  x_->setRange(xLow, std::max(xHigh, xLow + 1));
  x_->applyNiceNumbers();
  y_->setRange(yLow - pad, yHigh + pad);
  y_->applyNiceNumbers();
}

} // namespace tessera::views
