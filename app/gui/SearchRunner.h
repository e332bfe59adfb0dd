// Runs one search (any Strategy: greedy, taso, eqsat, mcts) on a worker thread and reports back on
// the UI thread. The worker owns the run's EventStream; the UI thread drains an EventQueue attached
// to it on a ~30 Hz timer, so views get one batch per frame, never one signal per e-node. The run's
// Control (pause, resume, single step, stop, pin, veto) is driven from here. When a session file is
// given, the worker records the run there with its own connection (events, candidates, summary).
#pragma once

#include "RunSettings.h"
#include "SearchOutcome.h"

#include "events/Event.h"

#include <QObject>
#include <QString>

#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

class QThread;
class QTimer;

namespace tessera {
class Control;
class EventQueue;
} // namespace tessera

namespace tessera::gui {

using EventBatch = std::shared_ptr<const std::vector<tessera::Event>>;

class SearchRunner : public QObject {
  Q_OBJECT

public:
  explicit SearchRunner(QObject* parent = nullptr);
  ~SearchRunner() override; // stops a run in flight (releasing a pause) and waits for it

  // False (and nothing happens) while a run is in flight. `startPaused` lets a person step from
  // the first step on (and lets tests observe a run that has not moved).
  bool start(std::shared_ptr<const Graph> model, RunSettings settings, RunDestination recording = {}, bool startPaused = false);
  bool isRunning() const { return running_; }
  bool isPaused() const { return paused_; }
  // Waits for the worker thread to end (for tests and shutdown); true when it has.
  bool waitForWorker(int milliseconds);

  // The teaching pace: the least time between two steps of this and later runs (0: full speed).
  void setStepInterval(int milliseconds);
  int stepInterval() const { return stepIntervalMs_; }

  // How often the event queue is drained while a run is in flight (default 33 ms, ~30 Hz).
  void setDeliveryInterval(int milliseconds);
  uint64_t eventsDelivered() const { return eventsDelivered_; }
  uint64_t batchesDelivered() const { return batchesDelivered_; }
  // Batches per second over the last run's span of deliveries (0 before two batches).
  double batchesPerSecond() const;

public slots:
  // Control of the run in flight; nothing happens without one. Each takes effect at the search's
  // next step and is recorded as a UserDecision event. Pins and vetoes made between runs carry
  // over to the next run.
  void pause();
  void resume();
  void step(); // while paused: exactly one more step
  void requestStop();
  void pin(const QString& rule);
  void unpin(const QString& rule);
  void veto(const QString& rule);
  void unveto(const QString& rule);

public:
  // The rules of the next runs: a rule file (its rules checked numerically by core, as the CLI's
  // --rules), or the built-in pack when empty. Pins and vetoes of the rules before are dropped:
  // their names may not exist in the new pack.
  void setRuleFile(const std::string& path);
  const std::string& ruleFile() const { return ruleFile_; }

signals:
  void runningChanged(bool running);
  void pausedChanged(bool paused);
  // The strategy's own progress lines (one per phase or step), with a rough percentage; -1 leaves
  // the bar where it is.
  void progress(const QString& line, int percent);
  // From StepCommitted events: the step, the e-graph size (graphs explored for taso/greedy) and a
  // percentage of the budget (steps, time or nodes, whichever is nearest its limit).
  void stepCommitted(int step, qulonglong enodes, int percent);
  // The original's cost when the run starts, then every BestCostChanged, then the final best, each
  // with the original's cost under the run's cost model (which the views may not be priced with).
  void bestCostChanged(double ms, double originalMs);
  // Every event the run emits, in order, in batches drained on the UI thread at most ~30 times a
  // second and once more before finished()/failed(). The batch is shared and immutable: keep the
  // pointer, never copy per event. Live views (e-graph, MCTS tree, timeline, rules) connect here.
  void eventsArrived(tessera::gui::EventBatch batch);
  // The run has a row in the session (emitted before its first events are recorded).
  void runRecorded(qint64 modelId, qint64 runId);
  void finished(std::shared_ptr<const tessera::gui::SearchOutcome> outcome);
  void failed(const QString& message);

private:
  void drainEvents();
  void deliver(std::shared_ptr<const SearchOutcome> outcome, const QString& error);
  int budgetPercent(int step, size_t enodes) const;

  QThread* thread_ = nullptr;
  QTimer* drainTimer_ = nullptr;
  std::shared_ptr<Control> control_;
  std::shared_ptr<EventQueue> queue_;
  RunSettings settings_;
  std::string ruleFile_;
  std::set<std::string> pinned_;
  std::set<std::string> vetoed_;
  qint64 startedMs_ = 0;
  bool running_ = false;
  bool paused_ = false;
  double originalCostMs_ = 0; // the running search's original, priced by its own cost model
  int stepIntervalMs_ = 0;
  uint64_t eventsDelivered_ = 0;
  uint64_t batchesDelivered_ = 0;
  uint64_t runBatches_ = 0;
  qint64 firstBatchMs_ = 0;
  qint64 lastBatchMs_ = 0;
};

} // namespace tessera::gui
