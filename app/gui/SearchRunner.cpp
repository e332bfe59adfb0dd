#include "SearchRunner.h"

#include "BackgroundWork.h"
#include "CostModels.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "events/Control.h"
#include "events/EventSink.h"
#include "rewrite/DefaultRules.h"
#include "session/Session.h"
#include "session/SessionRecorder.h"

#if TESSERA_HAVE_TORCH
#include "xrlflow/XrlflowStrategy.h"
#endif

#include <QDateTime>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <optional>

namespace tessera::gui {

const std::vector<StrategyInfo>& strategies() {
  static const std::vector<StrategyInfo> all = {
      {"eqsat", "Equality saturation (TENSAT)"},
      {"mcts", "MCTS-guided e-graph construction (PACT'24)"},
      {"taso", "Backtracking search (TASO)"},
      {"greedy", "Greedy sequential rewriting"},
      {"xrlflow", "X-RLflow: a PPO-trained graph-attention agent (needs libtorch)"},
  };
  return all;
}

RunSettings defaultRunSettings() {
  RunSettings settings;
  settings.search.iterationLimit = 10;
  settings.search.timeLimitSeconds = 30;
  return settings;
}

void registerBuiltStrategies() {
#if TESSERA_HAVE_TORCH
  registerXrlflowStrategy();
#endif
}

bool isKnownStrategy(const std::string& name) {
  return std::any_of(strategies().begin(), strategies().end(), [&](const StrategyInfo& s) { return s.name == name; });
}

namespace {

// The built-in pack, parsed once. Its rules are verified numerically by the test suite (every rule
// must pass, as the CLI relies on too), so they are not re-checked on every run.
const RuleSet& defaultRulePack() {
  static const RuleSet rules = defaultRules();
  return rules;
}

// The run's session rows through core's RunRecording, written from the worker thread through its
// own connection. A session that cannot be written never stops the search: the problem is
// reported with the outcome.
class WorkerRecording {
public:
  WorkerRecording(const RunDestination& where, const Graph& model) {
    if (where.sessionPath.empty()) return;
    try {
      recording_.emplace(where.sessionPath, where.model, model);
      modelId_ = recording_->modelId();
    } catch (const std::exception& e) {
      fail(e);
    }
  }

  // `request` as it runs: its cost spec the model's, after any fallback.
  void begin(const RunRequest& request) {
    if (!active()) return;
    try {
      recording_->begin(request);
      runId_ = recording_->runId();
    } catch (const std::exception& e) {
      fail(e);
    }
  }

  bool active() const { return recording_.has_value(); }
  EventSink* sink() { return recording_ ? &recording_->sink() : nullptr; }
  int64_t modelId() const { return modelId_; }
  int64_t runId() const { return runId_; }
  const std::string& error() const { return error_; }

  std::vector<int64_t> finish(const SearchResult& result, const CostModel& cost) {
    if (!active()) return {};
    try {
      return recording_->finish(result, cost);
    } catch (const std::exception& e) {
      fail(e);
    }
    return {};
  }

  void finishFailed(const std::string& why) {
    if (!active()) return;
    try {
      recording_->finishFailed(why);
    } catch (const std::exception& e) {
      fail(e);
    }
  }

private:
  void fail(const std::exception& e) {
    if (error_.empty()) error_ = e.what();
    recording_.reset();
  }

  std::optional<RunRecording> recording_;
  int64_t modelId_ = 0;
  int64_t runId_ = 0;
  std::string error_;
};

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
  for (const std::string& rule : pinned_) control_->pin(rule);
  for (const std::string& rule : vetoed_) control_->veto(rule);
  control_->setStepInterval(std::chrono::milliseconds(stepIntervalMs_));
  if (startPaused) control_->pause();
  queue_ = std::make_shared<EventQueue>();
  settings_ = settings;
  startedMs_ = QDateTime::currentMSecsSinceEpoch();
  running_ = true;
  paused_ = startPaused;
  runBatches_ = 0;

  thread_ = QThread::create([this, model = std::move(model), settings = std::move(settings), recording = std::move(recording),
                             control = control_, queue = queue_] {
    views::lowerThisThreadsPriority(); // the interpreter's threads started from here inherit it
    auto start = std::chrono::steady_clock::now();
    auto post = [this](auto&& call) { QMetaObject::invokeMethod(this, std::forward<decltype(call)>(call), Qt::QueuedConnection); };
    auto outcome = std::make_shared<SearchOutcome>();
    outcome->settings = settings;
    outcome->original = model;
    outcome->workerThread = std::this_thread::get_id();
    QString error;

    WorkerRecording session(recording, *model);
    try {
      std::unique_ptr<Strategy> strategy = makeStrategy(settings.strategy);
      strategy->validate(settings.search); // bad parameters fail before the session records a run
      std::shared_ptr<CostModel> cost = sharedCostModel(settings.costSpec);
      RunRequest request = settings;
      request.costSpec = cost->spec();
      session.begin(request);
      if (session.active()) post([this, modelId = session.modelId(), runId = session.runId()] { emit runRecorded(modelId, runId); });
      double originalMs = graphCost(*model, *cost).totalMs;
      post([this, originalMs] { emit bestCostChanged(originalMs); });

      std::vector<const Rule*> rules;
      for (const auto& rule : defaultRulePack().rules()) rules.push_back(rule.get());
      EventStream events; // lives and dies on this thread; sinks are thread-safe or thread-local
      events.attach(queue.get());
      events.attach(session.sink());
      SearchOptions options = settings.search;
      options.progress = [&](const std::string& line) {
        post([this, text = QString::fromStdString(line)] { emit progress(text, -1); });
      };
      post([this, n = rules.size(), spec = QString::fromStdString(cost->spec()), name = QString::fromStdString(settings.strategy)] {
        emit progress(tr("%1 with %2 rules, cost %3").arg(name).arg(n).arg(spec), 1);
      });

      SearchResult result = strategy->run(SearchInput{*model, rules, *cost, *control, events, options});
      if (settings.verify) {
        post([this] { emit progress(tr("verifying against the original"), 97); });
        verifySearchResult(*model, result, /*trials=*/1, settings.search.seed);
      }
      outcome->candidateIds = session.finish(result, *cost);
      outcome->optimized = std::make_shared<const Graph>(std::move(result.best));
      outcome->best = views::GraphSnapshot::make(outcome->optimized, *cost, "best (" + settings.strategy + ")");
      outcome->result = std::move(result);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
      session.finishFailed(e.what());
    }
    outcome->modelId = session.modelId();
    outcome->runId = session.runId();
    outcome->recordingError = session.error();
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
    if (const auto* best = std::get_if<BestCostChanged>(&event.payload)) emit bestCostChanged(best->costMs);
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
  emit bestCostChanged(outcome->result.bestCostMs);
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

bool SearchRunner::waitForWorker(int milliseconds) { return !thread_ || thread_->wait(QDeadlineTimer(milliseconds)); }

} // namespace tessera::gui
