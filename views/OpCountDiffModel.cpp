#include "OpCountDiffModel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <map>

namespace tessera::views {

namespace {

struct KindFigures {
  int count = 0;
  double ms = 0;
};

std::map<QString, KindFigures> figuresByKind(const GraphSnapshot& snapshot) {
  std::map<QString, KindFigures> figures;
  if (!snapshot.graph) return figures;
  const Graph& graph = *snapshot.graph;
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (node.kind == OpKind::Input || node.kind == OpKind::Weight) continue;
    QString kind = node.kind == OpKind::Opaque && node.opaque ? QString::fromStdString(node.opaque->opType)
                                                              : QString::fromUtf8(opName(node.kind).data(), static_cast<int>(opName(node.kind).size()));
    KindFigures& f = figures[kind];
    ++f.count;
    f.ms += snapshot.costOf(id);
  }
  return figures;
}

QString signedCount(int delta) { return delta > 0 ? QStringLiteral("+%1").arg(delta) : QString::number(delta); }

// One unit in a column, so that the figures line up and compare at a glance.
QString columnMs(double ms) { return QString::number(ms, 'f', 4) + QStringLiteral(" ms"); }

} // namespace

OpCountDiffModel::OpCountDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpCountDiffModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
}

void OpCountDiffModel::setGraphs(const GraphSnapshot& before, const GraphSnapshot& after) {
  beginResetModel();
  rows_.clear();
  std::map<QString, KindFigures> a = figuresByKind(before);
  std::map<QString, KindFigures> b = figuresByKind(after);
  std::map<QString, Row> merged;
  for (const auto& [kind, f] : a) {
    Row& row = merged[kind];
    row.op = kind;
    row.before = f.count;
    row.msBefore = f.ms;
  }
  for (const auto& [kind, f] : b) {
    Row& row = merged[kind];
    row.op = kind;
    row.after = f.count;
    row.msAfter = f.ms;
  }
  for (auto& [kind, row] : merged) rows_.push_back(row);
  // Where the time goes first: that is what a reader of a compare looks for.
  std::stable_sort(rows_.begin(), rows_.end(), [](const Row& x, const Row& y) {
    return std::max(x.msBefore, x.msAfter) > std::max(y.msBefore, y.msAfter);
  });
  endResetModel();
}

int OpCountDiffModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
int OpCountDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpCountDiffModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const Row& row = rows_[index.row()];
  int countDelta = row.after - row.before;
  double msDelta = row.msAfter - row.msBefore;
  if (role == Qt::UserRole) {
    switch (index.column()) {
    case Op: return row.op;
    case CountBefore: return row.before;
    case CountAfter: return row.after;
    case CountDelta: return countDelta;
    case MsBefore: return row.msBefore;
    case MsAfter: return row.msAfter;
    case MsDelta: return msDelta;
    default: return {};
    }
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
    case Op: return row.op;
    case CountBefore: return row.before;
    case CountAfter: return row.after;
    case CountDelta: return countDelta == 0 ? QString() : signedCount(countDelta);
    case MsBefore: return columnMs(row.msBefore);
    case MsAfter: return columnMs(row.msAfter);
    case MsDelta: return std::abs(msDelta) < 1e-12 ? QString() : (msDelta > 0 ? "+" : "") + columnMs(msDelta);
    default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != Op) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ForegroundRole && (index.column() == CountDelta || index.column() == MsDelta)) {
    double delta = index.column() == CountDelta ? countDelta : msDelta;
    if (std::abs(delta) < 1e-12) return {};
    return QBrush(delta < 0 ? QColor(0x1f, 0x9d, 0x48) : QColor(0xd3, 0x2f, 0x2f)); // cheaper is green
  }
  return {};
}

QVariant OpCountDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Op: return tr("Op");
  case CountBefore: return tr("Before");
  case CountAfter: return tr("After");
  case CountDelta: return tr("Δ ops");
  case MsBefore: return tr("Time before");
  case MsAfter: return tr("Time after");
  case MsDelta: return tr("Δ time");
  default: return {};
  }
}

} // namespace tessera::views
