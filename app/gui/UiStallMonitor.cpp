#include "UiStallMonitor.h"

#include <algorithm>

namespace tessera::gui {

UiStallMonitor::UiStallMonitor(QObject* parent) : QObject(parent) {
  timer_.setInterval(10);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, [this] {
    double gap = clock_.nsecsElapsed() / 1e6;
    clock_.restart();
    if (ticks_++ == 0) startupGapMs_ = gap;
    if (gap <= maxGapMs_) return;
    maxGapMs_ = gap;
    maxGapAtMs_ = sinceStart_.nsecsElapsed() / 1e6;
  });
}

void UiStallMonitor::start() {
  clock_.start();
  sinceStart_.start();
  timer_.start();
}

} // namespace tessera::gui
