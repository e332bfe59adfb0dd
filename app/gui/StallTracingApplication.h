// The explorer's QApplication. With TESSERA_TRACE_STALLS=MS in the environment, every event the UI
// thread takes MS milliseconds or more to handle is printed to stderr with its receiver and type:
// the way to find what a screenshot report's max_ui_stall_ms was. Without it, events pass straight
// through.
#pragma once

#include <QApplication>
#include <QByteArray>
#include <QElapsedTimer>

#include <utility>
#include <vector>

namespace tessera::gui {

class StallTracingApplication final : public QApplication {
public:
  StallTracingApplication(int& argc, char** argv);
  bool notify(QObject* receiver, QEvent* event) override;
  // When tracing, prints how long the step of start-up since the last call took ("window built").
  void traceStartup(const char* step);

private:
  double thresholdMs_ = 0; // 0: not tracing
  QElapsedTimer startup_;
  QElapsedTimer sinceStart_; // stamps each stall: start-up's, a run's, or the one max_ui_stall_at_ms names
  int depth_ = 0; // nested notify calls: the outermost is the stall
  std::vector<std::pair<double, QByteArray>> paints_; // within the outermost event: ms, widget
};

} // namespace tessera::gui
