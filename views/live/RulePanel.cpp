#include "RulePanel.h"

#include "ClearButton.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {
// Sorts numbers as numbers and filters on name and labels.
class RuleProxy final : public QSortFilterProxyModel {
public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
    const QRegularExpression pattern = filterRegularExpression();
    if (pattern.pattern().isEmpty()) return true;
    for (int column : {RuleTableModel::Name, RuleTableModel::Labels})
      if (sourceModel()->index(row, column, parent).data().toString().contains(pattern)) return true;
    return false;
  }
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override {
    bool leftNumber = false;
    bool rightNumber = false;
    const double a = left.data().toDouble(&leftNumber);
    const double b = right.data().toDouble(&rightNumber);
    if (leftNumber && rightNumber) return a < b;
    if (leftNumber != rightNumber) return rightNumber; // "—" sorts before numbers
    return QSortFilterProxyModel::lessThan(left, right);
  }
};
} // namespace

RulePanel::RulePanel(std::vector<RuleInfo> rules, QWidget* parent) : QWidget(parent) {
  model_ = new RuleTableModel(std::move(rules), this);
  proxy_ = new RuleProxy(this);
  proxy_->setSourceModel(model_);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  table_ = new QTableView(this);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(RuleTableModel::Name, Qt::AscendingOrder);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  // Rule names are what people pin and veto by: they get their full width; labels take the rest.
  // Columns fit their contents when the rules change, not at every update of a live run: measuring
  // every row's text 20 times a second was most of the UI thread's work during a run.
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->horizontalHeader()->setSectionResizeMode(RuleTableModel::Labels, QHeaderView::Stretch);
  // Labels are not fitted: they take what the other columns leave.
  auto fitColumns = [this] {
    for (int column = 0; column < RuleTableModel::ColumnCount; ++column)
      if (column != RuleTableModel::Labels) table_->resizeColumnToContents(column);
  };
  fitColumns();
  connect(model_, &QAbstractItemModel::modelReset, this, fitColumns);
  connect(model_, &QAbstractItemModel::rowsInserted, this, fitColumns);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);

  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter rules by name or label"));
  addClearButtonOnFirstText(filter_);
  pause_ = new QPushButton(tr("Pause"), this);
  resume_ = new QPushButton(tr("Resume"), this);
  step_ = new QPushButton(tr("Step"), this);
  step_->setToolTip(tr("While paused: run exactly one more step"));
  stop_ = new QPushButton(tr("Stop"), this);
  status_ = new QLabel(tr("No run"), this);
  // Wrapped, on a line of its own under the buttons, so a long status ("finished (node_limit) ·
  // step 9 · 0 decisions") takes a second line instead of widening the dock, and the window with
  // it, in the middle of a run; beside the buttons it made the dock 440 px wide at least, and the
  // explorer wider than a 1,366 px screen.
  status_->setWordWrap(true);

  auto* controls = new QHBoxLayout;
  controls->addWidget(pause_);
  controls->addWidget(resume_);
  controls->addWidget(step_);
  controls->addWidget(stop_);
  controls->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(controls);
  layout->addWidget(status_);
  layout->addWidget(filter_);
  layout->addWidget(table_, 1);

  connect(filter_, &QLineEdit::textChanged, this, &RulePanel::setFilterText);
  connect(pause_, &QPushButton::clicked, this, &RulePanel::pauseRequested);
  connect(resume_, &QPushButton::clicked, this, &RulePanel::resumeRequested);
  connect(step_, &QPushButton::clicked, this, &RulePanel::stepRequested);
  connect(stop_, &QPushButton::clicked, this, &RulePanel::stopRequested);
  connect(model_, &RuleTableModel::pinRequested, this, &RulePanel::pinRequested);
  connect(model_, &RuleTableModel::unpinRequested, this, &RulePanel::unpinRequested);
  connect(model_, &RuleTableModel::vetoRequested, this, &RulePanel::vetoRequested);
  connect(model_, &RuleTableModel::unvetoRequested, this, &RulePanel::unvetoRequested);
}

QString RulePanel::statusText() const { return status_->text(); }

void RulePanel::setRules(std::vector<RuleInfo> rules) { model_->setRules(std::move(rules)); }

void RulePanel::setFilterText(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  proxy_->setFilterRegularExpression(QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption));
}

void RulePanel::requestPin(const QString& rule) {
  const int row = model_->rowOf(rule);
  if (row >= 0) model_->setData(model_->index(row, RuleTableModel::Pinned), Qt::Checked, Qt::CheckStateRole);
  else emit pinRequested(rule);
}

void RulePanel::requestVeto(const QString& rule) {
  const int row = model_->rowOf(rule);
  if (row >= 0) model_->setData(model_->index(row, RuleTableModel::Vetoed), Qt::Checked, Qt::CheckStateRole);
  else emit vetoRequested(rule);
}

void RulePanel::showState(const ReplayState& state) {
  model_->showState(state);
  const bool paused = state.runState == RunState::Paused;
  const bool running = state.runState && *state.runState != RunState::Finished && *state.runState != RunState::Stopped;
  pause_->setEnabled(running && !paused);
  resume_->setEnabled(paused);
  step_->setEnabled(paused);
  stop_->setEnabled(running);
  QString text = state.runState ? QString::fromUtf8(runStateName(*state.runState).data(),
                                                    static_cast<qsizetype>(runStateName(*state.runState).size()))
                                : tr("not started");
  if (!state.stopReason.empty()) text += QStringLiteral(" (%1)").arg(QString::fromStdString(state.stopReason));
  text += tr(" · step %1 · %2 decisions").arg(state.steps.size()).arg(state.decisions.size());
  if (!state.pinned.empty()) text += tr(" · %1 pinned").arg(state.pinned.size());
  if (!state.vetoed.empty()) text += tr(" · %1 vetoed").arg(state.vetoed.size());
  status_->setText(text);
}

} // namespace tessera::views
