#include "live/TrainingCurvesPanel.h"

#include "live/ReportLoading.h"
#include "live/TrainingCurveChart.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

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
  error_ = makeReportErrorLabel(this);

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
    loads_.supersede();
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
  const QStringList paths = askForReports(this, tr("any agent"));
  if (!paths.isEmpty()) loadReports(paths, /*replace=*/false);
}

void TrainingCurvesPanel::loadReports(const QStringList& paths, bool replace) {
  loads_.start(
      this, paths, replace, readTrainingCurve,
      [this, replace](std::vector<TrainingCurve> curves, const QStringList& errors) { showLoaded(std::move(curves), errors, replace); },
      [this](const QStringList& errors) { emit loaded(errors); });
}

void TrainingCurvesPanel::showLoaded(std::vector<TrainingCurve> curves, const QStringList& errors, bool replace) {
  std::vector<TrainingCurve> shown = replace ? std::vector<TrainingCurve>{} : chart_->curves();
  mergeReports(shown, std::move(curves));
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
  showReportErrors(error_, errors);
}

} // namespace tessera::views
