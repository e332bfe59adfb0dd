// Runs the kernel tuner (core/tune) for the Tuning view on a thread of its own and reports back on
// the UI thread: the oneDNN baseline first, then every measured candidate as its record, then the
// baseline again and why the run ended. A run takes minutes of compiling and timing, so it never borrows the shared
// thread pool that opens models and sessions.
#pragma once

#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"
#include "tune/Workload.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

class QThread;

namespace tessera::gui {

struct TuningRequest {
  tune::Workload workload;
  int trials = 32;
  QString search;  // one of tune::availableSearches()
  QString codegen = tune::languageName(tune::defaultCpuLanguage()); // "llvm" or "c"
  bool flushCaches = false; // RunnerOptions::flushCaches
  quint64 seed = 1;
  int threads = 2; // the kernels' and oneDNN's
  QString databasePath; // records are added there (and kernels measured before are skipped); empty: in memory
};

class TuningRunner : public QObject {
  Q_OBJECT

public:
  explicit TuningRunner(QObject* parent = nullptr);
  ~TuningRunner() override; // stops a run in flight and waits for it

  // False while a run is in flight.
  bool start(const TuningRequest& request);
  bool isRunning() const { return thread_ != nullptr; }
  // The run stops before its next kernel runs (a batch being compiled finishes compiling first).
  void requestStop();
  // The thread the last run's tuning ran on (for tests: never the UI thread); read it once
  // runningChanged(false) has come.
  std::thread::id lastWorkerThread() const { return workerThread_; }

signals:
  void runningChanged(bool running);
  void status(const QString& line); // what the run is doing before its first trial arrives
  // Before the run and again after it when faster (the faster timing is the baseline).
  void baselineMeasured(double gflops, const QString& what);
  void baselineUnavailable(const QString& why);
  // `bestGflops`: the best verified candidate so far, this one included.
  void trialMeasured(const tessera::tune::TuningRecord& record, int trial, int trials, double bestGflops);
  void finished(const QString& stopReason, int trials, int failed, double seconds);
  void failed(const QString& message);

private:
  void run(const TuningRequest& request);

  QThread* thread_ = nullptr;
  std::shared_ptr<std::atomic<bool>> stop_;
  std::thread::id workerThread_;
};

} // namespace tessera::gui
