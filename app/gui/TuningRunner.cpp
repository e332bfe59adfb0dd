#include "TuningRunner.h"

#include "OneDnnBaseline.h"

#include "tune/Tuner.h"

#include <QThread>

#include <algorithm>
#include <exception>
#include <optional>
#include <utility>

namespace tessera::gui {

TuningRunner::TuningRunner(QObject* parent) : QObject(parent) {}

TuningRunner::~TuningRunner() {
  if (!thread_) return;
  requestStop();
  thread_->wait();
  delete thread_;
}

bool TuningRunner::start(const TuningRequest& request) {
  if (thread_) return false;
  stop_ = std::make_shared<std::atomic<bool>>(false);
  thread_ = QThread::create([this, request] { run(request); });
  thread_->setObjectName(QStringLiteral("tessera-tuner"));
  connect(thread_, &QThread::finished, this, [this] {
    thread_->deleteLater();
    thread_ = nullptr;
    emit runningChanged(false);
  });
  // Normal priority: the kernels' child processes and oneDNN's OpenMP team inherit this thread's
  // scheduling, and what they time should be the machine's speed, not a deprioritised thread's.
  thread_->start();
  emit runningChanged(true);
  return true;
}

void TuningRunner::requestStop() {
  if (stop_) stop_->store(true);
}

// On the tuner's thread. Everything it reports is queued onto the UI thread; the destructor waits
// for this thread, so `this` outlives every queued call it posts.
void TuningRunner::run(const TuningRequest& request) {
  auto post = [this](auto&& call) { QMetaObject::invokeMethod(this, std::forward<decltype(call)>(call), Qt::QueuedConnection); };
  workerThread_ = std::this_thread::get_id();
  try {
    // oneDNN is timed before the run, for the chart's line as it goes, and again after it, as
    // `tessera-cli tune` times it; the faster of the two is the baseline. One timing alone can be
    // far off: a 64^3 matmul measured 0.05 GFLOP/s instead of 85 while the window was starting,
    // its two OpenMP threads waiting on each other's core.
    std::optional<double> bestBaseline;
    auto measureBaseline = [&] {
      std::string why;
      auto baseline = tuning::measureOneDnnBaseline(request.workload, request.threads, request.flushCaches, why);
      if (!baseline) {
        post([this, why = QString::fromStdString(why)] { emit baselineUnavailable(why); });
        return;
      }
      if (bestBaseline && *bestBaseline >= baseline->gflops) return;
      bestBaseline = baseline->gflops;
      post([this, gflops = baseline->gflops, what = QString::fromStdString(baseline->what)] { emit baselineMeasured(gflops, what); });
    };
    post([this] { emit status(tr("timing oneDNN's baseline…")); });
    measureBaseline();

    tune::CpuTuneSettings settings;
    settings.seed = request.seed;
    settings.search = request.search.toStdString();
    settings.threads = request.threads;
    settings.language = tune::parseCpuLanguage(request.codegen.toStdString());
    settings.run.flushCaches = request.flushCaches;
    auto context = tune::makeCpuTuneContext(request.workload, settings);
    tune::TuningDatabase database(request.databasePath.isEmpty() ? std::string(":memory:") : request.databasePath.toStdString());
    context->database = &database;

    tune::TuneOptions options;
    options.trials = request.trials;
    options.batchSize = std::min(options.batchSize, request.trials);
    options.seed = request.seed;
    options.shouldStop = [stop = stop_] { return stop->load(); };
    post([this, batch = options.batchSize] { emit status(tr("compiling the first %1 candidates…").arg(batch)); });
    const tune::TuneResult result = tune::tune(*context, options, [&](const tune::TuneProgress& p) {
      post([this, record = tune::recordOf(*context, options, *p.last, p.trial), trial = p.trial, trials = p.trials,
            best = p.bestGflops] { emit trialMeasured(record, trial, trials, best); });
    });
    if (bestBaseline) measureBaseline();
    post([this, reason = QString::fromStdString(result.stopReason), trials = result.trials, failedTrials = result.failed,
          seconds = result.seconds] { emit finished(reason, trials, failedTrials, seconds); });
  } catch (const std::exception& e) {
    post([this, message = QString::fromUtf8(e.what())] { emit failed(message); });
  }
}

} // namespace tessera::gui
