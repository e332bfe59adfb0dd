// The best kernel of a SIP run as a table (issue #34): one row per line of its assembly, the
// instructions SIP moved marked, with the line each came from.
#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace tessera::views {

struct SipListingLine {
  QString text;
  int fromLine = 0; // 1-based line it held in the tuned kernel; 0: not moved
};

class SipListingModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { LineColumn, InstructionColumn, FromColumn, ColumnCount };
  explicit SipListingModel(QObject* parent = nullptr);

  void setLines(std::vector<SipListingLine> lines);
  int movedCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::vector<SipListingLine> lines_;
};

} // namespace tessera::views
