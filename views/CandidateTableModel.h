// The candidates of a session as a table (cost, speedup, method, step, run, strategy, ops), best
// first. Rows arrive through canFetchMore/fetchMore in pages, and the model holds only the listing
// rows: a candidate's graph is loaded by whoever shows it, when it is selected.
#pragma once

#include "session/SessionRecords.h"

#include <QAbstractTableModel>

#include <map>
#include <vector>

namespace tessera::views {

class CandidateTableModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Cost, Speedup, Method, Step, Run, Strategy, Ops, ColumnCount };
  static constexpr int kPageRows = 64;
  static constexpr int CandidateIdRole = Qt::UserRole + 1;

  explicit CandidateTableModel(QObject* parent = nullptr);

  // Replaces the listing; `runs` gives each candidate's strategy and the original's cost.
  void setCandidates(std::vector<CandidateRecord> candidates, const std::vector<RunRecord>& runs);
  void clear();

  int totalCandidates() const { return static_cast<int>(all_.size()); }
  const CandidateRecord& candidateAt(int row) const { return all_[row]; }
  int rowOf(int64_t candidateId); // -1 when unknown; fetches the rows up to it
  double speedupOf(const CandidateRecord& candidate) const; // %, 0 when the run's original cost is unknown
  QString strategyOf(const CandidateRecord& candidate) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  bool canFetchMore(const QModelIndex& parent) const override;
  void fetchMore(const QModelIndex& parent) override;

private:
  struct RunFacts {
    QString strategy;
    double originalMs = 0;
    bool inSample = false; // an agent's or guide's run on a model its checkpoint trained on
  };
  std::vector<CandidateRecord> all_; // sorted by cost; only the first shown_ are rows
  std::map<int64_t, RunFacts> runs_;
  int shown_ = 0;
};

} // namespace tessera::views
