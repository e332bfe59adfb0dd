#include "CandidateTableModel.h"

#include <QColor>

#include <algorithm>

namespace tessera::views {

CandidateTableModel::CandidateTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CandidateTableModel::setCandidates(std::vector<CandidateRecord> candidates, const std::vector<RunRecord>& runs) {
  beginResetModel();
  all_ = std::move(candidates);
  // Best first; ties by run and index so the order is stable across refreshes.
  std::stable_sort(all_.begin(), all_.end(), [](const CandidateRecord& a, const CandidateRecord& b) {
    if (a.costMs != b.costMs) return a.costMs < b.costMs;
    if (a.runId != b.runId) return a.runId < b.runId;
    return a.index < b.index;
  });
  runs_.clear();
  for (const RunRecord& run : runs)
    runs_[run.id] = RunFacts{QString::fromStdString(run.info.strategy), run.summary ? run.summary->originalCostMs : 0.0,
                             run.summary && run.summary->inSample.value_or(false)};
  shown_ = std::min<int>(kPageRows, static_cast<int>(all_.size()));
  endResetModel();
}

void CandidateTableModel::clear() { setCandidates({}, {}); }

int CandidateTableModel::rowOf(int64_t candidateId) {
  auto it = std::find_if(all_.begin(), all_.end(), [&](const CandidateRecord& c) { return c.id == candidateId; });
  if (it == all_.end()) return -1;
  int row = static_cast<int>(it - all_.begin());
  while (shown_ <= row) fetchMore({});
  return row;
}

double CandidateTableModel::speedupOf(const CandidateRecord& candidate) const {
  auto it = runs_.find(candidate.runId);
  if (it == runs_.end() || it->second.originalMs <= 0) return 0;
  return (it->second.originalMs - candidate.costMs) / it->second.originalMs * 100;
}

QString CandidateTableModel::strategyOf(const CandidateRecord& candidate) const {
  auto it = runs_.find(candidate.runId);
  return it == runs_.end() ? QString() : it->second.strategy;
}

int CandidateTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : shown_; }

int CandidateTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CandidateTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const CandidateRecord& c = all_[index.row()];
  if (role == CandidateIdRole) return QVariant::fromValue<qint64>(c.id);
  if (role == Qt::TextAlignmentRole) {
    bool numeric = index.column() != Method && index.column() != Strategy;
    return QVariant::fromValue(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
  }
  if (role == Qt::ForegroundRole && index.column() == Speedup) {
    double speedup = speedupOf(c);
    if (speedup > 0) return QColor(0x2e, 0x7d, 0x32);
    if (speedup < 0) return QColor(0xc6, 0x28, 0x28);
    return {};
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const bool inSample = runs_.count(c.runId) && runs_.at(c.runId).inSample;
  if (role == Qt::ToolTipRole && index.column() == Speedup && inSample)
    return tr("%1 % (in-sample: the agent or guide that found it trained on this model)").arg(speedupOf(c), 0, 'f', 2);
  switch (index.column()) {
  case Cost: return QString::number(c.costMs, 'f', 4);
  case Speedup:
    if (!runs_.count(c.runId)) return QString();
    return QStringLiteral("%1 %").arg(speedupOf(c), 0, 'f', 2) + (inSample ? QStringLiteral(" i") : QString());
  case Method: return QString::fromStdString(c.method);
  case Step: return c.step;
  case Run: return QVariant::fromValue<qint64>(c.runId);
  case Strategy: return strategyOf(c);
  case Ops: return QVariant::fromValue<qulonglong>(c.opCount);
  default: return {};
  }
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case Cost: return tr("Cost (ms)");
  case Speedup: return tr("Speedup");
  case Method: return tr("Method");
  case Step: return tr("Step");
  case Run: return tr("Run");
  case Strategy: return tr("Strategy");
  case Ops: return tr("Ops");
  default: return {};
  }
}

bool CandidateTableModel::canFetchMore(const QModelIndex& parent) const {
  return !parent.isValid() && shown_ < static_cast<int>(all_.size());
}

void CandidateTableModel::fetchMore(const QModelIndex& parent) {
  if (!canFetchMore(parent)) return;
  int next = std::min<int>(shown_ + kPageRows, static_cast<int>(all_.size()));
  beginInsertRows({}, shown_, next - 1);
  shown_ = next;
  endInsertRows();
}

} // namespace tessera::views
