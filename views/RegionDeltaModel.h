// The compare view's table of changed regions: per region the nodes on each side, the cost before
// and after under the current cost model, the delta and the rules that produced it.
#pragma once

#include "ChangedRegions.h"

#include <QAbstractTableModel>

#include <vector>

namespace tessera::views {

class RegionDeltaModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Region, Nodes, BeforeMs, AfterMs, DeltaMs, Rules, ColumnCount };

  explicit RegionDeltaModel(QObject* parent = nullptr);

  void setRegions(std::vector<ChangedRegion> regions);
  const std::vector<ChangedRegion>& regions() const { return regions_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  std::vector<ChangedRegion> regions_;
};

} // namespace tessera::views
