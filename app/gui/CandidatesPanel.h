// The candidates dock: every candidate graph of the open session, best first, over a lazily
// fetched table model. Selecting one shows it; selecting two compares them; buttons go back to the
// original, compare a candidate with the original and export the selected candidate as ONNX.
#pragma once

#include "session/SessionRecords.h"

#include <QList>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTableView;

namespace tessera::views {
class CandidateTableModel;
}

namespace tessera::gui {

class CandidatesPanel : public QWidget {
  Q_OBJECT

public:
  explicit CandidatesPanel(QWidget* parent = nullptr);

  // `sessionPath` empty: no session is open.
  void setCandidates(const QString& sessionPath, std::vector<CandidateRecord> candidates, const std::vector<RunRecord>& runs);
  views::CandidateTableModel* model() const { return model_; }
  QTableView* table() const { return table_; }

  QList<qint64> selectedCandidates() const; // in table order, at most two
  // Selects these candidates (fetching rows as needed); unknown ids are ignored.
  void selectCandidates(const QList<qint64>& ids);

signals:
  void selectionChanged(const QList<qint64>& candidateIds);
  void showOriginalRequested();
  void compareWithOriginalRequested(qint64 candidateId);
  void exportRequested(qint64 candidateId);

private:
  void updateButtons();

  views::CandidateTableModel* model_;
  QTableView* table_;
  QLabel* summary_;
  QPushButton* original_;
  QPushButton* compare_;
  QPushButton* export_;
};

} // namespace tessera::gui
