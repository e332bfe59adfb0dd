#include "live/AgentDecisionPanel.h"

#include "live/AgentDecisionModel.h"
#include "replay/ReplayState.h"

#include <algorithm>

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

// A bar as long as the probability behind the p column's text: how sure the agent was reads at a
// glance, and how far ahead the first candidate is.
class ProbabilityBar : public QStyledItemDelegate {
public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    const double p = index.data(AgentDecisionModel::ProbabilityRole).toDouble();
    QRectF bar = QRectF(option.rect).adjusted(2, 3, -2, -3);
    bar.setWidth(bar.width() * std::clamp(p, 0.0, 1.0));
    QColor colour = option.palette.color(QPalette::Highlight);
    colour.setAlpha(90);
    painter->fillRect(bar, colour);
    QStyledItemDelegate::paint(painter, option, index);
  }
};

} // namespace

AgentDecisionPanel::AgentDecisionPanel(QWidget* parent) : QWidget(parent) {
  model_ = new AgentDecisionModel(this);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setItemDelegateForColumn(AgentDecisionModel::Probability, new ProbabilityBar(table_));
  QHeaderView* header = table_->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(AgentDecisionModel::Rule, QHeaderView::Stretch);
  header->setStretchLastSection(false);
  where_ = new QLabel(this);
  where_->setWordWrap(true);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  layout->addWidget(where_);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) highlightRow(current.row(), true); // a person's pick, not a new decision's reset
          });
  showDecision(nullptr);
}

QString AgentDecisionPanel::summary() const { return summary_->text(); }

void AgentDecisionPanel::showState(const ReplayState& state) {
  if (state.agentDecisions.size() == shownCount_) return; // other events: the decision is the same
  shownCount_ = state.agentDecisions.size();
  showDecision(state.agentDecisions.empty() ? nullptr : &state.agentDecisions.back());
}

void AgentDecisionPanel::clear() {
  shownCount_ = SIZE_MAX;
  showDecision(nullptr);
}

void AgentDecisionPanel::showDecision(const AgentDecided* decision) {
  model_->setDecision(decision ? std::optional<AgentDecided>(*decision) : std::nullopt);
  if (!decision) {
    summary_->setText(tr("No agent decision yet. Run the <b>xrlflow</b> strategy (or replay one of its runs): "
                         "each step shows the rewrites the agent weighed, their probabilities and the one it took."));
    where_->clear();
    emit opsHighlighted({}, false);
    return;
  }
  const AgentCandidate& taken = decision->candidates[static_cast<size_t>(decision->chosen)];
  const QString rule = taken.rule == kAgentStopAction ? tr("stop") : QString::fromStdString(taken.rule);
  summary_->setText(tr("<b>Step %1</b> · value estimate <b>%2</b><br>took <b>%3</b> (p %4 %) · %5 of %6 actions shown")
                        .arg(decision->step)
                        .arg(decision->value, 0, 'f', 3)
                        .arg(rule.toHtmlEscaped())
                        .arg(100.0 * taken.probability, 0, 'f', 1)
                        .arg(decision->candidates.size())
                        .arg(decision->listed));
  highlightRow(decision->chosen, false);
}

void AgentDecisionPanel::highlightRow(int row, bool focus) {
  const std::optional<AgentDecided>& decision = model_->decision();
  if (!decision || row < 0 || static_cast<size_t>(row) >= decision->candidates.size()) return;
  const AgentCandidate& candidate = decision->candidates[static_cast<size_t>(row)];
  const QString rule = QString::fromStdString(candidate.rule);
  if (candidate.rule == kAgentStopAction) where_->setText(tr("Stop changes no op."));
  else if (candidate.originalOps.empty())
    where_->setText(tr("%1 rewrites ops that earlier rewrites made: they are not in the model's graph.").arg(rule));
  else if (candidate.originalOps.size() < candidate.location.size())
    where_->setText(tr("%1: marked in the Graph view, %2 of its %3 ops (the others were made by earlier rewrites).")
                        .arg(rule)
                        .arg(candidate.originalOps.size())
                        .arg(candidate.location.size()));
  else where_->setText(tr("%1: its ops are marked in the Graph view.").arg(rule));
  emit opsHighlighted(std::vector<NodeId>(candidate.originalOps.begin(), candidate.originalOps.end()), focus);
}

} // namespace tessera::views
