#include "BackgroundWork.h"

#include <gtest/gtest.h>

#include <QThread>
#include <QThreadPool>

#include <memory>
#include <string>
#include <utility>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace tessera::views {
namespace {

struct Ran {
  std::thread::id thread;
  int niceValue = 0;
  std::string text;
};

Ran describeThread(std::string text, int copies) {
  Ran ran{std::this_thread::get_id(), thisThreadsNiceValue(), {}};
  for (int i = 0; i < copies; ++i) ran.text += text;
  return ran;
}

TEST(BackgroundWork, RunsOnAnotherThreadAtBackgroundPriorityAndLeavesTheCallersAlone) {
#ifndef __linux__
  GTEST_SKIP() << "thread priorities are lowered only on Linux, where a nice value is per thread";
#endif
  int callersNiceValue = thisThreadsNiceValue();
  if (callersNiceValue >= kBackgroundNiceValue)
    GTEST_SKIP() << "the tests run at nice " << callersNiceValue << ", already at background priority, so lowering cannot be seen";
  QThreadPool pool;
  Ran ran = runInBackground(&pool, describeThread, std::string("ab"), 3).result();
  EXPECT_NE(ran.thread, std::this_thread::get_id());
  EXPECT_EQ(ran.niceValue, kBackgroundNiceValue);
  EXPECT_EQ(ran.text, "ababab"); // the arguments reach the function
  EXPECT_EQ(thisThreadsNiceValue(), callersNiceValue);
}

TEST(BackgroundWork, AThreadAlreadyLowerInPriorityKeepsItsPriority) {
#ifndef __linux__
  GTEST_SKIP() << "thread priorities are lowered only on Linux, where a nice value is per thread";
#else
  QThreadPool pool;
  int kept = runInBackground(&pool, [] {
               setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kBackgroundNiceValue + 5);
               lowerThisThreadsPriority();
               return thisThreadsNiceValue();
             }).result();
  EXPECT_EQ(kept, kBackgroundNiceValue + 5); // never raised back
#endif
}

// Qt's raster engine splits large fills across the global pool and the UI thread waits for them: a
// load running there would make a repaint wait for the load.
TEST(BackgroundWork, StaysOffQtsGlobalThreadPool) {
  auto [onGlobalPool, onBackgroundPool] = runInBackground([] {
                                            QThread* thread = QThread::currentThread();
                                            return std::pair(QThreadPool::globalInstance()->contains(thread),
                                                             backgroundThreadPool()->contains(thread));
                                          }).result();
  EXPECT_FALSE(onGlobalPool);
  EXPECT_TRUE(onBackgroundPool);
}

// One pool per name, made once with its thread count (the layout pool runs one layout at a time).
TEST(BackgroundWork, NamedPoolsAreMadeOnceWithTheirThreadCount) {
  QThreadPool* layout = namedThreadPool(QStringLiteral("test-one-at-a-time"), 1);
  EXPECT_EQ(namedThreadPool(QStringLiteral("test-one-at-a-time"), 4), layout);
  EXPECT_EQ(layout->maxThreadCount(), 1);
  EXPECT_NE(namedThreadPool(QStringLiteral("test-other"), 2), layout);
  QThreadPool* background = backgroundThreadPool();
  EXPECT_EQ(namedThreadPool(QStringLiteral("tessera-background"), 1), background);
  EXPECT_EQ(runInBackground(layout, [layout] { return layout->contains(QThread::currentThread()); }).result(), true);
}

TEST(BackgroundWork, TakesFunctionsThatOwnWhatTheyCapture) {
  auto owned = std::make_unique<int>(7);
  QThreadPool pool;
  EXPECT_EQ(runInBackground(&pool, [owned = std::move(owned)]() mutable { return *owned; }).result(), 7);
}

} // namespace
} // namespace tessera::views
