#include "TuningPage.h"

#include "BackgroundWork.h"
#include "ExecutorThreads.h"

#include "TuningRunner.h"

#include "tuning/TuningChart.h"
#include "tuning/TuningRecordModel.h"

#include "support/Error.h"
#include "tune/Schedule.h"
#include "tune/Tuner.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::gui {

namespace {

QPlainTextEdit* codeView(QWidget* parent) {
  auto* view = new QPlainTextEdit(parent);
  view->setReadOnly(true);
  view->setLineWrapMode(QPlainTextEdit::NoWrap);
  view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  return view;
}

QLabel* heading(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  return label;
}

QString gflopsText(double gflops) { return QStringLiteral("%1 GFLOP/s").arg(gflops, 0, 'f', 2); }

} // namespace

TuningPage::TuningPage(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
}

void TuningPage::build() {
  if (isBuilt()) return;
  runner_ = new TuningRunner(this);

  // The run's settings, as `tessera-cli tune` takes them. The page shares the window with the
  // docks (about 760 px of a 1600 px window), so the settings take two rows and every long label wraps.
  workload_ = new QLineEdit(QStringLiteral("matmul:256x256x256"), this);
  workload_->setToolTip(tr("matmul:MxNxK, bmm:BxMxNxK or conv2d:NxCxHxW,OxCxKhxKw[,sS][,pP], each optionally followed by ,bias "
                           "and/or ,relu"));
  workload_->setPlaceholderText(tr("matmul:MxNxK or conv2d:NxCxHxW,OxCxKhxKw,sS,pP"));
  trials_ = new QSpinBox(this);
  trials_->setRange(1, 100000);
  trials_->setValue(64);
  search_ = new QComboBox(this);
  for (const std::string& name : tune::availableSearches()) search_->addItem(QString::fromStdString(name));
  search_->setToolTip(tr("evolutionary: MetaSchedule's search with the XGBoost cost model (when this build has XGBoost); "
                         "random: independent samples"));
  codegen_ = new QComboBox(this);
  if (tune::defaultCpuLanguage() == tune::KernelLanguage::LlvmIr) codegen_->addItem(tune::languageName(tune::KernelLanguage::LlvmIr));
  codegen_->addItem(tune::languageName(tune::KernelLanguage::C));
  codegen_->setToolTip(tr("llvm: kernels lowered to LLVM IR and compiled in this process (tens of ms each; in a build with LLVM); "
                          "c: kernels lowered to C for the system compiler"));
  flushCaches_ = new QCheckBox(tr("Flush caches"), this);
  flushCaches_->setToolTip(tr("Flush each kernel's inputs and output from the caches before every timed run, as a whole model "
                              "meets them (MetaSchedule's enable_cpu_cache_flush). Records go to the target \"…, caches "
                              "flushed\", which measured:cpu prefers, since it times ops that way too"));
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1'000'000);
  seed_->setValue(1);
  threads_ = new QSpinBox(this);
  threads_->setRange(1, std::max(1, QThread::idealThreadCount()));
  threads_->setValue(std::min(tuning::executorThreads(), threads_->maximum())); // where measured:cpu can use the kernels
  threads_->setToolTip(tr("Threads of the tuned kernels and of oneDNN's baseline"));
  start_ = new QPushButton(tr("Start"), this);
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setEnabled(false);
  auto* workloadRow = new QHBoxLayout;
  workloadRow->addWidget(new QLabel(tr("Workload"), this));
  workloadRow->addWidget(workload_, 1);
  workloadRow->addWidget(start_);
  workloadRow->addWidget(stop_);

  picker_ = new QComboBox(this);
  picker_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  picker_->setEnabled(false);
  picker_->setToolTip(tr("The workload whose stored records the chart and the table show"));
  auto* open = new QPushButton(tr("Open Database…"), this);
  auto* settingsRow = new QHBoxLayout;
  for (auto [text, field] : {std::pair<QString, QWidget*>{tr("Trials"), trials_}, {tr("Search"), search_}, {tr("Code"), codegen_}, {tr("Seed"), seed_},
                             {tr("Threads"), threads_}}) {
    settingsRow->addWidget(new QLabel(text, this));
    settingsRow->addWidget(field);
    settingsRow->addSpacing(6);
  }
  settingsRow->addWidget(flushCaches_);
  settingsRow->addStretch(1);

  error_ = new QLabel(this);
  error_->setStyleSheet(QStringLiteral("color: #d55e00; font-weight: bold"));
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->hide();
  database_ = new QLabel(tr("Tuning database: none (a run's records are kept in memory)"), this);
  database_->setWordWrap(true);
  database_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* databaseRow = new QHBoxLayout;
  databaseRow->addWidget(database_, 1);
  databaseRow->addWidget(new QLabel(tr("Records of"), this));
  databaseRow->addWidget(picker_);
  databaseRow->addWidget(open);
  progress_ = new QLabel(tr("Not tuned yet: choose a workload and Start."), this);
  progress_->setWordWrap(true);
  QFont progressFont = progress_->font();
  progressFont.setBold(true);
  progress_->setFont(progressFont);

  chart_ = new views::TuningChart(this);
  chart_->setMinimumSize(320, 240);
  records_ = new views::TuningRecordModel(this);
  table_ = new QTableView(this);
  table_->setModel(records_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->resizeColumnsToContents(); // the headers' widths
  table_->setColumnWidth(views::TuningRecordModel::Outcome, table_->fontMetrics().horizontalAdvance(QStringLiteral("failed build")) + 16);

  caption_ = heading(tr("Best candidate"), this);
  caption_->setWordWrap(true);
  trace_ = codeView(this);
  trace_->setPlaceholderText(tr("The trace of the best candidate: its instructions and the decisions they sampled"));
  loopNest_ = codeView(this);
  loopNest_->setPlaceholderText(tr("The loop nest the trace produces"));

  // Two rows: the chart and the table; then the trace and the loop nest of the candidate shown.
  auto* top = new QSplitter(Qt::Horizontal, this);
  top->addWidget(chart_);
  top->addWidget(table_);
  top->setStretchFactor(0, 5);
  top->setStretchFactor(1, 4);
  auto codePane = [this](const QString& title, QPlainTextEdit* view) {
    auto* pane = new QWidget(this);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(heading(title, pane));
    layout->addWidget(view, 1);
    return pane;
  };
  auto* code = new QSplitter(Qt::Horizontal, this);
  code->addWidget(codePane(tr("Trace: instructions and sampled decisions"), trace_));
  code->addWidget(codePane(tr("Loop nest"), loopNest_));
  code->setStretchFactor(0, 11);
  code->setStretchFactor(1, 9);
  auto* bottom = new QWidget(this);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 4, 0, 0);
  bottomLayout->addWidget(caption_);
  bottomLayout->addWidget(code, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(bottom);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);

  auto* page = static_cast<QVBoxLayout*>(layout());
  page->addLayout(workloadRow);
  page->addLayout(settingsRow);
  page->addWidget(error_);
  page->addLayout(databaseRow);
  page->addWidget(progress_);
  page->addWidget(split, 1);

  clock_ = new QTimer(this);
  clock_->setInterval(1000);
  connect(clock_, &QTimer::timeout, this, &TuningPage::updateProgress);
  connect(workload_, &QLineEdit::textChanged, this, [this] { validatedWorkload(); });
  connect(workload_, &QLineEdit::returnPressed, this, [this] { startTuning(); });
  connect(start_, &QPushButton::clicked, this, [this] { startTuning(); });
  connect(stop_, &QPushButton::clicked, this, &TuningPage::stopTuning);
  connect(open, &QPushButton::clicked, this, &TuningPage::chooseDatabase);
  connect(picker_, &QComboBox::currentTextChanged, this, [this](const QString& key) {
    if (!key.isEmpty()) showWorkload(key);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TuningPage::showCandidate);

  connect(runner_, &TuningRunner::runningChanged, this, &TuningPage::onRunningChanged);
  connect(runner_, &TuningRunner::status, this, [this](const QString& line) {
    runStatus_ = line;
    updateProgress();
  });
  connect(runner_, &TuningRunner::baselineMeasured, this, [this](double gflops, const QString& what) {
    baselineGflops_ = gflops;
    chart_->setBaseline(gflops);
    chart_->setToolTip(tr("oneDNN: %1").arg(what));
    updateProgress();
  });
  connect(runner_, &TuningRunner::baselineUnavailable, this, [this](const QString& why) {
    chart_->setToolTip(tr("No oneDNN baseline: %1").arg(why));
  });
  connect(runner_, &TuningRunner::trialMeasured, this, &TuningPage::onTrial);
  connect(runner_, &TuningRunner::finished, this, [this](const QString& reason, int trials, int failed, double seconds) {
    runSeconds_ = seconds;
    runStatus_ = reason == QLatin1String("stopped") ? tr("stopped after %1 trials (%2 failed)").arg(trials).arg(failed)
                 : reason == QLatin1String("space exhausted")
                     ? tr("finished: the design space ran out of new kernels after %1 trials (%2 failed)").arg(trials).arg(failed)
                     : tr("finished: %1 trials (%2 failed)").arg(trials).arg(failed);
    updateProgress();
  });
  connect(runner_, &TuningRunner::failed, this, [this](const QString& message) {
    runStatus_ = tr("failed");
    showError(tr("Tuning %1 failed: %2").arg(runWorkload_, message));
    emit runFailed(message);
  });
}

std::optional<tune::Workload> TuningPage::validatedWorkload() {
  try {
    tune::Workload workload = tune::parseWorkload(workload_->text().trimmed().toStdString());
    showError({});
    start_->setEnabled(!runner_->isRunning());
    return workload;
  } catch (const Error& e) {
    showError(QString::fromUtf8(e.what()));
    start_->setEnabled(false);
    return std::nullopt;
  }
}

void TuningPage::showError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

bool TuningPage::startTuning(const QString& workload, int trials) {
  build();
  workload_->setText(workload);
  trials_->setValue(std::max(trials, 1));
  return startTuning();
}

bool TuningPage::startTuning() {
  build();
  if (runner_->isRunning()) return false;
  std::optional<tune::Workload> workload = validatedWorkload();
  if (!workload) return false;
  TuningRequest request;
  request.workload = *workload;
  request.trials = trials_->value();
  request.search = search_->currentText();
  request.codegen = codegen_->currentText();
  request.flushCaches = flushCaches_->isChecked();
  request.seed = static_cast<quint64>(seed_->value());
  request.threads = threads_->value();
  request.databasePath = databasePath_;
  runWorkload_ = QString::fromStdString(workload->key());
  runTrials_ = request.trials;
  trialsDone_ = 0;
  bestGflops_ = 0;
  baselineGflops_.reset();
  runSeconds_ = 0;
  runStatus_ = tr("starting…");
  records_->clear();
  chart_->clear(request.trials);
  chart_->setToolTip({});
  showCandidate();
  elapsed_.start();
  return runner_->start(request);
}

void TuningPage::stopTuning() {
  if (!runner_ || !runner_->isRunning()) return;
  runner_->requestStop();
  runStatus_ = tr("stopping after the kernel being measured…");
  updateProgress();
}

bool TuningPage::isRunning() const { return runner_ && runner_->isRunning(); }

bool TuningPage::isBusy() const { return isRunning() || readsInFlight_ > 0; }

void TuningPage::onRunningChanged(bool running) {
  stop_->setEnabled(running);
  start_->setEnabled(!running);
  workload_->setReadOnly(running);
  picker_->setEnabled(!running && picker_->count() > 0);
  if (running) {
    clock_->start();
    updateProgress();
    return;
  }
  clock_->stop();
  if (runSeconds_ == 0) runSeconds_ = elapsed_.elapsed() / 1000.0;
  updateProgress();
  validatedWorkload();
  // The run's records went into the open database: list its workloads again, keeping this view.
  if (!databasePath_.isEmpty()) {
    ++readsInFlight_;
    auto* watcher = new QFutureWatcher<StoredRecords>(this);
    connect(watcher, &QFutureWatcher<StoredRecords>::finished, this, [this, watcher, path = databasePath_] {
      --readsInFlight_;
      listStoredRecords(watcher->result(), path, /*replaceView=*/false);
      watcher->deleteLater();
    });
    watcher->setFuture(views::runInBackground(&TuningPage::readDatabase, databasePath_));
  }
  emit runFinished();
}

void TuningPage::onTrial(const tune::TuningRecord& record, int trial, int trials, double bestGflops) {
  trialsDone_ = trial;
  runTrials_ = trials;
  bestGflops_ = bestGflops;
  runStatus_.clear();
  const int previousBest = records_->bestRow();
  records_->append(record);
  chart_->addTrial(record.status == tune::TrialStatus::Ok ? record.gflops : 0);
  if (records_->bestRow() != previousBest && !table_->selectionModel()->hasSelection()) showCandidate();
  updateProgress();
}

void TuningPage::updateProgress() {
  if (runWorkload_.isEmpty()) return;
  const double seconds = isRunning() ? elapsed_.elapsed() / 1000.0 : runSeconds_;
  QString line = tr("%1: trial %2 of %3").arg(runWorkload_).arg(trialsDone_).arg(runTrials_);
  line += bestGflops_ > 0 ? tr(" · best %1").arg(gflopsText(bestGflops_)) : tr(" · no verified candidate yet");
  if (baselineGflops_) line += tr(" (oneDNN %1, %2 %)").arg(gflopsText(*baselineGflops_)).arg(100 * bestGflops_ / *baselineGflops_, 0, 'f', 0);
  line += tr(" · %1 s").arg(seconds, 0, 'f', 0);
  if (!runStatus_.isEmpty()) line += QStringLiteral(" · ") + runStatus_;
  progress_->setText(line);
}

void TuningPage::chooseDatabase() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Tuning Database"), QString(),
                                                    tr("Tuning databases (*.db *.sqlite *.tdb);;All files (*)"));
  if (!path.isEmpty()) openDatabase(path);
}

TuningPage::StoredRecords TuningPage::readDatabase(const QString& path) {
  StoredRecords stored;
  if (!QFileInfo(path).isFile()) {
    stored.error = QObject::tr("%1: no such file").arg(path);
    return stored;
  }
  try {
    tune::TuningDatabase database(path.toStdString());
    stored.workloads = database.workloads();
    for (tune::TuningRecord& record : database.records()) stored.records[record.workload].push_back(std::move(record));
  } catch (const std::exception& e) {
    stored.error = QString::fromUtf8(e.what());
  }
  return stored;
}

void TuningPage::openDatabase(const QString& path) {
  build();
  // A run started before the read ends adds its records here too (and fails, naming the file, if it is no database).
  previousDatabasePath_ = databasePath_;
  databasePath_ = path;
  ++readsInFlight_;
  database_->setText(tr("Tuning database: reading %1…").arg(path));
  auto* watcher = new QFutureWatcher<StoredRecords>(this);
  connect(watcher, &QFutureWatcher<StoredRecords>::finished, this, [this, watcher, path] {
    --readsInFlight_;
    listStoredRecords(watcher->result(), path, /*replaceView=*/true);
    watcher->deleteLater();
  });
  watcher->setFuture(views::runInBackground(&TuningPage::readDatabase, path));
}

void TuningPage::listStoredRecords(StoredRecords stored, const QString& path, bool replaceView) {
  if (!stored.error.isEmpty()) {
    if (databasePath_ == path) databasePath_ = previousDatabasePath_;
    database_->setText(databasePath_.isEmpty() ? tr("Tuning database: none (a run's records are kept in memory)")
                                               : tr("Tuning database: %1").arg(databasePath_));
    const QString message = stored.error.contains(path) ? stored.error : tr("%1: %2").arg(path, stored.error);
    showError(tr("Cannot open the tuning database %1").arg(message));
    emit databaseFailed(message);
    return;
  }
  databasePath_ = path;
  replaceView = replaceView && !isRunning(); // a run's live view stays until it ends
  stored_ = std::move(stored.records);
  database_->setText(tr("Tuning database: %1 (%2 workloads; new runs add their records)").arg(path).arg(stored.workloads.size()));
  showError({});
  const QString shown = picker_->currentText();
  {
    const QSignalBlocker quiet(picker_);
    picker_->clear();
    for (const std::string& key : stored.workloads) picker_->addItem(QString::fromStdString(key));
    picker_->setCurrentIndex(-1);
    if (!replaceView) picker_->setCurrentText(runWorkload_.isEmpty() ? shown : runWorkload_);
  }
  picker_->setEnabled(!isRunning() && picker_->count() > 0);
  if (replaceView && picker_->count() > 0) {
    picker_->setCurrentIndex(0); // shows its records
  } else if (replaceView) {
    records_->clear();
    chart_->clear();
    progress_->setText(tr("%1 holds no records yet: a run adds them.").arg(QFileInfo(path).fileName()));
  }
  emit databaseOpened(path);
}

bool TuningPage::showWorkload(const QString& workload) {
  auto it = stored_.find(workload.toStdString());
  if (it == stored_.end() || isRunning()) return false;
  if (picker_->currentText() != workload) {
    const QSignalBlocker quiet(picker_);
    picker_->setCurrentText(workload);
  }
  const std::vector<tune::TuningRecord>& stored = it->second;
  runWorkload_.clear(); // the progress line now describes the stored records
  records_->setRecords(stored);
  chart_->clear(static_cast<int>(stored.size()));
  double best = 0;
  for (const tune::TuningRecord& record : stored) {
    chart_->addTrial(record.status == tune::TrialStatus::Ok ? record.gflops : 0);
    if (record.status == tune::TrialStatus::Ok) best = std::max(best, record.gflops);
  }
  chart_->setToolTip(tr("Stored records: oneDNN's baseline is measured when a run starts"));
  progress_->setText(tr("%1: %2 stored records in %3 (%4 failed) · best %5 · no oneDNN baseline (measured only when tuning)")
                         .arg(workload)
                         .arg(stored.size())
                         .arg(QFileInfo(databasePath_).fileName())
                         .arg(records_->failedCount())
                         .arg(best > 0 ? gflopsText(best) : tr("none verified")));
  showCandidate();
  return true;
}

void TuningPage::showCandidate() {
  const QModelIndexList selected = table_->selectionModel()->selectedRows();
  const bool chosen = !selected.isEmpty();
  const int row = chosen ? selected.front().row() : records_->bestRow();
  if (row < 0 || row >= records_->rowCount()) {
    caption_->setText(tr("Best candidate: none verified yet"));
    trace_->clear();
    loopNest_->clear();
    return;
  }
  const tune::TuningRecord& record = records_->recordAt(row);
  QString facts = record.status == tune::TrialStatus::Ok
                      ? tr("%1 · %2 ms").arg(gflopsText(record.gflops)).arg(record.latencyMs, 0, 'g', 4)
                      : views::trialOutcomeLabel(record.status);
  caption_->setText((chosen ? tr("Selected candidate: trial %1 · %2") : tr("Best candidate: trial %1 · %2")).arg(record.trial).arg(facts));
  trace_->clear();
  try {
    const tune::Trace trace = tune::traceFromJson(record.trace);
    trace_->setPlainText(QString::fromStdString(tune::traceToText(trace)));
    const tune::Schedule schedule = tune::replaySchedule(tune::computeOf(tune::parseWorkload(record.workload)), trace);
    loopNest_->setPlainText(QString::fromStdString(schedule.nest().toString()));
  } catch (const std::exception& e) {
    loopNest_->setPlainText(tr("This record's trace cannot be replayed: %1").arg(QString::fromUtf8(e.what())));
  }
}

QString TuningPage::errorText() const { return error_ ? error_->text() : QString(); }

QString TuningPage::progressText() const { return progress_ ? progress_->text() : QString(); }

int TuningPage::recordsShown() const { return records_ ? records_->rowCount() : 0; }

QString TuningPage::candidateCaption() const { return caption_ ? caption_->text() : QString(); }

} // namespace tessera::gui
