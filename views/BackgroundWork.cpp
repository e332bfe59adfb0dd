#include "BackgroundWork.h"

#include <mutex>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace tessera::views {

QThreadPool* backgroundThreadPool() {
  static QThreadPool pool; // its destructor, at exit, waits for work still running
  static std::once_flag named;
  std::call_once(named, [] { pool.setObjectName(QStringLiteral("tessera-background")); });
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
