#include "live/TrainingCurveChart.h"

#include "live/SeriesChart.h"

#include <QFileInfo>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

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
  lines_ = new SeriesChart(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(lines_);
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

int TrainingCurveChart::seriesCount() const { return lines_->seriesCount(); }

int TrainingCurveChart::pointCount(int series) const { return lines_->pointCount(series); }

QString TrainingCurveChart::seriesName(int series) const { return lines_->seriesName(series); }

QChart* TrainingCurveChart::chart() const { return lines_->chart(); }

void TrainingCurveChart::redraw() {
  lines_->setTitles(smoothing_ > 1 ? tr("Reward per episode (mean of the last %1 episodes)").arg(smoothing_) : tr("Reward per episode"),
                    tr("episode"), tr("reward (% of the start cost saved)"));
  std::vector<ChartSeries> series;
  for (const TrainingCurve& curve : curves_) {
    const std::vector<double> means = trailingMean(curve.episodes, smoothing_);
    ChartSeries line{curveName(curve), {}, {}, false};
    for (size_t e = 0; e < means.size(); ++e) line.points.append(QPointF(curve.episodes[e].episode, means[e]));
    series.push_back(std::move(line));
  }
  lines_->setSeries(std::move(series));
}

} // namespace tessera::views
