#include "RuleTableModel.h"

#include "SynthesisedRuleOrigin.h"

#include <QColor>

namespace tessera::views {

std::vector<RuleInfo> ruleInfos(const RuleSet& rules) {
  std::vector<RuleInfo> out;
  out.reserve(rules.size());
  for (const auto& rule : rules.rules()) {
    RuleInfo info{QString::fromStdString(rule->name()), {}, {}};
    if (rule->hasLabel("synth")) info.origin = synthesisedRuleOrigin(info.name);
    for (const std::string& label : rule->labels()) info.labels << QString::fromStdString(label);
    out.push_back(std::move(info));
  }
  return out;
}

RuleTableModel::RuleTableModel(std::vector<RuleInfo> rules, QObject* parent) : QAbstractTableModel(parent) {
  setRules(std::move(rules));
}

void RuleTableModel::setRules(std::vector<RuleInfo> rules) {
  beginResetModel();
  rules_ = std::move(rules);
  rowByName_.clear();
  for (size_t i = 0; i < rules_.size(); ++i) rowByName_.emplace(rules_[i].name, static_cast<int>(i));
  stats_.assign(rules_.size(), RuleStatistics{});
  endResetModel();
}

int RuleTableModel::rowOf(const QString& rule) const {
  auto it = rowByName_.find(rule);
  return it == rowByName_.end() ? -1 : it->second;
}

bool RuleTableModel::isPending(const QString& rule) const { return pendingPin_.count(rule) || pendingVeto_.count(rule); }

void RuleTableModel::showState(const ReplayState& state) {
  // Rules the log mentions that the pack does not list (another pack, a stored run) get rows.
  std::vector<QString> extra;
  for (const auto& [name, stats] : state.rules) {
    const QString rule = QString::fromStdString(name);
    if (!rowByName_.count(rule)) extra.push_back(rule);
  }
  if (!extra.empty()) {
    beginInsertRows({}, static_cast<int>(rules_.size()), static_cast<int>(rules_.size() + extra.size()) - 1);
    for (const QString& rule : extra) {
      rowByName_.emplace(rule, static_cast<int>(rules_.size()));
      rules_.push_back(RuleInfo{rule, {QStringLiteral("(not in pack)")}});
      stats_.emplace_back();
    }
    endInsertRows();
  }
  std::vector<RuleStatistics> fresh(stats_.size());
  for (const auto& [name, stats] : state.rules) fresh[static_cast<size_t>(rowOf(QString::fromStdString(name)))] = stats;
  std::set<QString> pinned;
  std::set<QString> vetoed;
  for (const std::string& rule : state.pinned) pinned.insert(QString::fromStdString(rule));
  for (const std::string& rule : state.vetoed) vetoed.insert(QString::fromStdString(rule));
  std::vector<bool> wasPending(rules_.size());
  for (size_t row = 0; row < rules_.size(); ++row) wasPending[row] = isPending(rules_[row].name);
  // A request is settled once a decision about that rule is on record after it was made.
  for (auto it = pendingPin_.begin(); it != pendingPin_.end();)
    it = (pinned.count(*it) != pinned_.count(*it)) ? pendingPin_.erase(it) : std::next(it);
  for (auto it = pendingVeto_.begin(); it != pendingVeto_.end();)
    it = (vetoed.count(*it) != vetoed_.count(*it)) ? pendingVeto_.erase(it) : std::next(it);
  // Only the rows that changed are announced: a view measures again what it is told changed, and
  // a live run updates this 20 times a second while touching a few rules each time.
  int first = -1;
  int last = -1;
  for (size_t row = 0; row < rules_.size(); ++row) {
    const QString& rule = rules_[row].name;
    const bool changed = !(fresh[row] == stats_[row]) || pinned.count(rule) != pinned_.count(rule) ||
                         vetoed.count(rule) != vetoed_.count(rule) || wasPending[row] != isPending(rule);
    if (!changed) continue;
    if (first < 0) first = static_cast<int>(row);
    last = static_cast<int>(row);
  }
  stats_ = std::move(fresh);
  pinned_ = std::move(pinned);
  vetoed_ = std::move(vetoed);
  if (first >= 0) emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

int RuleTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rules_.size()); }
int RuleTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RuleTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RuleInfo& rule = rules_[static_cast<size_t>(index.row())];
  const RuleStatistics& stats = stats_[static_cast<size_t>(index.row())];
  const auto column = static_cast<Column>(index.column());
  if (role == Qt::CheckStateRole) {
    if (column == Pinned) return pendingPin_.count(rule.name) ? Qt::PartiallyChecked : pinned_.count(rule.name) ? Qt::Checked : Qt::Unchecked;
    if (column == Vetoed) return pendingVeto_.count(rule.name) ? Qt::PartiallyChecked : vetoed_.count(rule.name) ? Qt::Checked : Qt::Unchecked;
    return {};
  }
  if (role == Qt::ToolTipRole && (column == Pinned || column == Vetoed) && isPending(rule.name))
    return tr("Requested; takes effect at the next step");
  if (role == Qt::ToolTipRole && column == CostEffect)
    return tr("Best-cost change at the steps that committed this rule (negative is faster)");
  if (role == Qt::ToolTipRole && (column == Name || column == Labels) && !rule.origin.isEmpty())
    return tr("Synthesised by `rules synthesize` from %1").arg(rule.origin);
  if (role == Qt::ForegroundRole && vetoed_.count(rule.name)) return QColor(Qt::gray);
  if (role == Qt::TextAlignmentRole && column >= Applications && column <= CostEffect)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
  switch (column) {
  case Name: return rule.name;
  case Labels: return rule.labels.join(QStringLiteral(", "));
  case Applications: return stats.applications;
  case NewNodes: return static_cast<qulonglong>(stats.newNodes);
  case Commits: return stats.commits;
  case CostEffect: return stats.costEffectMs == 0 ? QVariant(QStringLiteral("—")) : QVariant(QString::number(stats.costEffectMs, 'f', 4));
  default: return {};
  }
}

QVariant RuleTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Name: return tr("Rule");
  case Labels: return tr("Labels");
  case Applications: return tr("Applied");
  case NewNodes: return tr("New e-nodes");
  case Commits: return tr("Commits");
  case CostEffect: return tr("Cost effect (ms)");
  case Pinned: return tr("Pin");
  case Vetoed: return tr("Veto");
  default: return {};
  }
}

Qt::ItemFlags RuleTableModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == Pinned || index.column() == Vetoed) flags |= Qt::ItemIsUserCheckable;
  return flags;
}

bool RuleTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || role != Qt::CheckStateRole || index.row() >= rowCount()) return false;
  const QString rule = rules_[static_cast<size_t>(index.row())].name;
  const bool on = value.toInt() == Qt::Checked;
  if (index.column() == Pinned) {
    if (on == (pinned_.count(rule) != 0)) pendingPin_.erase(rule);
    else pendingPin_.insert(rule);
    if (on) emit pinRequested(rule);
    else emit unpinRequested(rule);
  } else if (index.column() == Vetoed) {
    if (on == (vetoed_.count(rule) != 0)) pendingVeto_.erase(rule);
    else pendingVeto_.insert(rule);
    if (on) emit vetoRequested(rule);
    else emit unvetoRequested(rule);
  } else {
    return false;
  }
  emit dataChanged(index, index, {Qt::CheckStateRole});
  return true;
}

} // namespace tessera::views
