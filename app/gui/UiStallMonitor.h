// Measures how long the UI thread is unresponsive: a 10 ms heartbeat timer records the largest gap
// between its ticks. A healthy UI stays near 10-20 ms; layout or search on the UI thread would not.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace tessera::gui {

class UiStallMonitor final : public QObject {
public:
  explicit UiStallMonitor(QObject* parent = nullptr);
  void start();
  double maxGapMs() const { return maxGapMs_; }
  double maxGapAtMs() const { return maxGapAtMs_; } // when the largest gap ended, since start()
  int ticks() const { return ticks_; }
  // The first gap: from start() to the event loop's first tick, so the window's construction and
  // first layout. Start-up is part of maxGapMs(); this says how much of it.
  double startupGapMs() const { return startupGapMs_; }

private:
  QTimer timer_;
  QElapsedTimer clock_;
  QElapsedTimer sinceStart_;
  double maxGapMs_ = 0;
  double maxGapAtMs_ = 0;
  double startupGapMs_ = 0;
  int ticks_ = 0;
};

} // namespace tessera::gui
