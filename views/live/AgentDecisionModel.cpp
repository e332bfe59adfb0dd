#include "live/AgentDecisionModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

namespace tessera::views {

QString nodeList(const std::vector<uint32_t>& nodes) {
  constexpr size_t kShown = 6;
  QStringList ids;
  for (size_t i = 0; i < nodes.size() && i < kShown; ++i) ids << QString::number(nodes[i]);
  QString text = ids.join(QStringLiteral(", "));
  if (nodes.size() > kShown) text += QObject::tr(" … (%1 ops)").arg(nodes.size());
  return text;
}

AgentDecisionModel::AgentDecisionModel(QObject* parent) : QAbstractTableModel(parent) {}

void AgentDecisionModel::setDecision(std::optional<AgentDecided> decision) {
  beginResetModel();
  decision_ = std::move(decision);
  endResetModel();
}

int AgentDecisionModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !decision_) return 0;
  return static_cast<int>(decision_->candidates.size());
}

int AgentDecisionModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AgentDecisionModel::data(const QModelIndex& index, int role) const {
  if (!decision_ || !index.isValid() || index.row() >= rowCount()) return {};
  const AgentCandidate& candidate = decision_->candidates[static_cast<size_t>(index.row())];
  const bool chosen = index.row() == decision_->chosen;
  const bool stop = candidate.rule == kAgentStopAction;
  if (role == ChosenRole) return chosen;
  if (role == ProbabilityRole) return candidate.probability;
  if (role == Qt::FontRole && chosen) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::BackgroundRole && chosen) return QBrush(QColor(255, 214, 102, 110)); // readable in both themes
  if (role == Qt::TextAlignmentRole && (index.column() == Probability || index.column() == CostDelta))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) {
    if (stop) return tr("Stop: end the run with the best graph found so far");
    QString tip = tr("%1: ops %2 of the graph at step %3").arg(QString::fromStdString(candidate.rule), nodeList(candidate.location)).arg(decision_->step);
    if (!candidate.originalOps.empty()) tip += tr("\nthe model's own ops among them: %1").arg(nodeList(candidate.originalOps));
    if (candidate.originalOps.size() < candidate.location.size())
      tip += tr("\n%n op(s) made by earlier rewrites", nullptr, static_cast<int>(candidate.location.size() - candidate.originalOps.size()));
    return tip;
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case Chosen: return chosen ? QStringLiteral("▶") : QString();
  case Rule: return stop ? tr("stop") : QString::fromStdString(candidate.rule);
  case Probability: return QStringLiteral("%1 %").arg(100.0 * candidate.probability, 0, 'f', 2);
  case CostDelta:
    if (stop) return QStringLiteral("—");
    return QStringLiteral("%1%2 ms").arg(candidate.costDeltaMs > 0 ? QStringLiteral("+") : QString()).arg(candidate.costDeltaMs, 0, 'f', 4);
  case Location: return stop ? QString() : nodeList(candidate.location);
  default: return {};
  }
}

QVariant AgentDecisionModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
    case Chosen: return tr("The rewrite the agent took");
    case Probability: return tr("The policy's probability of the rewrite");
    case CostDelta: return tr("Cost of the rewritten graph minus the current graph's (negative: faster)");
    case Location: return tr("Ids of the current graph's ops the rule matched");
    default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
  case Chosen: return QString();
  case Rule: return tr("Rewrite");
  case Probability: return tr("p");
  case CostDelta: return tr("Δ cost");
  case Location: return tr("Ops");
  default: return {};
  }
}

} // namespace tessera::views
