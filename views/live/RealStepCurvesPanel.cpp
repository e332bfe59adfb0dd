#include "live/RealStepCurvesPanel.h"

#include "BackgroundWork.h"
#include "live/SeriesChart.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace tessera::views {

namespace {

struct LoadedCurves {
  std::vector<RealStepCurve> curves;
  QStringList errors;
};

LoadedCurves readCurves(const QStringList& paths) {
  LoadedCurves loaded;
  for (const QString& path : paths) {
    try {
      loaded.curves.push_back(readRealStepCurve(path.toStdString()));
    } catch (const std::exception& e) {
      loaded.errors << QString::fromUtf8(e.what());
    }
  }
  return loaded;
}

ChartSeries seriesOf(const RealStepCurve& curve) {
  ChartSeries series;
  series.group = QString::fromStdString(curve.variant.empty() ? curve.agent : curve.agent + " " + curve.variant);
  series.label = curve.seed ? QObject::tr("%1 · seed %2").arg(series.group).arg(*curve.seed)
                            : QObject::tr("%1 · %2").arg(series.group, QFileInfo(QString::fromStdString(curve.path)).fileName());
  series.markers = curve.points.size() <= 12; // evaluations, far apart; a point per episode would hide the line
  for (const RealStepPoint& point : curve.points) series.points.append(QPointF(point.realSteps, point.reward));
  return series;
}

} // namespace

RealStepCurvesPanel::RealStepCurvesPanel(QWidget* parent) : QWidget(parent) {
  chart_ = new SeriesChart(this);
  chart_->setTitles(tr("Reward against real environment steps"), tr("real environment steps"), tr("reward (% of the start cost saved)"));
  add_ = new QPushButton(tr("Add reports…"), this);
  add_->setToolTip(tr("Training reports of xrlflow or rlflow agents (tessera-cli rl train --json)"));
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  error_->hide();
  measures_ = new QLabel(this);
  measures_->setWordWrap(true);
  measures_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* bar = new QHBoxLayout;
  bar->addWidget(add_);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(bar);
  layout->addWidget(error_);
  layout->addWidget(chart_, 1);
  layout->addWidget(measures_);
  connect(add_, &QPushButton::clicked, this, &RealStepCurvesPanel::chooseReports);
}

QString RealStepCurvesPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void RealStepCurvesPanel::chooseReports() {
  const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add training reports"), QString(),
                                                          tr("Training reports (*.json);;All files (*)"));
  if (!paths.isEmpty()) loadReports(paths, /*replace=*/false);
}

void RealStepCurvesPanel::loadReports(const QStringList& paths, bool replace) {
  if (replace) ++generation_;
  const int generation = generation_;
  ++loading_;
  auto* watcher = new QFutureWatcher<LoadedCurves>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, replace] {
    watcher->deleteLater();
    --loading_;
    LoadedCurves result = watcher->result();
    if (generation == generation_) show(std::move(result.curves), result.errors, replace);
    emit loaded(result.errors);
  });
  watcher->setFuture(runInBackground(readCurves, paths));
}

void RealStepCurvesPanel::show(std::vector<RealStepCurve> curves, const QStringList& errors, bool replace) {
  if (replace) curves_.clear();
  for (RealStepCurve& curve : curves) {
    auto same = std::find_if(curves_.begin(), curves_.end(), [&](const RealStepCurve& c) { return c.path == curve.path; });
    if (same != curves_.end()) *same = std::move(curve);
    else curves_.push_back(std::move(curve));
  }
  std::vector<ChartSeries> series;
  std::map<std::string, std::string> measures; // per agent
  for (const RealStepCurve& curve : curves_) {
    series.push_back(seriesOf(curve));
    measures[curve.agent] = curve.measure;
  }
  chart_->setSeries(std::move(series));
  QStringList lines;
  for (const auto& [agent, measure] : measures) lines << tr("%1: %2").arg(QString::fromStdString(agent), QString::fromStdString(measure));
  if (measures.count("xrlflow")) lines << tr("X-RLflow's argmax evaluations are not in its reports' step counts; RLFlow's are in its.");
  measures_->setText(lines.join(QStringLiteral("\n")));
  error_->setVisible(!errors.isEmpty());
  error_->setText(errors.isEmpty() ? QString() : tr("Not shown: %1").arg(errors.join(QStringLiteral("\n"))));
}

} // namespace tessera::views
