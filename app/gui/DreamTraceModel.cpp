#include "DreamTraceModel.h"

#include <QBrush>
#include <QColor>

namespace tessera::gui {

namespace {

QString yesNo(bool value) { return value ? QObject::tr("yes") : QObject::tr("no"); }

QString actionsText(int actions, int rules) { return QObject::tr("%1 (%2 rules)").arg(actions).arg(rules); }

} // namespace

DreamTraceModel::DreamTraceModel(QObject* parent) : QAbstractTableModel(parent) {}

void DreamTraceModel::setTrace(DreamTrace trace) {
  beginResetModel();
  trace_ = std::move(trace);
  endResetModel();
}

void DreamTraceModel::appendStep(const DreamTraceStep& step) {
  const int row = rowCount();
  beginInsertRows({}, row, row);
  trace_.steps.push_back(step);
  endInsertRows();
}

int DreamTraceModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(trace_.steps.size()); }

int DreamTraceModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : Columns; }

QVariant DreamTraceModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const DreamTraceStep& s = trace_.steps[static_cast<size_t>(index.row())];
  if (role == Qt::BackgroundRole && !s.actionInDream) return QBrush(QColor(230, 159, 0, 60));
  if (role == Qt::TextAlignmentRole && index.column() != Action) return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == InDream && !s.actionInDream)
    return tr("The dream's predicted mask did not offer this action: from here on the dream imagines a state the real one is not");
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case Step: return s.step + 1;
  case Action: return tr("%1 @ %2").arg(QString::fromStdString(s.rule)).arg(s.action.location);
  case RealReward: return QString::number(s.realReward, 'f', 3);
  case DreamtReward: return QString::number(s.dreamtReward, 'f', 3);
  case OneStepReward: return QString::number(s.oneStepReward, 'f', 3);
  case RealActions: return actionsText(s.realActions, s.realRules);
  case DreamtActions: return actionsText(s.dreamtActions, s.dreamtRules);
  case MaskAgreement: return QStringLiteral("%1 %").arg(100.0 * s.maskAgreement, 0, 'f', 1);
  case InDream: return yesNo(s.actionInDream);
  case Done: return tr("%1 / %2").arg(yesNo(s.realDone), yesNo(s.dreamtDone));
  default: return {};
  }
}

QVariant DreamTraceModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return QAbstractTableModel::headerData(section, orientation, role);
  if (role == Qt::ToolTipRole) {
    switch (section) {
    case DreamtReward: return tr("The world model's reward, dreaming open loop from the first state (each step from its own last prediction)");
    case OneStepReward: return tr("The world model's reward from the real state's z and the real history: its error in one step");
    case RealActions: return tr("Valid (rule, location) actions in the real state, and the rules with a rewrite");
    case DreamtActions: return tr("Valid actions in the dream's predicted mask of its imagined state");
    case MaskAgreement: return tr("Rules whose 'has a rewrite' the dream predicted right");
    case InDream: return tr("Whether the dream's mask offered the action taken");
    default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
  case Step: return tr("Step");
  case Action: return tr("Action (rule @ location)");
  case RealReward: return tr("Real reward");
  case DreamtReward: return tr("Dreamt reward");
  case OneStepReward: return tr("One-step reward");
  case RealActions: return tr("Real valid actions");
  case DreamtActions: return tr("Dreamt valid actions");
  case MaskAgreement: return tr("Mask agreement");
  case InDream: return tr("In the dream?");
  case Done: return tr("Done real / dreamt");
  default: return {};
  }
}

} // namespace tessera::gui
