#include "tuning/TuningRecordModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace tessera::views {

using tune::TrialStatus;

QString trialOutcomeLabel(TrialStatus status) {
  switch (status) {
  case TrialStatus::Ok: return QObject::tr("ok");
  case TrialStatus::CompileError: return QObject::tr("failed build");
  case TrialStatus::WrongResult: return QObject::tr("wrong result");
  case TrialStatus::Crashed:
  case TrialStatus::Timeout:
  case TrialStatus::RuntimeError: return QObject::tr("failed run");
  }
  return QObject::tr("unknown");
}

TuningRecordModel::TuningRecordModel(QObject* parent) : QAbstractTableModel(parent) {}

bool TuningRecordModel::isBetter(const tune::TuningRecord& record) const {
  if (record.status != TrialStatus::Ok) return false;
  return bestRow_ < 0 || record.latencyMs < records_[static_cast<size_t>(bestRow_)].latencyMs;
}

void TuningRecordModel::setRecords(std::vector<tune::TuningRecord> records) {
  beginResetModel();
  records_ = std::move(records);
  bestRow_ = -1;
  for (size_t row = 0; row < records_.size(); ++row)
    if (isBetter(records_[row])) bestRow_ = static_cast<int>(row);
  endResetModel();
}

void TuningRecordModel::append(tune::TuningRecord record) {
  const int row = rowCount();
  beginInsertRows({}, row, row);
  records_.push_back(std::move(record));
  const int previousBest = bestRow_;
  if (isBetter(records_.back())) bestRow_ = row;
  endInsertRows();
  if (previousBest >= 0 && previousBest != bestRow_)
    emit dataChanged(index(previousBest, 0), index(previousBest, ColumnCount - 1), {Qt::FontRole});
}

int TuningRecordModel::failedCount() const {
  int failed = 0;
  for (const tune::TuningRecord& r : records_) failed += r.status != TrialStatus::Ok;
  return failed;
}

int TuningRecordModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(records_.size()); }

int TuningRecordModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TuningRecordModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const tune::TuningRecord& r = records_[static_cast<size_t>(index.row())];
  const bool ok = r.status == TrialStatus::Ok;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
    case Trial: return QVariant::fromValue(static_cast<qlonglong>(r.trial));
    case Outcome: return trialOutcomeLabel(r.status);
    case Latency: return ok ? QString::number(r.latencyMs, 'g', 4) : QString();
    case Gflops: return ok ? QString::number(r.gflops, 'f', 2) : QString();
    case Message: {
      // The first line: compiler output and crash reports run to many.
      const QString error = QString::fromStdString(r.error);
      return error.section(QLatin1Char('\n'), 0, 0, QString::SectionSkipEmpty).left(240);
    }
    default: return {};
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Message && !r.error.empty()) return QString::fromStdString(r.error).left(4000);
  if (role == Qt::ToolTipRole && index.column() == Outcome) return QString::fromLatin1(tune::statusName(r.status)); // crashed, timeout, ...
  if (role == Qt::ForegroundRole && !ok && index.column() == Outcome) return QBrush(QColor(213, 94, 0));
  if (role == Qt::FontRole && index.row() == bestRow_) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::TextAlignmentRole && index.column() != Outcome && index.column() != Message)
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

QVariant TuningRecordModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
  case Trial: return tr("Trial");
  case Outcome: return tr("Outcome");
  case Latency: return tr("Latency (ms)");
  case Gflops: return tr("GFLOP/s");
  case Message: return tr("Error");
  default: return {};
  }
}

} // namespace tessera::views
