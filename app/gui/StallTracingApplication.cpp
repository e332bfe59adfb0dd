#include "StallTracingApplication.h"

#include <QEvent>
#include <QMetaEnum>
#include <QScopedValueRollback>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::gui {

namespace {
double thresholdFromEnvironment() {
  const char* text = std::getenv("TESSERA_TRACE_STALLS");
  if (!text || !*text) return 0;
  char* end = nullptr;
  double ms = std::strtod(text, &end);
  if (*end != '\0' || ms <= 0) {
    std::fprintf(stderr, "tessera: TESSERA_TRACE_STALLS=%s is not a positive number of milliseconds; not tracing\n", text);
    return 0;
  }
  return ms;
}

// "QTreeView in tessera::views::PropertiesPanel": the class, its name, and for a Qt class without
// a name, the nearest ancestor that is one of ours or named, so the report says which widget.
QByteArray describe(const QObject* object) {
  QByteArray text = object->metaObject()->className();
  if (!object->objectName().isEmpty()) return text + ' ' + object->objectName().toUtf8();
  for (const QObject* up = object->parent(); up; up = up->parent()) {
    QByteArray upClass = up->metaObject()->className();
    if (up->objectName().isEmpty() && !upClass.startsWith("tessera::")) continue;
    return text + " in " + upClass + (up->objectName().isEmpty() ? "" : " " + up->objectName().toUtf8());
  }
  return text;
}
} // namespace

StallTracingApplication::StallTracingApplication(int& argc, char** argv)
    : QApplication(argc, argv), thresholdMs_(thresholdFromEnvironment()) {
  startup_.start();
  sinceStart_.start();
}

void StallTracingApplication::traceStartup(const char* step) {
  if (thresholdMs_ <= 0) return;
  std::fprintf(stderr, "tessera: start-up: %s in %.1f ms\n", step, startup_.nsecsElapsed() / 1e6);
  startup_.restart();
}

bool StallTracingApplication::notify(QObject* receiver, QEvent* event) {
  // Other threads' events pass through untimed (and never touch this object's state).
  if (thresholdMs_ <= 0 || QThread::currentThread() != thread()) return QApplication::notify(receiver, event);
  bool outermost = depth_ == 0;
  // A paint inside a slow event is timed too: a repaint is one event, and this says which widgets.
  if (!outermost && event->type() != QEvent::Paint) return QApplication::notify(receiver, event);
  // Read before dispatch: the receiver may delete itself or the event while handling it.
  QByteArray who = describe(receiver);
  const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type());
  if (outermost) paints_.clear();
  QElapsedTimer timer;
  timer.start();
  bool handled = false;
  {
    QScopedValueRollback nested(depth_, depth_ + 1);
    handled = QApplication::notify(receiver, event);
  }
  double ms = timer.nsecsElapsed() / 1e6;
  if (!outermost) {
    paints_.push_back({ms, who});
    return handled;
  }
  if (ms < thresholdMs_) return handled;
  std::fprintf(stderr, "tessera: UI thread busy %.1f ms with %s to %s, until %.0f ms after start\n", ms, type ? type : "an event",
               who.constData(), sinceStart_.nsecsElapsed() / 1e6);
  std::sort(paints_.begin(), paints_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; i < std::min<size_t>(paints_.size(), 4); ++i)
    std::fprintf(stderr, "tessera:   of which %.1f ms painting %s\n", paints_[i].first, paints_[i].second.constData());
  return handled;
}

} // namespace tessera::gui
