// The compare summary's table: per op kind, how many ops and how many milliseconds each graph
// spends on it, and the difference. Sort through a proxy on Qt::UserRole (the raw numbers).
#pragma once

#include "GraphSnapshot.h"

#include <QAbstractTableModel>

#include <vector>

namespace tessera::views {

class OpCountDiffModel final : public QAbstractTableModel {
public:
  enum Column { Op, CountBefore, CountAfter, CountDelta, MsBefore, MsAfter, MsDelta, ColumnCount };

  explicit OpCountDiffModel(QObject* parent = nullptr);

  void setGraphs(const GraphSnapshot& before, const GraphSnapshot& after);
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  struct Row {
    QString op;
    int before = 0;
    int after = 0;
    double msBefore = 0;
    double msAfter = 0;
  };
  const std::vector<Row>& rows() const { return rows_; }

private:
  std::vector<Row> rows_;
};

} // namespace tessera::views
