#include "RunPanel.h"

#include "BackgroundWork.h"
#include "CostModels.h"

#include "ClearButton.h"

#include "run/CostResolution.h"
#include "support/Error.h"

#include <QFileDialog>
#include <QFutureWatcher>
#include <QSettings>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <cstdlib>
#include <limits>
#include <sstream>

namespace tessera::gui {

QStringList parameterPairs(const std::map<std::string, std::string>& parameters) {
  QStringList pairs;
  for (const std::string& pair : runParameterPairs(parameters)) pairs << QString::fromStdString(pair);
  return pairs;
}

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
  strategy_ = new QComboBox(this);
  for (const StrategyInfo& s : strategies())
    strategy_->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(s.name), QString::fromStdString(s.description)),
                       QString::fromStdString(s.name));
  // Sized by a few words, not by the longest description (which widened the window past a 1600 px
  // screen); the open list still shows every entry in full.
  strategy_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  strategy_->setMinimumContentsLength(24);
  cost_ = new QComboBox(this);
  addCostChoices(analyticCostChoices());
  cost_->setToolTip(tr("Cost model: prices every op for the heat map, the properties and the search"));
  nodeLimit_ = new QSpinBox(this);
  nodeLimit_->setRange(0, 5'000'000);
  // 0: each strategy's own default (mcts 10,000 e-nodes, eqsat 50,000, taso 2x ops).
  nodeLimit_->setSpecialValueText(tr("strategy default"));
  nodeLimit_->setSingleStep(1000);
  nodeLimit_->setGroupSeparatorShown(true);
  nodeLimit_->setToolTip(tr("Stop when the e-graph has this many e-nodes (eqsat, mcts) or a graph this many ops (taso, greedy)"));
  iterationLimit_ = new QSpinBox(this);
  iterationLimit_->setRange(1, 1000);
  iterationLimit_->setToolTip(tr("Equality saturation iterations"));
  multiIterations_ = new QSpinBox(this);
  multiIterations_->setRange(0, 1000);
  multiIterations_->setToolTip(tr("Equality saturation: iterations that apply the multi-pattern rules (TENSAT's k_multi)"));
  parameters_ = new QLineEdit(this);
  parameters_->setPlaceholderText(tr("e.g. simulations=64 rebase=0"));
  parameters_->setToolTip(tr("The strategy's own parameters, NAME=VALUE separated by spaces, as tessera-cli's --param takes them "
                             "(mcts: simulations, rollout_depth, rebase, extract_main, extract_final; eqsat: tensat, "
                             "multi_schedule, match_limit; taso, greedy: budget, alpha; xrlflow: checkpoint=FILE.ckpt, max_steps)"));
  views::addClearButtonOnFirstText(parameters_);
  chooseAgent_ = new QToolButton(this);
  chooseAgent_->setText(tr("Agent…"));
  chooseAgent_->setToolTip(tr("xrlflow, rlflow: choose the agent's checkpoint (checkpoint=FILE.ckpt; default: the shipped agent)"));
  timeLimit_ = new QDoubleSpinBox(this);
  timeLimit_->setRange(0.5, 24 * 3600);
  timeLimit_->setDecimals(1);
  timeLimit_->setSuffix(tr(" s"));
  timeLimit_->setToolTip(tr("Time limit of the search (extraction and verification excluded)"));
  extract_ = new QComboBox(this);
  for (const RunChoice& method : extractionChoices()) {
    extract_->addItem(QString::fromStdString(method.name), QString::fromStdString(method.name));
    extract_->setItemData(extract_->count() - 1, QString::fromStdString(method.description), Qt::ToolTipRole);
  }
  seed_ = new QSpinBox(this);
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setToolTip(tr("Seed of the search (MCTS rollouts, tie-breaks) and of the random inputs that verify the result"));
  verify_ = new QCheckBox(tr("Verify against the original"), this);
  verify_->setToolTip(tr("Run both graphs on random inputs with the reference interpreter and compare"));
  pace_ = new QComboBox(this);
  // A whole MCTS run on BERT takes about a second: too fast to watch. The pace holds each step.
  const std::pair<int, QString> paces[] = {{0, tr("Full speed")},          {100, tr("10 steps a second")},
                                           {250, tr("4 steps a second")},  {500, tr("2 steps a second")},
                                           {1000, tr("1 step a second")}, {3000, tr("1 step every 3 seconds")}};
  for (const auto& [ms, label] : paces) pace_->addItem(label, ms);
  pace_->setToolTip(tr("Teaching pace: the least time between two steps of a live run (the wait counts against the time "
                       "limit) and between two steps of a replay (Play in the Timeline)"));

  start_ = new QPushButton(tr("Start"), this);
  start_->setToolTip(tr("Start the search (F5)"));
  pause_ = new QPushButton(tr("Pause"), this);
  pause_->setToolTip(tr("Pause the search at its next step, or resume it (F6)"));
  step_ = new QPushButton(tr("Step"), this);
  step_->setToolTip(tr("While paused: let exactly one more step run (F7)"));
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setToolTip(tr("Stop the search; the best graph so far is extracted (Shift+F5)"));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 100);
  progress_->setValue(0);
  progress_->setTextVisible(true);
  line_ = new QLabel(this);
  line_->setWordWrap(true);
  line_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  outcome_ = new QLabel(this);
  outcome_->setWordWrap(true);
  outcome_->setTextFormat(Qt::RichText);

  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Cost model"), cost_);
  form->addRow(tr("Node limit"), nodeLimit_);
  form->addRow(tr("Iteration limit"), iterationLimit_);
  form->addRow(tr("Multi-pattern iterations"), multiIterations_);
  form->addRow(tr("Time limit"), timeLimit_);
  form->addRow(tr("Extraction"), extract_);
  form->addRow(tr("Seed"), seed_);
  auto* parameterRow = new QHBoxLayout;
  parameterRow->setContentsMargins(0, 0, 0, 0);
  parameterRow->addWidget(parameters_, 1);
  parameterRow->addWidget(chooseAgent_);
  form->addRow(tr("Parameters"), parameterRow);
  form->addRow(QString(), verify_);
  form->addRow(tr("Pace"), pace_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(pause_);
  buttons->addWidget(step_);
  buttons->addWidget(stop_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  layout->addWidget(line_);
  layout->addWidget(outcome_);
  layout->addStretch(1);

  setSettings(defaultRunSettings());
  connect(start_, &QPushButton::clicked, this, &RunPanel::startRequested);
  connect(stop_, &QPushButton::clicked, this, &RunPanel::stopRequested);
  connect(pause_, &QPushButton::clicked, this, [this] {
    if (paused_) emit resumeRequested();
    else emit pauseRequested();
  });
  connect(step_, &QPushButton::clicked, this, &RunPanel::stepRequested);
  connect(strategy_, &QComboBox::currentIndexChanged, this, [this] { updateButtons(); });
  connect(chooseAgent_, &QToolButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose an X-RLflow agent"), QString(), tr("Agent checkpoints (*.ckpt);;All files (*)"));
    if (!path.isEmpty()) setParameter("checkpoint", path.toStdString());
  });
  connect(cost_, &QComboBox::currentIndexChanged, this, [this] { emit costModelChanged(cost_->currentData().toString()); });
  connect(cost_, &QComboBox::activated, this, [this] { wantedCost_.clear(); }); // the user's own choice replaces one still awaited
  connect(pace_, &QComboBox::currentIndexChanged, this, [this] { emit stepIntervalChanged(stepIntervalMs()); });
  updateButtons();
}

RunSettings RunPanel::settings() const {
  RunSettings s;
  s.strategy = strategy_->currentData().toString().toStdString();
  // A cost spec asked for before its backend is listed (the command line's, the saved one) is the
  // run's: core resolves it, loading the plugin itself, rather than a run quietly using another.
  s.costSpec = wantedCost_.isEmpty() ? costSpec() : wantedCost_.toStdString();
  s.search.nodeLimit = static_cast<size_t>(nodeLimit_->value());
  s.search.iterationLimit = iterationLimit_->value();
  s.search.multiIterations = multiIterations_->value();
  s.search.timeLimitSeconds = timeLimit_->value();
  s.search.extractMethod = extract_->currentData().toString().toStdString();
  s.search.seed = static_cast<uint64_t>(seed_->value());
  std::vector<std::string> pairs;
  std::istringstream words(parameters_->text().toStdString());
  for (std::string pair; words >> pair;) pairs.push_back(pair);
  s.search.parameters = parseRunParameters(pairs);
  s.verify = verify_->isChecked();
  return s;
}

namespace {

// What "auto" resolves to among the listed backends, as core's resolveCostSpec would.
std::string autoCostChoice(const std::vector<CostChoice>& choices) {
  for (const std::string& backend : autoCostBackends())
    for (const CostChoice& choice : choices)
      if (choice.spec == kMeasuredPrefix + backend && choice.unavailable.empty()) return choice.spec;
  return kPredictionCostSpec;
}

} // namespace

void RunPanel::addCostChoices(const std::vector<CostChoice>& choices) {
  for (const CostChoice& choice : choices) {
    QString spec = QString::fromStdString(choice.spec);
    cost_->addItem(spec, spec);
    const int row = cost_->count() - 1;
    if (choice.unavailable.empty()) {
      cost_->setItemData(row, QString::fromStdString(choice.description), Qt::ToolTipRole);
      continue;
    }
    // Listed, so the user sees the backend exists and why it cannot be chosen.
    cost_->setItemData(row, tr("Unavailable: %1").arg(QString::fromStdString(choice.unavailable)), Qt::ToolTipRole);
    if (auto* items = qobject_cast<QStandardItemModel*>(cost_->model())) items->item(row)->setEnabled(false);
  }
  // "auto" (core's default) is the machine's own measured backend: the first usable one listed.
  if (wantedCost_ == QLatin1String(kAutoCostSpec)) wantedCost_ = QString::fromStdString(autoCostChoice(choices));
  // A saved measured choice is selected once its backend is listed.
  if (const int wanted = cost_->findData(wantedCost_); !wantedCost_.isEmpty() && wanted >= 0) {
    cost_->setCurrentIndex(wanted);
    wantedCost_.clear();
  }
}

void RunPanel::setSettings(const RunSettings& s) {
  selectStrategy(s.strategy);
  int cost = cost_->findData(QString::fromStdString(s.costSpec));
  // A spec listed now replaces one still awaited (the default "auto", a saved backend).
  if (cost >= 0) {
    cost_->setCurrentIndex(cost);
    wantedCost_.clear();
  } else {
    wantedCost_ = QString::fromStdString(s.costSpec); // a backend not discovered yet
  }
  nodeLimit_->setValue(static_cast<int>(std::min<size_t>(s.search.nodeLimit, 5'000'000)));
  iterationLimit_->setValue(s.search.iterationLimit);
  multiIterations_->setValue(s.search.multiIterations);
  parameters_->setText(parameterPairs(s.search.parameters).join(QLatin1Char(' ')));
  timeLimit_->setValue(s.search.timeLimitSeconds);
  int extract = extract_->findData(QString::fromStdString(s.search.extractMethod));
  if (extract >= 0) extract_->setCurrentIndex(extract);
  seed_->setValue(static_cast<int>(std::min<uint64_t>(s.search.seed, std::numeric_limits<int>::max())));
  verify_->setChecked(s.verify);
}

int RunPanel::stepIntervalMs() const { return pace_->currentData().toInt(); }

void RunPanel::setStepIntervalMs(int milliseconds) {
  int nearest = 0;
  for (int i = 1; i < pace_->count(); ++i)
    if (std::abs(pace_->itemData(i).toInt() - milliseconds) < std::abs(pace_->itemData(nearest).toInt() - milliseconds)) nearest = i;
  pace_->setCurrentIndex(nearest);
}

void RunPanel::setParameter(const std::string& name, const std::string& value) {
  std::map<std::string, std::string> parameters;
  try {
    parameters = settings().search.parameters;
  } catch (const Error&) {
    // a malformed field: the new parameter replaces it
  }
  parameters[name] = value;
  parameters_->setText(parameterPairs(parameters).join(QLatin1Char(' ')));
}

std::string RunPanel::costSpec() const { return cost_->currentData().toString().toStdString(); }

bool RunPanel::selectStrategy(const std::string& name) {
  int index = strategy_->findData(QString::fromStdString(name));
  if (index < 0) return false;
  strategy_->setCurrentIndex(index);
  return true;
}

void RunPanel::setModelLoaded(bool loaded) {
  modelLoaded_ = loaded;
  updateButtons();
}

void RunPanel::setRunning(bool running) {
  running_ = running;
  if (running) {
    progress_->setValue(0);
    outcome_->clear();
  }
  updateButtons();
}

void RunPanel::setPaused(bool paused) {
  paused_ = paused;
  pause_->setText(paused ? tr("Resume") : tr("Pause"));
  updateButtons();
}

void RunPanel::setProgress(int percent, const QString& line) {
  if (percent >= 0) progress_->setValue(percent);
  line_->setText(line);
}

void RunPanel::setOutcome(const QString& text) { outcome_->setText(text); }

QString RunPanel::outcome() const { return outcome_->text(); }

void RunPanel::discoverMeasuredBackends() {
  if (discoveryStarted_) return;
  discoveryStarted_ = true;
  auto* discovery = new QFutureWatcher<std::vector<CostChoice>>(this);
  connect(discovery, &QFutureWatcherBase::finished, this, [this, discovery] {
    discovery->deleteLater();
    addCostChoices(discovery->result());
    emit costChoicesLoaded();
  });
  discovery->setFuture(views::runInBackground(measuredCostChoices));
}

void RunPanel::updateButtons() {
  start_->setEnabled(modelLoaded_ && !running_);
  stop_->setEnabled(running_);
  pause_->setEnabled(running_);
  step_->setEnabled(running_ && paused_);
  for (QWidget* w : std::initializer_list<QWidget*>{strategy_, nodeLimit_, iterationLimit_, multiIterations_, timeLimit_, extract_, seed_, parameters_, verify_})
    w->setEnabled(!running_);
  const QString strategy = strategy_->currentData().toString();
  chooseAgent_->setVisible(strategy == QLatin1String("xrlflow") || strategy == QLatin1String("rlflow"));
  chooseAgent_->setEnabled(!running_);
}

void RunPanel::restoreSettings(const QSettings& file) {
  RunSettings run = defaultRunSettings();
  run.costSpec = file.value(QStringLiteral("run/cost"), QString::fromStdString(run.costSpec)).toString().toStdString();
  run.search.nodeLimit = file.value(QStringLiteral("run/nodeLimit"), static_cast<qulonglong>(run.search.nodeLimit)).toULongLong();
  run.search.iterationLimit = file.value(QStringLiteral("run/iterationLimit"), run.search.iterationLimit).toInt();
  run.search.timeLimitSeconds = file.value(QStringLiteral("run/timeLimit"), run.search.timeLimitSeconds).toDouble();
  run.search.extractMethod = file.value(QStringLiteral("run/extract"), QString::fromStdString(run.search.extractMethod)).toString().toStdString();
  run.search.multiIterations = file.value(QStringLiteral("run/kMulti"), run.search.multiIterations).toInt();
  const QStringList pairs = file.value(QStringLiteral("run/parameters")).toStringList();
  try {
    std::vector<std::string> parameters;
    for (const QString& pair : pairs) parameters.push_back(pair.toStdString());
    run.search.parameters = parseRunParameters(parameters);
  } catch (const Error&) {
    // a hand-edited settings file: start without them
  }
  setSettings(run);
  setStepIntervalMs(file.value(QStringLiteral("run/paceMs"), 0).toInt());
}

void RunPanel::saveSettings(QSettings& file) const {
  RunSettings run;
  try {
    run = settings();
  } catch (const Error&) {
    return; // the parameters field is malformed: keep the settings saved before
  }
  file.setValue(QStringLiteral("run/cost"), QString::fromStdString(run.costSpec));
  file.setValue(QStringLiteral("run/nodeLimit"), static_cast<qulonglong>(run.search.nodeLimit));
  file.setValue(QStringLiteral("run/iterationLimit"), run.search.iterationLimit);
  file.setValue(QStringLiteral("run/timeLimit"), run.search.timeLimitSeconds);
  file.setValue(QStringLiteral("run/extract"), QString::fromStdString(run.search.extractMethod));
  file.setValue(QStringLiteral("run/kMulti"), run.search.multiIterations);
  file.setValue(QStringLiteral("run/parameters"), parameterPairs(run.search.parameters));
  file.setValue(QStringLiteral("run/paceMs"), stepIntervalMs());
}

} // namespace tessera::gui
