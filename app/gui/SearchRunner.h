// Runs one search on a worker thread and reports back on the UI thread: progress lines, best cost,
// the outcome or the failure. The only place the GUI calls the optimiser, so a Strategy (with its
// events and control channel) replaces `runSearch` here without touching the windows.
#pragma once

#include "RunSettings.h"

#include "ir/Graph.h"

#include <QObject>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>

class QThread;

namespace tessera::gui {

struct SearchOutcome {
  RunSettings settings;
  std::shared_ptr<const Graph> original;
  std::shared_ptr<const Graph> optimized;
  double originalCostMs = 0;
  double optimizedCostMs = 0;
  double speedupPct = 0; // (original - optimised) / original x 100
  std::string stopReason;
  size_t iterations = 0;
  size_t enodes = 0;
  size_t eclasses = 0;
  size_t rulesUsed = 0;
  std::map<std::string, size_t> rulesApplied;
  bool verificationRun = false;
  bool verified = false;
  double maxAbsError = 0;
  std::string verifyProblem;
  double seconds = 0;
  std::thread::id workerThread; // where it ran: never the UI thread
};

class SearchRunner : public QObject {
  Q_OBJECT

public:
  explicit SearchRunner(QObject* parent = nullptr);
  ~SearchRunner() override; // stops a run in flight and waits for it

  // False (and nothing happens) while a run is in flight.
  bool start(std::shared_ptr<const Graph> model, RunSettings settings);
  void requestStop();
  bool isRunning() const { return running_; }
  // Waits for the worker thread to end (for tests and shutdown); true when it has.
  bool waitForWorker(int milliseconds);

signals:
  void runningChanged(bool running);
  // One line per phase or iteration, with a rough percentage for the progress bar.
  void progress(const QString& line, int percent);
  void bestCostChanged(double ms);
  void finished(std::shared_ptr<const tessera::gui::SearchOutcome> outcome);
  void failed(const QString& message);

private:
  void deliver(std::shared_ptr<const SearchOutcome> outcome, const QString& error);

  QThread* thread_ = nullptr;
  std::shared_ptr<std::atomic<bool>> stop_;
  bool running_ = false;
};

} // namespace tessera::gui
