#include "live/TrainingCurveChart.h"

#include <QChart>
#include <QChartView>
#include <QFileInfo>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace tessera::views {

namespace {

// Distinct in both themes and for the common colour-vision deficiencies (Okabe–Ito).
const QColor kSeedColours[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115),
                               QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0)};

} // namespace

QString curveName(const TrainingCurve& curve) {
  const QString file = QFileInfo(QString::fromStdString(curve.path)).fileName();
  if (!curve.seed) return file;
  return QObject::tr("seed %1 · %2").arg(*curve.seed).arg(file);
}

std::vector<double> trailingMean(const std::vector<EpisodeReward>& episodes, int window) {
  window = std::max(1, window);
  std::vector<double> means;
  means.reserve(episodes.size());
  double sum = 0;
  for (size_t i = 0; i < episodes.size(); ++i) {
    sum += episodes[i].reward;
    if (i >= static_cast<size_t>(window)) sum -= episodes[i - static_cast<size_t>(window)].reward;
    means.push_back(sum / static_cast<double>(std::min(i + 1, static_cast<size_t>(window))));
  }
  return means;
}

TrainingCurveChart::TrainingCurveChart(QWidget* parent) : QWidget(parent) {
  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(6, 6, 6, 6));
  QFont titleFont = chart_->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  titleFont.setBold(true);
  chart_->setTitleFont(titleFont);
  episodes_ = new QValueAxis;
  episodes_->setTitleText(tr("episode"));
  episodes_->setLabelFormat(QStringLiteral("%d"));
  reward_ = new QValueAxis;
  reward_->setTitleText(tr("reward (% of the start cost saved)"));
  reward_->setLabelFormat(QStringLiteral("%.3g"));
  chart_->addAxis(episodes_, Qt::AlignBottom);
  chart_->addAxis(reward_, Qt::AlignLeft);
  view_ = new QChartView(chart_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  redraw();
}

void TrainingCurveChart::setCurves(std::vector<TrainingCurve> curves) {
  curves_ = std::move(curves);
  redraw();
}

void TrainingCurveChart::setSmoothing(int episodes) {
  smoothing_ = std::max(1, episodes);
  redraw();
}

int TrainingCurveChart::seriesCount() const { return static_cast<int>(lines_.size()); }

int TrainingCurveChart::pointCount(int series) const {
  if (series < 0 || series >= seriesCount()) return -1;
  return static_cast<int>(lines_[static_cast<size_t>(series)]->count());
}

QString TrainingCurveChart::seriesName(int series) const {
  if (series < 0 || series >= seriesCount()) return {};
  return lines_[static_cast<size_t>(series)]->name();
}

void TrainingCurveChart::redraw() {
  for (QLineSeries* line : lines_) {
    chart_->removeSeries(line);
    delete line;
  }
  lines_.clear();
  chart_->setTitle(smoothing_ > 1 ? tr("Reward per episode (mean of the last %1 episodes)").arg(smoothing_) : tr("Reward per episode"));

  double last = 1, low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
  for (size_t i = 0; i < curves_.size(); ++i) {
    const TrainingCurve& curve = curves_[i];
    const std::vector<double> means = trailingMean(curve.episodes, smoothing_);
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(means.size()));
    for (size_t e = 0; e < means.size(); ++e) {
      points.append(QPointF(curve.episodes[e].episode, means[e]));
      last = std::max(last, static_cast<double>(curve.episodes[e].episode));
      low = std::min(low, means[e]);
      high = std::max(high, means[e]);
    }
    auto* line = new QLineSeries;
    line->setName(curveName(curve));
    QPen pen(kSeedColours[i % std::size(kSeedColours)]);
    pen.setWidthF(2.0);
    line->setPen(pen);
    line->replace(points);
    chart_->addSeries(line);
    line->attachAxis(episodes_);
    line->attachAxis(reward_);
    lines_.push_back(line);
  }
  if (low > high) {
    low = 0;
    high = 1;
  }
  const double pad = std::max((high - low) * 0.06, 0.5);
  episodes_->setRange(curves_.empty() ? 0 : 1, last);
  episodes_->applyNiceNumbers();
  reward_->setRange(low - pad, high + pad);
  reward_->applyNiceNumbers();
}

} // namespace tessera::views
