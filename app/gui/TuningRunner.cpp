#include "TuningRunner.h"

#include "OneDnnBaseline.h"

#include "tune/Tuner.h"

#include <QThread>

#include <algorithm>
#include <exception>
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
  thread_->start(QThread::LowPriority); // the compiler and the kernels' children do the work; the UI stays ahead
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
    post([this] { emit status(tr("measuring oneDNN's baseline…")); });
    std::string why;
    if (auto baseline = tuning::measureOneDnnBaseline(request.workload, request.threads, why))
      post([this, gflops = baseline->gflops, what = QString::fromStdString(baseline->what)] { emit baselineMeasured(gflops, what); });
    else
      post([this, why = QString::fromStdString(why)] { emit baselineUnavailable(why); });

    tune::CpuTuneSettings settings;
    settings.seed = request.seed;
    settings.search = request.search.toStdString();
    settings.threads = request.threads;
    settings.build.jobs = std::max(request.threads, 1);
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
    post([this, reason = QString::fromStdString(result.stopReason), trials = result.trials, failedTrials = result.failed,
          seconds = result.seconds] { emit finished(reason, trials, failedTrials, seconds); });
  } catch (const std::exception& e) {
    post([this, message = QString::fromUtf8(e.what())] { emit failed(message); });
  }
}

} // namespace tessera::gui
