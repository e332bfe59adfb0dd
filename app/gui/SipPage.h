// The SIP tab (issue #34), beside Tuning: a `tessera-cli sip --json` report shown as throughput
// against annealing step (each candidate's GFLOP/s, the best so far, the tuned kernel's as the
// baseline), the best kernel's assembly with the moved instructions marked and their original
// slots, and what the tests caught and passed. SIP runs in the CLI (core/sip links LLVM, which the
// explorer does not); the page reads its report.
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QTableView;

namespace tessera::views {
class SipListingModel;
class TuningChart;
} // namespace tessera::views

namespace tessera::gui {

class SipPage : public QWidget {
  Q_OBJECT
public:
  explicit SipPage(QWidget* parent = nullptr);

  // Shows the report; false, with the reason in the page and errorText(), for a file that is not one.
  bool openReport(const QString& path);
  void chooseReport(); // a file dialog, then openReport
  QString errorText() const { return error_; }
  views::TuningChart* chart() const { return chart_; }
  views::SipListingModel* listing() const { return listing_; }

protected:
  void showEvent(QShowEvent* event) override;

private:
  bool fail(const QString& message);
  void showFirstMove(); // the first moved instruction in the table's view

  QLabel* summary_;
  views::TuningChart* chart_;
  views::SipListingModel* listing_;
  QTableView* table_;
  QString error_;
  int firstMovedRow_ = -1;
};

} // namespace tessera::gui
