#include "CandidatesPanel.h"

#include "CandidateTableModel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>


namespace tessera::gui {

CandidatesPanel::CandidatesPanel(QWidget* parent) : QWidget(parent) {
  model_ = new views::CandidateTableModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  // Fixed, narrow columns: a dock sized to its contents would squeeze the graphs.
  table_->horizontalHeader()->setDefaultSectionSize(table_->fontMetrics().horizontalAdvance(QStringLiteral("0.00000")) + 12);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setAlternatingRowColors(true);
  table_->setToolTip(tr("Select a candidate to show it; select two (Ctrl+click) to compare them"));
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setContentsMargins(4, 2, 4, 2);
  original_ = new QPushButton(tr("Original"), this);
  original_->setToolTip(tr("Show the original model in the graph view"));
  compare_ = new QPushButton(tr("Compare with original"), this);
  export_ = new QPushButton(tr("Export ONNX…"), this);
  export_->setToolTip(tr("Write the selected candidate as an ONNX model"));

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(original_);
  buttons->addWidget(compare_);
  buttons->addWidget(export_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);

  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    updateButtons();
    emit selectionChanged(selectedCandidates());
  });
  connect(original_, &QPushButton::clicked, this, &CandidatesPanel::showOriginalRequested);
  connect(compare_, &QPushButton::clicked, this, [this] {
    QList<qint64> ids = selectedCandidates();
    if (!ids.isEmpty()) emit compareWithOriginalRequested(ids.front());
  });
  connect(export_, &QPushButton::clicked, this, [this] {
    QList<qint64> ids = selectedCandidates();
    if (!ids.isEmpty()) emit exportRequested(ids.front());
  });
  setCandidates({}, {}, {});
}

void CandidatesPanel::setCandidates(const QString& sessionPath, std::vector<CandidateRecord> candidates, const std::vector<RunRecord>& runs) {
  size_t count = candidates.size();
  model_->setCandidates(std::move(candidates), runs);
  if (sessionPath.isEmpty()) summary_->setText(tr("No session open. Runs are recorded in the model's session."));
  else
    summary_->setText(tr("%1 candidates from %2 runs in %3").arg(count).arg(runs.size()).arg(QFileInfo(sessionPath).fileName()));
  summary_->setToolTip(sessionPath);
  updateButtons();
}

QList<qint64> CandidatesPanel::selectedCandidates() const {
  QList<qint64> ids;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    if (ids.size() == 2) break;
    ids << model_->candidateAt(index.row()).id;
  }
  return ids;
}

void CandidatesPanel::selectCandidates(const QList<qint64>& ids) {
  QItemSelection selection;
  for (qint64 id : ids) {
    int row = model_->rowOf(id);
    if (row >= 0) selection.select(model_->index(row, 0), model_->index(row, model_->columnCount() - 1));
  }
  table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
  if (!selection.isEmpty()) table_->scrollTo(selection.indexes().front());
}

void CandidatesPanel::updateButtons() {
  int selected = static_cast<int>(table_->selectionModel()->selectedRows().size());
  compare_->setEnabled(selected >= 1);
  export_->setEnabled(selected == 1);
}

} // namespace tessera::gui
