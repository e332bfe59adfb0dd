#include "tuning/TuningChart.h"

#include "AxisEnd.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace tessera::views {

namespace {

// Okabe–Ito colours: distinct in both themes and for the common colour-vision deficiencies.
const QColor kBest(0, 114, 178);
const QColor kCandidate(86, 180, 233);
const QColor kFailure(213, 94, 0);
const QColor kBaseline(0, 158, 115);

} // namespace

TuningChart::TuningChart(QWidget* parent) : QWidget(parent) {
  chart_ = new QChart;
  chart_->setTitle(tr("Best GFLOP/s against trials"));
  QFont titleFont = chart_->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  titleFont.setBold(true);
  chart_->setTitleFont(titleFont);
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(6, 6, 6, 6));
  trialAxis_ = new QValueAxis;
  trialAxis_->setTitleText(tr("trial"));
  trialAxis_->setLabelFormat(QStringLiteral("%d"));
  gflopsAxis_ = new QValueAxis;
  gflopsAxis_->setTitleText(tr("GFLOP/s"));
  gflopsAxis_->setLabelFormat(QStringLiteral("%.4g"));
  chart_->addAxis(trialAxis_, Qt::AlignBottom);
  chart_->addAxis(gflopsAxis_, Qt::AlignLeft);

  candidates_ = new QScatterSeries;
  candidates_->setName(tr("verified"));
  candidates_->setMarkerSize(7);
  candidates_->setColor(kCandidate);
  candidates_->setBorderColor(kCandidate.darker(130));
  failures_ = new QScatterSeries;
  failures_->setName(tr("failed"));
  failures_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  failures_->setMarkerSize(6);
  failures_->setColor(kFailure);
  failures_->setBorderColor(kFailure);
  bestLine_ = new QLineSeries;
  bestLine_->setName(tr("best"));
  QPen bestPen(kBest);
  bestPen.setWidthF(2.5);
  bestLine_->setPen(bestPen);
  baselineLine_ = new QLineSeries;
  QPen baselinePen(kBaseline);
  baselinePen.setWidthF(2.0);
  baselinePen.setStyle(Qt::DashLine);
  baselineLine_->setPen(baselinePen);
  // Short names: the chart shares a narrow page. (Markers shown and hidden as data came and went
  // were drawn on top of each other, so every entry stays listed.)
  baselineLine_->setName(tr("oneDNN"));
  for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{candidates_, failures_, bestLine_, baselineLine_}) {
    chart_->addSeries(series);
    series->attachAxis(trialAxis_);
    series->attachAxis(gflopsAxis_);
  }
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  clear();
}

void TuningChart::clear(int plannedTrials) {
  trials_ = 0;
  plannedTrials_ = std::max(plannedTrials, 0);
  best_ = 0;
  highest_ = 0;
  bestLine_->clear();
  candidates_->clear();
  failures_->clear();
  setBaseline(std::nullopt);
}

void TuningChart::addTrial(double gflops) {
  ++trials_;
  const double x = trials_;
  if (gflops > 0) {
    candidates_->append(x, gflops);
    highest_ = std::max(highest_, gflops);
  } else {
    failures_->append(x, 0);
  }
  // A step line: flat until a better candidate, then straight up at its trial.
  if (gflops > best_) {
    if (best_ > 0) bestLine_->append(x, best_);
    best_ = gflops;
    bestLine_->append(x, best_);
  } else if (best_ > 0) {
    if (bestLine_->count() >= 2 && bestLine_->at(bestLine_->count() - 2).y() == best_)
      bestLine_->replace(bestLine_->count() - 1, x, best_); // extend the flat run, not one point a trial
    else
      bestLine_->append(x, best_);
  }
  rescale();
}

void TuningChart::setLabels(const QString& title, const QString& stepAxis, const QString& baselineName) {
  chart_->setTitle(title);
  trialAxis_->setTitleText(stepAxis);
  baselineLine_->setName(baselineName);
}

void TuningChart::setBaseline(std::optional<double> gflops) {
  baseline_ = gflops;
  baselineLine_->clear();
  rescale();
}

int TuningChart::verifiedPoints() const { return static_cast<int>(candidates_->count()); }

int TuningChart::bestLinePoints() const { return static_cast<int>(bestLine_->count()); }

void TuningChart::rescale() {
  // Ticks a round step apart (1, 2 or 5 x 10^k, about `ticks` of them) and the axis ending on the
  // first tick at or above the data: 0..30 for 26 trials, 0..120 for 106 GFLOP/s.
  auto fit = [](QValueAxis* axis, double top, double ticks, double smallestStep) {
    const double step = std::max(smallestStep, axisEndAtOrAbove(top / ticks));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, std::ceil(top / step) * step);
  };
  fit(trialAxis_, std::max({trials_, plannedTrials_, 1}), 8, 1);
  fit(gflopsAxis_, std::max({highest_, baseline_.value_or(0), 1.0}) * 1.05, 6, 0);
  if (baseline_) {
    baselineLine_->clear();
    baselineLine_->append(0, *baseline_);
    baselineLine_->append(trialAxis_->max(), *baseline_);
  }
}

} // namespace tessera::views
