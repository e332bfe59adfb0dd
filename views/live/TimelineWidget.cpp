#include "TimelineWidget.h"

#include "LiveRun.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

namespace tessera::views {

namespace {
constexpr int kFullSpeedReplayMs = 100; // a replay at "full speed" would be a jump, not a replay
}

TimelineWidget::TimelineWidget(LiveRun* run, const QString& runName, QWidget* parent)
    : QWidget(parent), run_(run), runName_(runName) {
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  slider_->setToolTip(tr("Replay the run to any moment"));
  live_ = new QCheckBox(tr("Live"), this);
  live_->setChecked(true);
  live_->setToolTip(tr("Follow the running search"));
  play_ = new QPushButton(tr("Play"), this);
  play_->setCheckable(true);
  play_->setToolTip(tr("Replay the run one committed step at a time, at the pace chosen in the Search dock"));
  playTimer_ = new QTimer(this);
  playTimer_->setInterval(kFullSpeedReplayMs);
  position_ = new QLabel(this);
  position_->setMinimumWidth(position_->fontMetrics().horizontalAdvance(QStringLiteral("event 000000 of 000000 · 000.00 s · step 000")));
  chart_ = new BestCostChart(this);
  chart_->setMinimumHeight(160);

  auto* row = new QHBoxLayout;
  row->addWidget(live_);
  row->addWidget(play_);
  row->addWidget(slider_, 1);
  row->addWidget(position_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(row);
  layout->addWidget(chart_, 1);

  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (static_cast<size_t>(value) != run_->replay().position()) run_->seekToIndex(static_cast<size_t>(value));
  });
  connect(play_, &QPushButton::toggled, this, &TimelineWidget::play);
  connect(playTimer_, &QTimer::timeout, this, &TimelineWidget::playOneStep);
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

bool TimelineWidget::playing() const { return playTimer_->isActive(); }

void TimelineWidget::setStepInterval(int milliseconds) { playTimer_->setInterval(milliseconds > 0 ? milliseconds : kFullSpeedReplayMs); }

size_t TimelineWidget::nextStepEnd(size_t from) const {
  const std::vector<Event>& events = run_->replay().events();
  for (size_t i = from; i < events.size(); ++i)
    if (std::holds_alternative<StepCommitted>(events[i].payload)) return i + 1;
  return events.size();
}

void TimelineWidget::play(bool on) {
  {
    const QSignalBlocker block(play_);
    play_->setChecked(on);
    play_->setText(on ? tr("Pause") : tr("Play"));
  }
  if (!on) {
    playTimer_->stop();
    return;
  }
  if (run_->replay().atEnd()) run_->seekToIndex(0); // from the start, like a player at its end
  else run_->follow(false);
  playTimer_->start();
}

void TimelineWidget::playOneStep() {
  const size_t next = nextStepEnd(run_->replay().position());
  run_->seekToIndex(next);
  if (next >= run_->replay().size()) play(false);
}

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
