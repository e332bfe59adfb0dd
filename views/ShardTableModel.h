// The shards of a launch as a table: number, name, state, node, retries and the driver's last word
// (launch/ShardProgress.h), as tessera-cli's "launch: shard i/n …" lines say them.
#pragma once

#include "launch/ShardProgress.h"

#include <QAbstractTableModel>

#include <vector>

namespace tessera::views {

class ShardTableModel final : public QAbstractTableModel {
public:
  enum Column { Number, Name, State, Node, Retries, Note, ColumnCount };

  explicit ShardTableModel(QObject* parent = nullptr);

  // Replaces the rows; a board with the same shards only changes their cells.
  void setShards(std::vector<launch::ShardProgress> shards);
  const std::vector<launch::ShardProgress>& shards() const { return shards_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::vector<launch::ShardProgress> shards_;
};

} // namespace tessera::views
