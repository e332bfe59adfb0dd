#include "live/TrainingCurvesPanel.h"

#include "BackgroundWork.h"
#include "live/TrainingCurveChart.h"

#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

namespace {

struct LoadedReports {
  std::vector<TrainingCurve> curves;
  QStringList errors;
};

LoadedReports readReports(const QStringList& paths) {
  LoadedReports loaded;
  for (const QString& path : paths) {
    try {
      loaded.curves.push_back(readTrainingCurve(path.toStdString()));
    } catch (const std::exception& e) {
      loaded.errors << QString::fromUtf8(e.what());
    }
  }
  return loaded;
}

} // namespace

TrainingCurvesPanel::TrainingCurvesPanel(QWidget* parent) : QWidget(parent) {
  chart_ = new TrainingCurveChart(this);
  add_ = new QPushButton(tr("Add reports…"), this);
  add_->setToolTip(tr("Training reports written by tessera-cli rl train --json (one line per report)"));
  clear_ = new QPushButton(tr("Clear"), this);
  smoothing_ = new QSpinBox(this);
  smoothing_->setRange(1, 200);
  smoothing_->setValue(chart_->smoothing());
  smoothing_->setPrefix(tr("mean of "));
  smoothing_->setSuffix(tr(" episodes"));
  smoothing_->setToolTip(tr("Each point is the mean reward of the episodes up to it (1: every episode on its own)"));
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
  error_->hide();

  auto* bar = new QHBoxLayout;
  bar->addWidget(add_);
  bar->addWidget(clear_);
  bar->addStretch(1);
  bar->addWidget(new QLabel(tr("Smoothing"), this));
  bar->addWidget(smoothing_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(bar);
  layout->addWidget(error_);
  layout->addWidget(chart_, 1);

  connect(add_, &QPushButton::clicked, this, &TrainingCurvesPanel::chooseReports);
  connect(clear_, &QPushButton::clicked, this, [this] {
    ++generation_;
    chart_->setCurves({});
    error_->hide();
  });
  connect(smoothing_, &QSpinBox::valueChanged, this, [this](int episodes) {
    smoothingChosen_ = true;
    chart_->setSmoothing(episodes);
  });
}

QString TrainingCurvesPanel::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void TrainingCurvesPanel::chooseReports() {
  const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add training reports"), QString(),
                                                          tr("Training reports (*.json);;All files (*)"));
  if (!paths.isEmpty()) loadReports(paths, /*replace=*/false);
}

void TrainingCurvesPanel::loadReports(const QStringList& paths, bool replace) {
  if (replace) ++generation_;
  const int generation = generation_;
  ++loading_;
  auto* watcher = new QFutureWatcher<LoadedReports>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, replace] {
    watcher->deleteLater();
    --loading_;
    LoadedReports reports = watcher->result();
    if (generation == generation_) showLoaded(std::move(reports.curves), reports.errors, replace);
    emit loaded(reports.errors);
  });
  watcher->setFuture(runInBackground(readReports, paths));
}

void TrainingCurvesPanel::showLoaded(std::vector<TrainingCurve> curves, const QStringList& errors, bool replace) {
  std::vector<TrainingCurve> shown = replace ? std::vector<TrainingCurve>{} : chart_->curves();
  for (TrainingCurve& curve : curves) {
    auto same = std::find_if(shown.begin(), shown.end(), [&](const TrainingCurve& c) { return c.path == curve.path; });
    if (same != shown.end()) *same = std::move(curve);
    else shown.push_back(std::move(curve));
  }
  // Episodes take the models in turn: a window of whole rounds weighs every model alike, so
  // the line shows learning rather than which model came up (unless a person chose a window).
  if (!smoothingChosen_) {
    size_t models = 1;
    for (const TrainingCurve& curve : shown) models = std::max(models, curve.models.size());
    const QSignalBlocker quiet(smoothing_);
    smoothing_->setValue(static_cast<int>(std::min<size_t>(models * 3, 200)));
    chart_->setSmoothing(smoothing_->value());
  }
  chart_->setCurves(std::move(shown));
  error_->setVisible(!errors.isEmpty());
  error_->setText(errors.isEmpty() ? QString() : tr("Not shown: %1").arg(errors.join(QStringLiteral("\n"))));
}

} // namespace tessera::views
