#include "DreamPage.h"

#include "BackgroundWork.h"
#include "cost/CostModel.h"
#include "live/SeriesChart.h"

#if TESSERA_HAVE_TORCH
#include "CostModels.h"
#include "DreamTraceModel.h"
#include "rl/RewriteEnvironment.h"
#include "rlflow/RlflowDreamTrace.h"
#include "rlflow/RlflowStrategy.h"
#include "run/RulePack.h"
#include "xrlflow/XrlflowStrategy.h"
#include "xrlflow/XrlflowTraining.h"
#endif

#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera::gui {

namespace {

constexpr int kDefaultSteps = 30;

#if TESSERA_HAVE_TORCH

struct DreamOutcome {
  DreamTrace trace;
  std::string cost;
  QString error;
};

// On a worker: the agent, its rule pack and the cost model it was trained with (so rewards are
// in the units the world model learnt), then the trace.
// `policy`: who plays the real rollout (dreamTracePolicy's names).
DreamOutcome traceFrom(std::shared_ptr<const Graph> start, std::string checkpoint, std::string policy, int maxSteps,
                       std::function<void(const DreamTraceStep&)> onStep) {
  DreamOutcome outcome;
  try {
    const ActiveRules rules = loadActiveRules(RuleChoice{});
    RlflowAgent agent = RlflowAgent::load(checkpoint, rules.list, 1);
    const std::string spec = agent.loadedFrom().cost.empty() ? std::string(kPredictionCostSpec) : agent.loadedFrom().cost;
    const std::shared_ptr<CostModel> cost = sharedCostModel(spec);
    RewriteEnvironment environment(rules.list, *cost, argmaxOptionsFor(agent.config()));
    DreamTraceOptions options;
    options.maxSteps = maxSteps;
    options.onStep = std::move(onStep);
    options.choose = dreamTracePolicy(policy, rules.list);
    outcome.trace = traceDream(agent, environment, *start, options);
    outcome.cost = cost->spec();
  } catch (const std::exception& e) {
    outcome.error = QString::fromUtf8(e.what());
  }
  return outcome;
}

QString summaryOf(const DreamTrace& trace, const QString& title, const QString& player, const std::string& cost) {
  const double saved = trace.initialCostMs > 0 ? 100.0 * (trace.initialCostMs - trace.finalCostMs) / trace.initialCostMs : 0.0;
  QString departure = trace.firstDeparture < 0
                          ? QObject::tr("the dream's mask offered every action taken")
                          : QObject::tr("the dream's mask first left out the action taken at step %1 (tinted rows)").arg(trace.firstDeparture + 1);
  return QObject::tr("From %1, played by %2: %3 steps (%4), %5 real environment steps, %6 % saved (%7). Return: real %8, dreamt %9, "
                     "one-step %10; %11.")
      .arg(title)
      .arg(player)
      .arg(trace.steps.size())
      .arg(QString::fromStdString(trace.stopReason))
      .arg(trace.realSteps)
      .arg(saved, 0, 'f', 2)
      .arg(QString::fromStdString(cost))
      .arg(trace.realReturn, 0, 'f', 2)
      .arg(trace.dreamtReturn, 0, 'f', 2)
      .arg(trace.oneStepReturn, 0, 'f', 2)
      .arg(departure);
}

#endif

} // namespace

DreamPage::DreamPage(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
}

void DreamPage::build() {
  if (status_) return;
  auto* chooseAgent = new QToolButton(this);
  chooseAgent->setText(tr("Agent…"));
  chooseAgent->setToolTip(tr("Choose an RLFlow checkpoint (default: the shipped agent)"));
  agent_ = new QLabel(this);
  steps_ = new QSpinBox(this);
  steps_->setRange(1, 250);
  steps_->setValue(kDefaultSteps);
  steps_->setPrefix(tr("at most "));
  steps_->setSuffix(tr(" steps"));
  policy_ = new QComboBox(this);
  policy_->setObjectName("dreamPolicy");
  policy_->addItem(tr("played by the agent"), QStringLiteral("rlflow"));
  policy_->addItem(tr("played by greedy"), QStringLiteral("greedy"));
#if TESSERA_HAVE_TORCH
  policy_->addItem(tr("played by X-RLflow (shipped)"), QString::fromStdString(defaultXrlflowCheckpoint()));
#endif
  policy_->setToolTip(tr("Who plays the real rollout; the world model dreams the same actions. Another player's path shows what "
                         "the world model imagines of rewrites the agent never takes"));
  dream_ = new QPushButton(tr("Dream from the graph shown"), this);
  dream_->setToolTip(tr("Play the agent argmax in the real environment from the Graph view's graph, and dream the same actions"));
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rewards_ = new views::SeriesChart(this);
  rewards_->setTitles(tr("Reward per step"), tr("step"), tr("reward"));
  actions_ = new views::SeriesChart(this);
  actions_->setTitles(tr("Valid actions per step"), tr("step"), tr("actions"));
  table_ = new QTableView(this);
  table_->verticalHeader()->hide();
  table_->setAlternatingRowColors(false);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
#if TESSERA_HAVE_TORCH
  model_ = new DreamTraceModel(this);
  table_->setModel(model_);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
#endif

  auto* bar = new QHBoxLayout;
  bar->addWidget(chooseAgent);
  bar->addWidget(agent_, 1);
  bar->addWidget(policy_);
  bar->addWidget(steps_);
  bar->addWidget(dream_);
  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->addWidget(rewards_);
  charts->addWidget(actions_);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(charts);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({600, 400}); // the charts above the table, in these shares, until a person drags the handle
  auto* page = static_cast<QVBoxLayout*>(layout());
  page->addLayout(bar);
  page->addWidget(status_);
  page->addWidget(split, 1);
  connect(chooseAgent, &QToolButton::clicked, this, &DreamPage::chooseCheckpoint);
  connect(dream_, &QPushButton::clicked, this, &DreamPage::trace);
  setCheckpoint(checkpoint_);
}

void DreamPage::graphShown() {
  if (!isVisible() || busy_ || !source_) return;
  const views::GraphSnapshot shown = source_();
  if (shown.graph && shown.graph != lastTraced_) trace();
}

void DreamPage::setCheckpoint(const QString& path) {
  checkpoint_ = path;
  if (!agent_) return;
#if TESSERA_HAVE_TORCH
  const QString shown = path.isEmpty() ? QString::fromStdString(defaultRlflowCheckpoint()) : path;
  agent_->setText(tr("Agent: %1%2").arg(QFileInfo(shown).fileName(), path.isEmpty() ? tr(" (shipped)") : QString()));
  agent_->setToolTip(shown);
#endif
}

void DreamPage::chooseCheckpoint() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Choose an RLFlow agent"), QString(), tr("Agent checkpoints (*.ckpt);;All files (*)"));
  if (!path.isEmpty()) setCheckpoint(path);
}

int DreamPage::stepsShown() const {
#if TESSERA_HAVE_TORCH
  return model_ ? model_->rowCount() : 0;
#else
  return 0;
#endif
}

QString DreamPage::statusText() const { return status_ ? status_->text() : QString(); }

void DreamPage::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  build();
  graphShown();
}

bool DreamPage::trace() {
  build();
  if (busy_) return false;
#if TESSERA_HAVE_TORCH
  const views::GraphSnapshot shown = source_ ? source_() : views::GraphSnapshot{};
  if (!shown.graph) {
    finish({}, tr("Open a model first: the dream starts from the graph the Graph view shows."));
    return false;
  }
  lastTraced_ = shown.graph;
  startTitle_ = shown.title.empty() ? tr("the graph shown") : QString::fromStdString(shown.title);
  player_ = policy_->currentIndex() == 0 ? tr("the agent") : policy_->currentText().remove(tr("played by "));
  busy_ = true;
  dream_->setEnabled(false);
  model_->setTrace({});
  showCharts();
  status_->setStyleSheet(QString());
  status_->setText(tr("Dreaming from %1: %2 plays the real environment (every rewrite of every state priced) …").arg(startTitle_, player_));
  const std::string checkpoint = checkpoint_.isEmpty() ? defaultRlflowCheckpoint() : checkpoint_.toStdString();
  // Rows arrive as the real steps are taken: a step on a large model takes seconds.
  QPointer<DreamPage> self(this);
  auto onStep = [self](const DreamTraceStep& step) {
    QMetaObject::invokeMethod(qApp, [self, step] {
      if (!self || !self->busy_) return;
      self->model_->appendStep(step);
      self->showCharts();
      self->status_->setText(tr("Dreaming from %1: step %2 …").arg(self->startTitle_).arg(step.step + 1));
    });
  };
  auto* watcher = new QFutureWatcher<DreamOutcome>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    watcher->deleteLater();
    DreamOutcome outcome = watcher->result();
    if (!outcome.error.isEmpty()) return finish({}, outcome.error);
    const QString summary = summaryOf(outcome.trace, startTitle_, player_, outcome.cost);
    model_->setTrace(std::move(outcome.trace));
    showCharts();
    finish(summary, {});
  });
  watcher->setFuture(views::runInBackground(traceFrom, shown.graph, checkpoint, policy_->currentData().toString().toStdString(),
                                            steps_->value(), std::move(onStep)));
  return true;
#else
  finish({}, tr("The dream view needs a build of Tessera with libtorch (Debian: libtorch-dev)."));
  return false;
#endif
}

void DreamPage::finish(const QString& summary, const QString& error) {
  busy_ = false;
  dream_->setEnabled(true);
  status_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #c0392b;"));
  status_->setText(error.isEmpty() ? summary : error);
  emit traced(error);
}

void DreamPage::showCharts() {
#if TESSERA_HAVE_TORCH
  views::ChartSeries real{tr("real"), {}, {}, true}, dreamt{tr("dreamt"), {}, {}, true}, oneStep{tr("one-step"), {}, {}, true};
  views::ChartSeries realActions{tr("real"), {}, {}, true}, dreamtActions{tr("dream's mask"), {}, {}, true};
  for (const DreamTraceStep& s : model_->trace().steps) {
    const double x = s.step + 1;
    real.points.append({x, s.realReward});
    dreamt.points.append({x, s.dreamtReward});
    oneStep.points.append({x, s.oneStepReward});
    realActions.points.append({x, static_cast<double>(s.realActions)});
    dreamtActions.points.append({x, static_cast<double>(s.dreamtActions)});
  }
  rewards_->setSeries({real, dreamt, oneStep});
  actions_->setSeries({realActions, dreamtActions});
#endif
}

} // namespace tessera::gui
