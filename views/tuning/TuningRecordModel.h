// The measured candidates of a tuning run or of one workload's stored records, one row each:
// trial, outcome (ok, failed build, failed run, wrong result), latency, GFLOP/s and, for a
// failure, its error. The best verified row is bold.
#pragma once

#include "tune/TuningDatabase.h"

#include <QAbstractTableModel>

#include <vector>

namespace tessera::views {

// "ok", "failed build", "failed run" (crashed, timed out or refused to load: the error says which) or "wrong result".
QString trialOutcomeLabel(tune::TrialStatus status);

class TuningRecordModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Trial, Outcome, Latency, Gflops, Message, ColumnCount };

  explicit TuningRecordModel(QObject* parent = nullptr);

  void setRecords(std::vector<tune::TuningRecord> records);
  void append(tune::TuningRecord record);
  void clear() { setRecords({}); }

  const tune::TuningRecord& recordAt(int row) const { return records_[static_cast<size_t>(row)]; }
  int bestRow() const { return bestRow_; } // the fastest verified record; -1 when none
  int failedCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  bool isBetter(const tune::TuningRecord& record) const;

  std::vector<tune::TuningRecord> records_;
  int bestRow_ = -1;
};

} // namespace tessera::views
