#include "MeasuringPause.h"

#include "BackgroundWork.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>

namespace tessera::gui {

namespace {

std::mutex pauseMutex;
std::condition_variable searchEnded;
int searchesRunning = 0;
std::vector<std::string> waits;
std::map<int, std::function<void()>> observers;
int lastObserverId = 0;
thread_local bool onSearchWorker = false;

void tellObservers() {
  std::vector<std::function<void()>> watching;
  {
    std::lock_guard lock(pauseMutex);
    for (const auto& [id, changed] : observers) watching.push_back(changed);
  }
  for (const std::function<void()>& changed : watching) changed();
}

bool onUiThread() {
  const QCoreApplication* app = QCoreApplication::instance();
  return app && QThread::currentThread() == app->thread();
}

} // namespace

OwnSearchRunning::OwnSearchRunning() {
  std::lock_guard lock(pauseMutex);
  ++searchesRunning;
  onSearchWorker = true;
}

OwnSearchRunning::~OwnSearchRunning() {
  {
    std::lock_guard lock(pauseMutex);
    --searchesRunning;
    onSearchWorker = false;
  }
  searchEnded.notify_all();
}

bool ownSearchRunning() {
  std::lock_guard lock(pauseMutex);
  return searchesRunning > 0;
}

void waitForOwnSearch(const std::string& what) {
  if (onSearchWorker || onUiThread()) return;
  {
    std::unique_lock lock(pauseMutex);
    if (searchesRunning == 0) return;
    waits.push_back(what);
  }
  tellObservers();
  // A waiting thread of the background pool lends its place meanwhile: the pool has as many threads
  // as cores, and work that measures nothing (a session read, a listing) must not queue behind it.
  QThreadPool* pool = views::backgroundThreadPool();
  const bool pooled = pool->contains(QThread::currentThread());
  if (pooled) pool->releaseThread();
  {
    std::unique_lock lock(pauseMutex);
    searchEnded.wait(lock, [] { return searchesRunning == 0; });
    waits.erase(std::find(waits.begin(), waits.end(), what));
  }
  if (pooled) pool->reserveThread();
  tellObservers();
}

std::vector<std::string> measuringWaits() {
  std::lock_guard lock(pauseMutex);
  return waits;
}

int watchMeasuringWaits(std::function<void()> changed) {
  std::lock_guard lock(pauseMutex);
  observers[++lastObserverId] = std::move(changed);
  return lastObserverId;
}

void unwatchMeasuringWaits(int id) {
  std::lock_guard lock(pauseMutex);
  observers.erase(id);
}

} // namespace tessera::gui
