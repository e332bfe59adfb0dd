// Work the UI thread hands off (loading, layouts, session writes, searches, timings) runs at a lower
// scheduling priority, so the UI thread is run first whenever it has an event to handle, and never
// on Qt's global thread pool: the raster paint engine splits large fills across that pool and the
// UI thread waits for them, so a model load running there made a repaint wait for the load. On a
// machine with no more cores than busy threads, a layout and a session write at normal priority
// kept the UI thread of a starting window waiting about 90 ms.
#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace tessera::views {

// The nice value background threads run at: low enough that the UI thread (at 0) gets about nine
// tenths of a contended core, high enough that the work still gets the rest.
inline constexpr int kBackgroundNiceValue = 10;

// Lowers the calling thread's priority to kBackgroundNiceValue (on Linux, where a nice value is per
// thread); a thread already at that value or lower in priority keeps it. Elsewhere it does nothing.
void lowerThisThreadsPriority();

// The calling thread's nice value (0 where there are none).
int thisThreadsNiceValue();

// The pool background work runs on when no other is named: idealThreadCount threads.
QThreadPool* backgroundThreadPool();

// The pool called `name`, made with `maxThreads` threads on first use and drained while the
// application still exists, as Qt drains its global pool: a task finishing after the application
// (or a pool thread ending then) crashed the process on its way out.
QThreadPool* namedThreadPool(const QString& name, int maxThreads);

// QtConcurrent::run, with the function run at background priority.
template <typename Function, typename... Args>
auto runInBackground(QThreadPool* pool, Function&& function, Args&&... args) {
  return QtConcurrent::run(pool, [function = std::forward<Function>(function), ... args = std::forward<Args>(args)]() mutable {
    lowerThisThreadsPriority();
    return std::invoke(std::move(function), std::move(args)...);
  });
}

template <typename Function, typename... Args>
auto runInBackground(Function&& function, Args&&... args) {
  return runInBackground(backgroundThreadPool(), std::forward<Function>(function), std::forward<Args>(args)...);
}

} // namespace tessera::views
