#include "TimelineWidget.h"

#include "LiveRun.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

namespace tessera::views {

TimelineWidget::TimelineWidget(LiveRun* run, const QString& runName, QWidget* parent)
    : QWidget(parent), run_(run), runName_(runName) {
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  slider_->setToolTip(tr("Replay the run to any moment"));
  live_ = new QCheckBox(tr("Live"), this);
  live_->setChecked(true);
  live_->setToolTip(tr("Follow the running search"));
  position_ = new QLabel(this);
  position_->setMinimumWidth(position_->fontMetrics().horizontalAdvance(QStringLiteral("event 000000 of 000000 · 000.00 s · step 000")));
  chart_ = new BestCostChart(this);
  chart_->setMinimumHeight(160);

  auto* row = new QHBoxLayout;
  row->addWidget(live_);
  row->addWidget(slider_, 1);
  row->addWidget(position_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(row);
  layout->addWidget(chart_, 1);

  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (static_cast<size_t>(value) != run_->replay().position()) run_->seekToIndex(static_cast<size_t>(value));
  });
  connect(live_, &QCheckBox::toggled, run_, &LiveRun::follow);
  connect(run_, &LiveRun::followingChanged, this, [this](bool following) {
    const QSignalBlocker block(live_);
    live_->setChecked(following);
  });
  connect(run_, &LiveRun::logChanged, this, &TimelineWidget::onLogChanged);
  connect(run_, &LiveRun::stateChanged, this, &TimelineWidget::showState);
  onLogChanged(run_->replay().size());
}

QString TimelineWidget::positionText() const { return position_->text(); }

void TimelineWidget::onLogChanged(size_t events) {
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, static_cast<int>(std::min<size_t>(events, INT_MAX)));
    slider_->setPageStep(std::max(1, static_cast<int>(events / 20)));
  }
  // The curve is rebuilt from the whole log (cheap: one pass over the events) so the chart shows
  // the full run with the cursor at the replayed moment.
  if (events != curveEvents_) {
    curveEvents_ = events;
    chart_->setRun(runName_, bestCostCurve(run_->replay().events()));
  }
}

void TimelineWidget::seekToIndex(int events) { slider_->setValue(events); }

void TimelineWidget::showState(const ReplayState& state) {
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(static_cast<int>(run_->replay().position()));
  }
  position_->setText(tr("event %1 of %2 · %3 s · step %4")
                         .arg(run_->replay().position())
                         .arg(run_->replay().size())
                         .arg(state.seconds, 0, 'f', 2)
                         .arg(state.steps.size()));
  chart_->setCursor(state.seconds);
}

void TimelineWidget::addComparisonRun(const QString& name, const std::vector<Event>& events) {
  chart_->setRun(name, bestCostCurve(events));
}

void TimelineWidget::removeComparisonRun(const QString& name) { chart_->removeRun(name); }

void TimelineWidget::setRunName(const QString& name) {
  if (name == runName_) return;
  chart_->removeRun(runName_);
  runName_ = name;
  chart_->setRun(runName_, bestCostCurve(run_->replay().events()));
}

} // namespace tessera::views
