#include "RegionDeltaModel.h"

#include <QColor>
#include <QStringList>

#include <algorithm>

namespace tessera::views {

namespace {

// "fuse_conv_relu ×3, merge_convs" with the most productive rule first.
QString ruleSummary(const std::map<std::string, int>& rules) {
  std::vector<std::pair<std::string, int>> sorted(rules.begin(), rules.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  QStringList parts;
  for (const auto& [rule, nodes] : sorted)
    parts << (nodes > 1 ? QStringLiteral("%1 ×%2").arg(QString::fromStdString(rule)).arg(nodes) : QString::fromStdString(rule));
  return parts.join(QStringLiteral(", "));
}

} // namespace

RegionDeltaModel::RegionDeltaModel(QObject* parent) : QAbstractTableModel(parent) {}

void RegionDeltaModel::setRegions(std::vector<ChangedRegion> regions) {
  beginResetModel();
  regions_ = std::move(regions);
  endResetModel();
}

int RegionDeltaModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(regions_.size()); }

int RegionDeltaModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RegionDeltaModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const ChangedRegion& region = regions_[index.row()];
  if (role == Qt::TextAlignmentRole)
    return QVariant::fromValue(index.column() == Rules ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && index.column() == DeltaMs) {
    if (region.deltaMs() < 0) return QColor(0x2e, 0x7d, 0x32);
    if (region.deltaMs() > 0) return QColor(0xc6, 0x28, 0x28);
    return {};
  }
  if (role == Qt::UserRole) { // sort key
    switch (index.column()) {
    case Region: return index.row();
    case Nodes: return static_cast<int>(region.before.size() + region.after.size());
    case BeforeMs: return region.beforeMs;
    case AfterMs: return region.afterMs;
    case DeltaMs: return region.deltaMs();
    case Rules: return ruleSummary(region.rules);
    default: return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Rules) {
    if (region.rules.empty()) return tr("No provenance: the rules behind this region are unknown");
    return ruleSummary(region.rules);
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case Region: return index.row() + 1;
  case Nodes: return QStringLiteral("%1 → %2").arg(region.before.size()).arg(region.after.size());
  case BeforeMs: return QString::number(region.beforeMs, 'f', 4);
  case AfterMs: return QString::number(region.afterMs, 'f', 4);
  case DeltaMs: return QStringLiteral("%1%2").arg(region.deltaMs() > 0 ? QStringLiteral("+") : QString()).arg(region.deltaMs(), 0, 'f', 4);
  case Rules: return ruleSummary(region.rules);
  default: return {};
  }
}

QVariant RegionDeltaModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Region: return tr("Region");
  case Nodes: return tr("Nodes");
  case BeforeMs: return tr("Before (ms)");
  case AfterMs: return tr("After (ms)");
  case DeltaMs: return tr("Δ (ms)");
  case Rules: return tr("Rules");
  default: return {};
  }
}

} // namespace tessera::views
