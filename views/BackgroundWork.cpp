#include "BackgroundWork.h"

#include <QCoreApplication>

#include <mutex>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace tessera::views {

QThreadPool* backgroundThreadPool() {
  static QThreadPool pool;
  static std::once_flag configured;
  std::call_once(configured, [] {
    pool.setObjectName(QStringLiteral("tessera-background"));
    // Drained while the application still exists, as Qt drains its global pool: a task finishing
    // after it (or a pool thread ending then) crashed the process on its way out.
    qAddPostRoutine([] { pool.waitForDone(); });
  });
  return &pool;
}

#ifdef __linux__
int thisThreadsNiceValue() {
  errno = 0; // getpriority may return -1 as a value
  int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  return errno == 0 ? nice : 0;
}

void lowerThisThreadsPriority() {
  if (thisThreadsNiceValue() >= kBackgroundNiceValue) return;
  // Failure leaves the thread at its priority: slower UI under load, nothing worse.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kBackgroundNiceValue);
}
#else
int thisThreadsNiceValue() { return 0; }
void lowerThisThreadsPriority() {}
#endif

} // namespace tessera::views
