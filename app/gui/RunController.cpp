#include "RunController.h"

#include "CandidatesController.h"
#include "MeasuringPause.h"
#include "ReplayDocks.h"
#include "RunPanel.h"
#include "SearchOutcome.h"
#include "SearchRunner.h"
#include "SessionController.h"

#include "run/RunChoices.h"
#include "support/Error.h"

#include <QAction>
#include <QCoreApplication>
#include <QPointer>
#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>

#include <utility>

namespace tessera::gui {

RunController::RunController(SearchRunner* runner, SessionController* session, CandidatesController* candidates, RunPanel* runPanel,
                             ReplayDocks* replay, QStatusBar* statusBar, QString sessionDirectory, QObject* parent)
    : QObject(parent), runner_(runner), session_(session), candidates_(candidates), runPanel_(runPanel), replay_(replay),
      statusBar_(statusBar), sessionDirectory_(std::move(sessionDirectory)) {
  stepStatus_ = new QLabel(statusBar_);
  bestStatus_ = new QLabel(statusBar_);
  waitStatus_ = new QLabel(statusBar_);
  waitStatus_->setToolTip(tr("Timings taken beside the running search would be distorted: it uses the same cores"));
  waitStatus_->hide();
  statusBar_->addPermanentWidget(waitStatus_);
  statusBar_->addPermanentWidget(stepStatus_);
  statusBar_->addPermanentWidget(bestStatus_);
  waitWatch_ = watchMeasuringWaits([label = QPointer<QLabel>(waitStatus_)] {
    QMetaObject::invokeMethod(qApp, [label] {
      if (!label) return;
      QStringList waiting;
      for (const std::string& what : measuringWaits()) waiting << QString::fromStdString(what);
      label->setText(waiting.isEmpty() ? QString() : tr("waiting for the search to end: %1").arg(waiting.join(QStringLiteral("; "))));
      label->setVisible(!waiting.isEmpty());
    }, Qt::QueuedConnection);
  });
  buildActions();
  connectRunner();
  connect(session_, &SessionController::defaultSessionReady, this, &RunController::onDefaultSessionReady);

  connect(runPanel_, &RunPanel::startRequested, this, &RunController::startSelectedRun);
  connect(runPanel_, &RunPanel::stopRequested, runner_, &SearchRunner::requestStop);
  connect(runPanel_, &RunPanel::pauseRequested, runner_, &SearchRunner::pause);
  connect(runPanel_, &RunPanel::resumeRequested, runner_, &SearchRunner::resume);
  connect(runPanel_, &RunPanel::stepRequested, runner_, &SearchRunner::step);
  connect(runPanel_, &RunPanel::stepIntervalChanged, runner_, &SearchRunner::setStepInterval);
}

RunController::~RunController() { unwatchMeasuringWaits(waitWatch_); }

QString RunController::measuringWaitText() const { return waitStatus_->isHidden() ? QString() : waitStatus_->text(); }

void RunController::buildActions() {
  auto action = [this](const QString& text, const QString& iconText, const QKeySequence& key, auto slot) {
    auto* a = new QAction(text, this);
    a->setIconText(iconText); // the toolbar's short label; menus keep the full one
    a->setShortcut(key);
    a->setEnabled(false);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  startAction_ = action(tr("&Start"), tr("Run"), QKeySequence(Qt::Key_F5), [this] { startSelectedRun(); });
  pauseAction_ = action(tr("&Pause"), tr("Pause"), QKeySequence(Qt::Key_F6), [this] {
    if (runner_->isPaused()) runner_->resume();
    else runner_->pause();
  });
  stepAction_ = action(tr("Single St&ep"), tr("Step"), QKeySequence(Qt::Key_F7), [this] { runner_->step(); });
  stopAction_ = action(tr("S&top"), tr("Stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5), [this] { runner_->requestStop(); });
}

void RunController::connectRunner() {
  connect(runner_, &SearchRunner::runningChanged, this, [this](bool running) {
    runPanel_->setRunning(running);
    startAction_->setEnabled(!running && candidates_->original().graph);
    stopAction_->setEnabled(running);
    pauseAction_->setEnabled(running);
    stepAction_->setEnabled(running && runner_->isPaused());
    if (running) stepStatus_->setText(tr("running"));
  });
  connect(runner_, &SearchRunner::pausedChanged, this, [this](bool paused) {
    runPanel_->setPaused(paused);
    pauseAction_->setText(paused ? tr("&Resume") : tr("&Pause"));
    pauseAction_->setIconText(paused ? tr("Resume") : tr("Pause"));
    stepAction_->setEnabled(paused && runner_->isRunning());
    if (runner_->isRunning()) stepStatus_->setText(paused ? tr("paused") : tr("running"));
    emit logged(paused ? tr("search paused") : tr("search resumed"));
  });
  connect(runner_, &SearchRunner::stepCommitted, this, [this](int step, qulonglong enodes, int percent) {
    runPanel_->setProgress(percent, QString());
    stepStatus_->setText(tr("step %1 · %2 e-nodes%3").arg(step + 1).arg(enodes).arg(runner_->isPaused() ? tr(" · paused") : QString()));
  });
  connect(runner_, &SearchRunner::runRecorded, this, [this](qint64 modelId, qint64 runId) {
    session_->setModelId(modelId); // a model new to the session got its id with this run
    emit logged(tr("recording run %1 in %2").arg(runId).arg(session_->path()));
  });
  connect(runner_, &SearchRunner::progress, this, [this](const QString& line, int percent) {
    runPanel_->setProgress(percent, line);
    statusBar_->showMessage(line, 5000);
    emit logged(line);
  });
  // Against the run's own original: the views may still be priced with another cost model.
  connect(runner_, &SearchRunner::bestCostChanged, this, [this](double ms, double original) {
    const double speedup = original > 0 ? (original - ms) / original * 100 : 0;
    bestStatus_->setText(tr("best %1 ms (%2 %)").arg(ms, 0, 'f', 4).arg(speedup, 0, 'f', 2));
  });
  connect(runner_, &SearchRunner::finished, this, &RunController::onRunFinished);
  connect(runner_, &SearchRunner::failed, this, [this](const QString& message) {
    runPanel_->setOutcome(tr("<b>Run failed:</b> %1").arg(message.toHtmlEscaped()));
    stepStatus_->setText(tr("failed"));
    session_->refresh(); // the failed run is in the session too
    emit errorReported(tr("Search failed"), message);
    emit failed(message);
  });
}

void RunController::setModel(const QString& path) {
  runner_->requestStop(); // a run on the previous model has nothing left to show
  modelPath_ = path;
  outcome_.reset();
  stepStatus_->clear();
  bestStatus_->clear();
  runPanel_->setModelLoaded(true);
  runPanel_->setOutcome({});
  startAction_->setEnabled(!runner_->isRunning());
}

bool RunController::isBusy() const { return !pendingRun_.isEmpty() || runner_->isRunning(); }

void RunController::startSelectedRun() {
  try {
    startRun(QString::fromStdString(runPanel_->settings().strategy));
  } catch (const Error& e) {
    emit errorReported(tr("Run"), QString::fromUtf8(e.what()));
  }
}

bool RunController::startRun(const QString& strategy) {
  const std::shared_ptr<const Graph>& model = candidates_->original().graph;
  if (!model) {
    emit logged(tr("open a model before starting a search"));
    return false;
  }
  if (!isKnownStrategy(strategy.toStdString())) {
    emit errorReported(tr("Search"), tr("unknown strategy '%1' (use %2)").arg(strategy, QString::fromStdString(strategyListText())));
    return false;
  }
  if (isBusy()) {
    emit logged(tr("a search is already running"));
    return false;
  }
  if (!session_->path().isEmpty()) return launchRun(strategy);
  // The model's session is opened (or created, checked and migrated) on the session worker: that
  // file work stalled the window by a few hundred milliseconds on a busy disk. The run starts when
  // it is ready.
  pendingRun_ = strategy;
  pendingRunModel_ = model;
  session_->openDefault(SessionDocument::defaultPathFor(modelPath_, sessionDirectory_), modelPath_, model->opCount());
  return true;
}

void RunController::onDefaultSessionReady(const QString& error) {
  const QString strategy = std::exchange(pendingRun_, QString());
  const std::shared_ptr<const Graph> model = std::exchange(pendingRunModel_, nullptr);
  if (strategy.isEmpty() || model != candidates_->original().graph) return; // another model was opened meanwhile
  // Without a session the run still happens; only its record is lost, and the user is told why.
  if (!error.isEmpty()) emit errorReported(tr("Session"), tr("this run is not recorded: %1").arg(error));
  if (!session_->path().isEmpty()) {
    emit sessionReady();
    emit logged(tr("runs on this model are recorded in %1").arg(session_->path()));
  }
  launchRun(strategy);
}

bool RunController::launchRun(const QString& strategy) {
  RunSettings settings;
  try {
    settings = runPanel_->settings();
  } catch (const Error& e) {
    emit errorReported(tr("Run"), QString::fromUtf8(e.what()));
    return false;
  }
  settings.strategy = strategy.toStdString();
  runPanel_->selectStrategy(settings.strategy);
  const views::GraphSnapshot& model = candidates_->original();
  RunDestination recording;
  if (!session_->path().isEmpty()) {
    recording.sessionPath = session_->path().toStdString();
    // The model as the CLI records it (its file's stem and absolute path), so runs from both meet.
    recording.model = recordedModelOf(QFileInfo(modelPath_).absoluteFilePath().toStdString());
    recording.model.id = session_->modelId();
  }
  if (!runner_->start(model.graph, settings, recording)) {
    emit logged(tr("a search is already running"));
    return false;
  }
  replay_->followLiveRun(tr("%1 · live").arg(strategy));
  const QStringList parameters = parameterPairs(settings.search.parameters);
  emit logged(tr("search started: %1, cost %2, node limit %3, %4 iterations, %5 s, extraction %6, seed %7%8")
                  .arg(strategy, QString::fromStdString(settings.costSpec))
                  .arg(settings.search.nodeLimit)
                  .arg(settings.search.iterationLimit)
                  .arg(settings.search.timeLimitSeconds)
                  .arg(QString::fromStdString(settings.search.extractMethod))
                  .arg(settings.search.seed)
                  .arg(parameters.isEmpty() ? QString() : QStringLiteral(", ") + parameters.join(QStringLiteral(", "))));
  return true;
}

void RunController::onRunFinished(std::shared_ptr<const SearchOutcome> outcome) {
  if (!outcome->recordingError.empty())
    emit errorReported(tr("Session"),
                       tr("the run finished but was not fully recorded: %1").arg(QString::fromStdString(outcome->recordingError)));
  session_->refresh(); // its candidates join the Candidates dock
  const std::shared_ptr<const Graph>& model = candidates_->original().graph;
  if (!model || outcome->original != model) return; // a run on a model no longer open
  outcome_ = outcome;
  showOutcome(*outcome);
  emit finished();
}

namespace {

// Do no harm's verdict, first in the run's outcome: "kept the original" when the device found the
// candidate not faster, the measured speedup when it was, or why nothing was timed.
QString endToEndLine(const SearchOutcome& outcome) {
  QString line;
  if (!outcome.costFallbackNote.empty()) line += QStringLiteral("%1<br>").arg(QString::fromStdString(outcome.costFallbackNote).toHtmlEscaped());
  if (!outcome.deployCheck) return line;
  if (!outcome.deployCheck->skipped.empty())
    return line + QObject::tr("end to end not checked: %1<br>").arg(QString::fromStdString(outcome.deployCheck->skipped).toHtmlEscaped());
  if (!outcome.deployCheck->outcome) return line;
  const DoNoHarmOutcome& check = *outcome.deployCheck->outcome;
  if (!check.executorMismatch.empty())
    return line + QObject::tr("<b>kept the original</b>: %1<br>").arg(QString::fromStdString(check.executorMismatch).toHtmlEscaped());
  if (!check.comparison) return line;
  const QString measured = QString::fromStdString(check.comparison->describeSpeedup() + " on " + check.comparison->device).toHtmlEscaped();
  if (check.keptOriginal)
    return line + QObject::tr("<b>kept the original</b>: the candidate (predicted %1 %) is not faster end to end: %2<br>")
                      .arg(check.candidateSpeedupPct, 0, 'f', 2)
                      .arg(measured);
  return line + QObject::tr("end to end: %1<br>").arg(measured);
}

} // namespace

void RunController::showOutcome(const SearchOutcome& outcome) {
  const SearchResult& result = outcome.result;
  std::vector<NodeOrigin> origins;
  if (result.bestCandidate >= 0) origins = result.candidates[result.bestCandidate].origins;
  // A kept original applies no rule: the compare view's rules are those of what is returned.
  const bool keptOriginal = outcome.deployCheck && outcome.deployCheck->keptOriginal();
  candidates_->showBest(outcome.best, keptOriginal ? std::map<std::string, size_t>{} : result.rulesApplied,
                        std::move(origins)); // priced on the search's worker
  const QString verified = !result.verificationRun ? tr("not verified")
                           : result.verified       ? tr("verified")
                                                   : tr("<span style='color:#d32f2f'>verification FAILED</span>");
  // The cost model as every headline names it: an analytic one says which device it predicts for.
  const QString pricedWith = QString::fromStdString(costSpecHeadline(outcome.best.costSpec)).toHtmlEscaped();
  // An agent's figure on a model it trained on is in-sample, and the panel says so as bench does.
  const QString trainingSet = !result.inSample ? QString()
                              : *result.inSample ? tr("in-sample: the agent or guide trained on this model<br>")
                                                 : tr("held out: the agent or guide did not train on this model<br>");
  runPanel_->setOutcome(endToEndLine(outcome) + tr("cost model %1<br>").arg(pricedWith) + trainingSet +
                        tr("<b>%1 → %2 ms</b> (speedup %3 %)<br>%4 ops → %5 ops · %6 · %7 candidates · stopped: %8 · %9 s")
                            .arg(result.originalCostMs, 0, 'f', 4)
                            .arg(result.bestCostMs, 0, 'f', 4)
                            .arg(result.speedupPct, 0, 'f', 2)
                            .arg(outcome.original->opCount())
                            .arg(outcome.optimized->opCount())
                            .arg(verified)
                            .arg(result.candidates.size())
                            .arg(QString::fromStdString(result.stopReason))
                            .arg(outcome.seconds, 0, 'f', 1));
  runPanel_->setProgress(100, tr("done"));
  stepStatus_->setText(tr("%1 steps · %2").arg(result.steps).arg(QString::fromStdString(result.stopReason)));
  emit logged(tr("search finished: %1 → %2 ms (speedup %3 %), %4 e-nodes, %5 candidates, stopped: %6, %7 s")
                  .arg(result.originalCostMs, 0, 'f', 4)
                  .arg(result.bestCostMs, 0, 'f', 4)
                  .arg(result.speedupPct, 0, 'f', 2)
                  .arg(result.enodes)
                  .arg(result.candidates.size())
                  .arg(QString::fromStdString(result.stopReason))
                  .arg(outcome.seconds, 0, 'f', 2));
}

} // namespace tessera::gui
