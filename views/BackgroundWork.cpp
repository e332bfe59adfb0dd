#include "BackgroundWork.h"

#include <QCoreApplication>
#include <QThread>

#include <list>
#include <mutex>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace tessera::views {

namespace {

std::mutex poolsMutex;
std::list<QThreadPool>& pools() {
  static std::list<QThreadPool> all; // a list: pools never move
  return all;
}

void drainPools() {
  std::vector<QThreadPool*> all;
  {
    // Not held while waiting: a task still running may make its pool's first call to namedThreadPool.
    std::lock_guard lock(poolsMutex);
    for (QThreadPool& pool : pools()) all.push_back(&pool);
  }
  for (QThreadPool* pool : all) pool->waitForDone();
}

} // namespace

QThreadPool* namedThreadPool(const QString& name, int maxThreads) {
  std::lock_guard lock(poolsMutex);
  for (QThreadPool& pool : pools())
    if (pool.objectName() == name) return &pool;
  if (pools().empty()) qAddPostRoutine(drainPools);
  QThreadPool& pool = pools().emplace_back();
  pool.setObjectName(name);
  pool.setMaxThreadCount(maxThreads);
  return &pool;
}

QThreadPool* backgroundThreadPool() {
  static QThreadPool* const pool = namedThreadPool(QStringLiteral("tessera-background"), QThread::idealThreadCount());
  return pool;
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
