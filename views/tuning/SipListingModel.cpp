// The SIP listing table.
#include "tuning/SipListingModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cstdlib>

namespace tessera::views {

SipListingModel::SipListingModel(QObject* parent) : QAbstractTableModel(parent) {}

void SipListingModel::setLines(std::vector<SipListingLine> lines) {
  beginResetModel();
  lines_ = std::move(lines);
  endResetModel();
}

int SipListingModel::movedCount() const {
  int moved = 0;
  for (const SipListingLine& line : lines_) moved += line.fromLine > 0 ? 1 : 0;
  return moved;
}

int SipListingModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(lines_.size()); }

int SipListingModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SipListingModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const SipListingLine& line = lines_[static_cast<size_t>(index.row())];
  const bool moved = line.fromLine > 0;
  switch (role) {
  case Qt::DisplayRole:
    if (index.column() == LineColumn) return index.row() + 1;
    if (index.column() == InstructionColumn) return line.text;
    if (moved) return tr("moved from %1 (%2%3)").arg(line.fromLine).arg(line.fromLine > index.row() + 1 ? "-" : "+").arg(std::abs(index.row() + 1 - line.fromLine));
    return {};
  case Qt::FontRole:
    if (index.column() == InstructionColumn) {
      QFont font(QStringLiteral("monospace"));
      font.setStyleHint(QFont::Monospace);
      font.setBold(moved);
      return font;
    }
    return {};
  case Qt::BackgroundRole:
    return moved ? QVariant(QBrush(QColor(255, 214, 102))) : QVariant();
  case Qt::ForegroundRole:
    return moved ? QVariant(QBrush(Qt::black)) : QVariant();
  case Qt::ToolTipRole:
    return moved ? tr("SIP moved this instruction here from line %1 of the tuned kernel").arg(line.fromLine) : QVariant();
  default:
    return {};
  }
}

QVariant SipListingModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case LineColumn: return tr("Line");
  case InstructionColumn: return tr("Instruction (best kernel)");
  case FromColumn: return tr("Original slot");
  default: return {};
  }
}

} // namespace tessera::views
