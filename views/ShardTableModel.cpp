// Shard rows: text per column, the state tinted so a failed or running shard stands out.
#include "ShardTableModel.h"

#include <QColor>

namespace tessera::views {

namespace {

QColor stateTint(launch::ShardState state) {
  switch (state) {
  case launch::ShardState::Done: return QColor(0x4c, 0xaf, 0x50, 70);
  case launch::ShardState::Running: return QColor(0x21, 0x96, 0xf3, 70);
  case launch::ShardState::Pending: return QColor(0xff, 0xc1, 0x07, 60);
  case launch::ShardState::Failed: return QColor(0xe5, 0x39, 0x35, 90);
  case launch::ShardState::Waiting: break;
  }
  return {};
}

} // namespace

ShardTableModel::ShardTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ShardTableModel::setShards(std::vector<launch::ShardProgress> shards) {
  if (shards.size() != shards_.size()) {
    beginResetModel();
    shards_ = std::move(shards);
    endResetModel();
    return;
  }
  shards_ = std::move(shards);
  if (!shards_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int ShardTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(shards_.size()); }
int ShardTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ShardTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const launch::ShardProgress& shard = shards_[static_cast<size_t>(index.row())];
  if (role == Qt::BackgroundRole && index.column() == State) {
    const QColor tint = stateTint(shard.state);
    return tint.isValid() ? QVariant(tint) : QVariant();
  }
  if (role == Qt::ToolTipRole && index.column() == Note && !shard.note.empty()) return QString::fromStdString(shard.note);
  if (role == Qt::TextAlignmentRole && (index.column() == Number || index.column() == Retries))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case Number: return static_cast<qulonglong>(shard.index + 1);
  case Name: return QString::fromStdString(shard.name);
  case State: return QString::fromLatin1(launch::shardStateName(shard.state));
  case Node: return QString::fromStdString(shard.node);
  case Retries: return shard.retries;
  case Note: return QString::fromStdString(shard.note);
  }
  return {};
}

QVariant ShardTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Number: return tr("#");
  case Name: return tr("Shard");
  case State: return tr("State");
  case Node: return tr("Node");
  case Retries: return tr("Retries");
  case Note: return tr("Last word");
  }
  return {};
}

} // namespace tessera::views
