#include "SearchRunner.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"
#include "rewrite/DefaultRules.h"
#include "search/EqsatOptimizer.h"
#include "support/Error.h"

#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <functional>

namespace tessera::gui {

const std::vector<StrategyInfo>& strategies() {
  static const std::vector<StrategyInfo> all = {
      {"eqsat", "Equality saturation (TENSAT)", true},
      {"mcts", "MCTS-guided e-graph construction (PACT'24)", false},
      {"taso", "Backtracking search (TASO)", false},
      {"greedy", "Greedy sequential rewriting", false},
  };
  return all;
}

bool isStrategyAvailable(const std::string& name) {
  for (const StrategyInfo& s : strategies())
    if (s.name == name) return s.available;
  return false;
}

namespace {

// The built-in pack, parsed once. Its rules are verified numerically by the test suite (every rule
// must pass, as the CLI relies on too), so they are not re-checked on every run.
const RuleSet& defaultRulePack() {
  static const RuleSet rules = defaultRules();
  return rules;
}

struct SearchCallbacks {
  std::function<void(const std::string&, int percent)> progress;
  std::function<void(double)> bestCost;
  std::function<bool()> stopRequested;
};

// Eqsat's progress lines name the phase; map them onto a bar: saturation 2-80,
// extraction 80-95, verification 95-100.
int percentFor(const std::string& line, const RunSettings& settings, double elapsedSeconds) {
  if (line.rfind("iteration ", 0) == 0) {
    int iteration = std::atoi(line.c_str() + 10);
    double byIterations = settings.iterationLimit > 0 ? static_cast<double>(iteration) / settings.iterationLimit : 0;
    double byTime = settings.timeLimitSeconds > 0 ? elapsedSeconds / settings.timeLimitSeconds : 0;
    return 2 + static_cast<int>(78 * std::min(1.0, std::max(byIterations, byTime)));
  }
  if (line.rfind("saturation stopped", 0) == 0) return 80;
  if (line.rfind("extracted", 0) == 0) return 95;
  if (line.rfind("verified", 0) == 0 || line.rfind("VERIFICATION", 0) == 0) return 100;
  return -1; // unknown line: leave the bar where it is
}

// The one place a search runs. Throws tessera::Error for settings it cannot honour.
SearchOutcome runSearch(std::shared_ptr<const Graph> model, const RunSettings& settings, const SearchCallbacks& callbacks) {
  if (!isStrategyAvailable(settings.strategy))
    throw Error("strategy '" + settings.strategy + "' is not available yet; this build runs eqsat");
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::unique_ptr<CostModel> cost = makeCostModel(settings.costSpec);

  SearchOutcome outcome;
  outcome.settings = settings;
  outcome.original = model;
  outcome.workerThread = std::this_thread::get_id();
  outcome.originalCostMs = graphCost(*model, *cost).totalMs;
  callbacks.bestCost(outcome.originalCostMs);

  const RuleSet& rules = defaultRulePack();
  std::vector<const Rule*> active;
  for (const auto& rule : rules.rules()) active.push_back(rule.get());
  outcome.rulesUsed = active.size();
  callbacks.progress("saturating with " + std::to_string(active.size()) + " rules, cost " + cost->spec(), 2);

  OptimizeOptions options;
  options.limits.nodeLimit = settings.nodeLimit;
  options.limits.iterationLimit = settings.iterationLimit;
  options.limits.timeLimitSeconds = settings.timeLimitSeconds;
  options.extractMethod = settings.extractMethod;
  options.seed = settings.seed;
  options.verify = settings.verify;
  options.stopRequested = callbacks.stopRequested;
  options.progress = [&](const std::string& line) { callbacks.progress(line, percentFor(line, settings, elapsed())); };
  OptimizeResult result = optimizeEqsat(*model, active, *cost, options);

  outcome.optimized = std::make_shared<const Graph>(std::move(result.optimized));
  outcome.optimizedCostMs = result.optimizedCostMs;
  outcome.speedupPct = result.speedupPct;
  outcome.stopReason = std::string(stopReasonName(result.run.stopReason));
  outcome.iterations = result.run.iterations.size();
  outcome.enodes = result.enodes;
  outcome.eclasses = result.eclasses;
  outcome.rulesApplied = result.run.rulesApplied;
  outcome.verificationRun = result.verificationRun;
  outcome.verified = result.verified;
  outcome.maxAbsError = result.maxAbsError;
  outcome.verifyProblem = result.verifyProblem;
  outcome.seconds = elapsed();
  callbacks.bestCost(outcome.optimizedCostMs);
  return outcome;
}

} // namespace

SearchRunner::SearchRunner(QObject* parent) : QObject(parent) {}

SearchRunner::~SearchRunner() {
  requestStop();
  if (thread_) {
    thread_->wait();
    delete thread_;
  }
}

bool SearchRunner::start(std::shared_ptr<const Graph> model, RunSettings settings) {
  if (running_ || !model) return false;
  if (thread_) { // the previous worker has delivered and is only returning
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
  }
  auto stop = std::make_shared<std::atomic<bool>>(false);
  stop_ = stop;
  running_ = true;
  // Everything the worker reports is posted to this object's (the UI) thread, batched per line:
  // eqsat reports once per phase or iteration, never per e-node.
  thread_ = QThread::create([this, model = std::move(model), settings = std::move(settings), stop] {
    SearchCallbacks callbacks;
    callbacks.progress = [this](const std::string& line, int percent) {
      QString text = QString::fromStdString(line);
      QMetaObject::invokeMethod(this, [this, text, percent] { emit progress(text, percent); }, Qt::QueuedConnection);
    };
    callbacks.bestCost = [this](double ms) {
      QMetaObject::invokeMethod(this, [this, ms] { emit bestCostChanged(ms); }, Qt::QueuedConnection);
    };
    callbacks.stopRequested = [stop] { return stop->load(); };
    std::shared_ptr<const SearchOutcome> outcome;
    QString error;
    try {
      outcome = std::make_shared<const SearchOutcome>(runSearch(model, settings, callbacks));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(this, [this, outcome, error] { deliver(outcome, error); }, Qt::QueuedConnection);
  });
  thread_->setObjectName(QStringLiteral("tessera-search"));
  thread_->start();
  emit runningChanged(true);
  return true;
}

void SearchRunner::deliver(std::shared_ptr<const SearchOutcome> outcome, const QString& error) {
  running_ = false;
  emit runningChanged(false);
  if (outcome) emit finished(outcome);
  else emit failed(error);
}

void SearchRunner::requestStop() {
  if (stop_) stop_->store(true);
}

bool SearchRunner::waitForWorker(int milliseconds) { return !thread_ || thread_->wait(QDeadlineTimer(milliseconds)); }

} // namespace tessera::gui
