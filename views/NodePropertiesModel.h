// The properties panel's item model: a two-level tree (group -> property, value) describing one
// node (identity, attributes, inputs, outputs, cost and FLOPs under the current cost model) or,
// with no node, the whole graph (size, parameters, total cost, ops by kind).
#pragma once

#include "GraphSnapshot.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace tessera::views {

class NodePropertiesModel final : public QAbstractItemModel {
public:
  explicit NodePropertiesModel(QObject* parent = nullptr);

  void show(const GraphSnapshot& snapshot, std::optional<NodeId> node);
  void clear();
  std::optional<NodeId> node() const { return node_; }

  // The value shown for `key` in `group` (empty when absent): what tests and tool tips read.
  QString value(const QString& group, const QString& key) const;
  QStringList groups() const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
  struct Row {
    QString key;
    QString value;
  };
  struct Group {
    QString title;
    std::vector<Row> rows;
  };

  std::vector<Group> groups_;
  std::optional<NodeId> node_;
};

// "1.23 G", "456 M", "12.0 k", "17": figures the way people read FLOPs and parameter counts.
QString humanCount(double value);
QString formatMs(double ms);

} // namespace tessera::views
