#include "SearchRunner.h"

#include "BackgroundWork.h"
#include "CostModels.h"
#include "MeasuringPause.h"

#include "events/Control.h"
#include "events/EventSink.h"
#include "run/RunModel.h"

#if TESSERA_HAVE_TORCH
#include "rlflow/RlflowStrategy.h"
#include "xrlflow/XrlflowStrategy.h"
#endif
#if TESSERA_HAVE_PUCT
#include "puct/PuctAgent.h"
#endif

#include <QDateTime>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <optional>

namespace tessera::gui {

std::vector<StrategyInfo> strategies() {
  registerBuiltStrategies();
  return strategyChoices();
}

RunSettings defaultRunSettings() { return RunSettings{}; }

void registerBuiltStrategies() {
#if TESSERA_HAVE_TORCH
  registerXrlflowStrategy();
  registerRlflowStrategy();
#endif
#if TESSERA_HAVE_PUCT
  registerPuctPriors(); // mcts --param prior=CKPT
#endif
}

bool isKnownStrategy(const std::string& name) {
  const std::vector<StrategyInfo> known = strategies();
  return std::any_of(known.begin(), known.end(), [&](const StrategyInfo& s) { return s.name == name; });
}

std::string strategyListText() {
  std::vector<std::string> names;
  for (const StrategyInfo& known : strategies()) names.push_back(known.name);
  return listText(names);
}

namespace {

// The title of what the run returns, as the compare view shows it above the optimised graph.
std::string returnedTitle(const RunOutcome& run, const std::string& strategy) {
  if (!run.deployCheck || !run.deployCheck->keptOriginal()) return "best (" + strategy + ")";
  const DoNoHarmOutcome& check = *run.deployCheck->outcome;
  if (!check.executorMismatch.empty()) return "kept the original (" + strategy + "'s candidate computes differently on the device)";
  const std::string measured = check.comparison ? check.comparison->describeSpeedup() + " on " + check.comparison->device : "not timed";
  return "kept the original (" + strategy + "'s candidate is not faster: " + measured + ")";
}

} // namespace

SearchRunner::SearchRunner(QObject* parent) : QObject(parent) {
  registerBuiltStrategies();
  drainTimer_ = new QTimer(this);
  drainTimer_->setInterval(33);
  connect(drainTimer_, &QTimer::timeout, this, &SearchRunner::drainEvents);
}

SearchRunner::~SearchRunner() {
  requestStop();
  if (thread_) {
    thread_->wait();
    delete thread_;
  }
}

void SearchRunner::setStepInterval(int milliseconds) {
  stepIntervalMs_ = std::max(0, milliseconds);
  if (control_) control_->setStepInterval(std::chrono::milliseconds(stepIntervalMs_));
}

void SearchRunner::setDeliveryInterval(int milliseconds) { drainTimer_->setInterval(std::max(1, milliseconds)); }

bool SearchRunner::start(std::shared_ptr<const Graph> model, RunSettings settings, RunDestination recording, bool startPaused) {
  if (running_ || !model) return false;
  if (thread_) { // the previous worker has delivered and is only returning
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
  }
  control_ = std::make_shared<Control>();
  // Pins and vetoes made between runs go with the plan, which checks their names against the rules.
  std::vector<std::string> pins(pinned_.begin(), pinned_.end()), vetoes(vetoed_.begin(), vetoed_.end());
  control_->setStepInterval(std::chrono::milliseconds(stepIntervalMs_));
  if (startPaused) control_->pause();
  queue_ = std::make_shared<EventQueue>();
  settings_ = settings;
  startedMs_ = QDateTime::currentMSecsSinceEpoch();
  running_ = true;
  originalCostMs_ = 0;
  paused_ = startPaused;
  runBatches_ = 0;

  thread_ = QThread::create([this, model = std::move(model), settings = std::move(settings), recording = std::move(recording),
                             ruleFile = ruleFile_, pins = std::move(pins), vetoes = std::move(vetoes), control = control_, queue = queue_] {
    views::lowerThisThreadsPriority(); // the interpreter's threads started from here inherit it
    const OwnSearchRunning running;     // the explorer's other measuring waits until this run ends
    auto start = std::chrono::steady_clock::now();
    auto post = [this](auto&& call) { QMetaObject::invokeMethod(this, std::forward<decltype(call)>(call), Qt::QueuedConnection); };
    auto outcome = std::make_shared<SearchOutcome>();
    outcome->settings = settings;
    outcome->original = model;
    outcome->workerThread = std::this_thread::get_id();
    QString error;

    RunPlan plan;
    plan.request = settings;
    plan.rules = {ruleFile, pins, vetoes};
    plan.sessionPath = recording.sessionPath;
    plan.recordedModel = recording.model;
    plan.recordingRequired = false; // a session that cannot be written never stops the search
    RunBackends backends;
    backends.costs = sharedCostModels();
    backends.executor = backendExecutors();
    backends.warn = [&](const std::string& line) { post([this, text = QString::fromStdString(line)] { emit progress(text, -1); }); };
    RunObserver observer;
    observer.progress = backends.warn;
    observer.started = [&](const RunStarted& started) {
      if (started.runId) post([this, started] { emit runRecorded(started.modelId, started.runId); });
      post([this, started] { // runModel's own line names the rules and cost
        originalCostMs_ = started.originalCostMs;
        emit bestCostChanged(started.originalCostMs, started.originalCostMs);
      });
    };
    try {
      RunOutcome run = runModel(*model, plan, backends, *control, queue.get(), observer);
      outcome->candidateIds = run.candidateIds;
      outcome->modelId = run.modelId;
      outcome->runId = run.runId;
      outcome->recordingError = run.recordingError;
      outcome->costFallbackNote = run.costFallbackNote;
      outcome->deployCheck = run.deployCheck;
      outcome->optimized = std::make_shared<const Graph>(std::move(run.result.best));
      outcome->best = views::GraphSnapshot::make(outcome->optimized, *run.cost, returnedTitle(run, settings.strategy));
      outcome->result = std::move(run.result);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    outcome->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::shared_ptr<const SearchOutcome> delivered;
    if (error.isEmpty()) delivered = std::move(outcome);
    post([this, delivered, error] { deliver(delivered, error); });
  });
  thread_->setObjectName(QStringLiteral("tessera-search"));
  thread_->start();
  drainTimer_->start();
  emit runningChanged(true);
  if (startPaused) emit pausedChanged(true);
  return true;
}

void SearchRunner::drainEvents() {
  if (!queue_) return;
  std::vector<Event> events = queue_->drain();
  if (events.empty()) return;
  for (const Event& event : events) {
    if (const auto* best = std::get_if<BestCostChanged>(&event.payload)) emit bestCostChanged(best->costMs, originalCostMs_);
  }
  // Only the newest step matters for the bar; a batch may hold several.
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (const auto* step = std::get_if<StepCommitted>(&it->payload)) {
      emit stepCommitted(step->step, step->enodes, budgetPercent(step->step, step->enodes));
      break;
    }
  }
  eventsDelivered_ += events.size();
  ++batchesDelivered_;
  lastBatchMs_ = QDateTime::currentMSecsSinceEpoch();
  if (runBatches_++ == 0) firstBatchMs_ = lastBatchMs_;
  emit eventsArrived(std::make_shared<const std::vector<Event>>(std::move(events)));
}

double SearchRunner::batchesPerSecond() const {
  if (runBatches_ < 2 || lastBatchMs_ <= firstBatchMs_) return 0;
  return (runBatches_ - 1) * 1000.0 / (lastBatchMs_ - firstBatchMs_);
}

int SearchRunner::budgetPercent(int step, size_t enodes) const {
  double elapsed = (QDateTime::currentMSecsSinceEpoch() - startedMs_) / 1000.0;
  double fraction = settings_.search.timeLimitSeconds > 0 ? elapsed / settings_.search.timeLimitSeconds : 0;
  if (settings_.search.nodeLimit > 0) fraction = std::max(fraction, static_cast<double>(enodes) / settings_.search.nodeLimit);
  if (settings_.strategy == "eqsat" && settings_.search.iterationLimit > 0)
    fraction = std::max(fraction, static_cast<double>(step + 1) / settings_.search.iterationLimit);
  return 2 + static_cast<int>(90 * std::min(1.0, fraction)); // extraction and verification take the rest
}

void SearchRunner::deliver(std::shared_ptr<const SearchOutcome> outcome, const QString& error) {
  drainEvents(); // everything the worker emitted is queued by now
  drainTimer_->stop();
  running_ = false;
  if (paused_) {
    paused_ = false;
    emit pausedChanged(false);
  }
  control_.reset();
  emit runningChanged(false);
  if (!outcome) {
    emit failed(error);
    return;
  }
  emit bestCostChanged(outcome->result.bestCostMs, outcome->result.originalCostMs);
  emit finished(outcome);
}

void SearchRunner::pause() {
  if (!control_ || paused_) return;
  control_->pause();
  paused_ = true;
  emit pausedChanged(true);
}

void SearchRunner::resume() {
  if (!control_ || !paused_) return;
  control_->resume();
  paused_ = false;
  emit pausedChanged(false);
}

void SearchRunner::step() {
  if (control_ && paused_) control_->step();
}

void SearchRunner::requestStop() {
  if (control_) control_->stop();
}

void SearchRunner::pin(const QString& rule) {
  vetoed_.erase(rule.toStdString());
  pinned_.insert(rule.toStdString());
  if (control_) control_->pin(rule.toStdString());
}

void SearchRunner::unpin(const QString& rule) {
  pinned_.erase(rule.toStdString());
  if (control_) control_->unpin(rule.toStdString());
}

void SearchRunner::veto(const QString& rule) {
  pinned_.erase(rule.toStdString());
  vetoed_.insert(rule.toStdString());
  if (control_) control_->veto(rule.toStdString());
}

void SearchRunner::unveto(const QString& rule) {
  vetoed_.erase(rule.toStdString());
  if (control_) control_->unveto(rule.toStdString());
}

void SearchRunner::setRuleFile(const std::string& path) {
  ruleFile_ = path;
  pinned_.clear();
  vetoed_.clear();
}

bool SearchRunner::waitForWorker(int milliseconds) { return !thread_ || thread_->wait(QDeadlineTimer(milliseconds)); }

} // namespace tessera::gui
