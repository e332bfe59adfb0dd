// The SIP tab: a SIP report read and shown.
#include "SipPage.h"

#include "tuning/SipListingModel.h"
#include "tuning/TuningChart.h"

#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <vector>

namespace tessera::gui {

SipPage::SipPage(QWidget* parent) : QWidget(parent) {
  auto* open = new QPushButton(tr("Open SIP report…"), this);
  connect(open, &QPushButton::clicked, this, &SipPage::chooseReport);
  summary_ = new QLabel(tr("No SIP report. Run `tessera-cli sip WORKLOAD --json REPORT.json` on a tuned workload, then open the report."), this);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  chart_ = new views::TuningChart(this);
  listing_ = new views::SipListingModel(this);
  table_ = new QTableView(this);
  table_->setModel(listing_);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(views::SipListingModel::LineColumn, QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(views::SipListingModel::InstructionColumn, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(views::SipListingModel::FromColumn, QHeaderView::ResizeToContents);
  chart_->setMinimumWidth(260);
  // Each step is one timing beside the tuned kernel: its best is the top of many noisy ratios, and
  // only the interleaved rounds in the summary decide (1.2-1.7x here where those found nothing).
  chart_->setLabels(tr("GFLOP/s, each step timed once (noisy)"), tr("step"), tr("tuned kernel"));
  table_->setMinimumWidth(300);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(open, 0, Qt::AlignTop);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(chart_);
  splitter->addWidget(table_);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({480, 520});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);
}

void SipPage::chooseReport() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open SIP report"), {}, tr("SIP reports (*.json)"));
  if (!path.isEmpty()) openReport(path);
}

bool SipPage::fail(const QString& message) {
  error_ = message;
  summary_->setText(message);
  return false;
}

bool SipPage::openReport(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return fail(tr("%1: cannot read it: %2").arg(path, file.errorString()));
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
  if (document.isNull()) return fail(tr("%1: not JSON: %2").arg(path, parseError.errorString()));
  const QJsonObject report = document.object();
  for (const char* key : {"workload", "gflops_by_step", "best_listing", "search_baseline_gflops", "steps"})
    if (!report.contains(QLatin1String(key))) return fail(tr("%1: not a SIP report (no '%2')").arg(path, QLatin1String(key)));

  const QJsonArray steps = report.value("gflops_by_step").toArray();
  chart_->clear(steps.size());
  chart_->setBaseline(report.value("search_baseline_gflops").toDouble());
  for (const QJsonValue& gflops : steps) chart_->addTrial(gflops.toDouble());

  std::vector<views::SipListingLine> lines;
  for (const QJsonValue& value : report.value("best_listing").toArray()) {
    const QJsonObject row = value.toObject();
    lines.push_back({row.value("text").toString(), row.value("from_line").toInt()});
  }
  listing_->setLines(std::move(lines));

  const bool differs = listing_->movedCount() > 0;
  QString tests;
  if (!differs) tests = tr("the best kernel is the tuned one");
  else if (report.value("final_test_passed").toBool())
    tests = tr("final test: %1 random samples passed against the tuned kernel").arg(report.value("samples_tested").toInteger());
  else
    tests = tr("final test FAILED after %1 samples: %2").arg(report.value("samples_tested").toInteger()).arg(report.value("final_test_error").toString());
  const QJsonArray interval = report.value("improvement_ci_pct").toArray();
  summary_->setText(
      tr("<b>%1</b> · legality %2 · seed %3<br>%4 steps (%5), %6 accepted · wrong candidates caught: %7 by the tests, %8 crashed or hung, "
         "%9 not encodable<br>%10 · improvement %11 % [%12, %13] interleaved (%14 → %15 GFLOP/s) · %16 instructions moved · %17")
          .arg(report.value("workload").toString().toHtmlEscaped(), report.value("legality").toString())
          .arg(report.value("seed").toInteger())
          .arg(report.value("steps").toInt())
          .arg(report.value("stop_reason").toString())
          .arg(report.value("accepted").toInt())
          .arg(report.value("failed_test").toInt())
          .arg(report.value("failed_run").toInt())
          .arg(report.value("failed_assemble").toInt())
          .arg(tests.toHtmlEscaped())
          .arg(report.value("improvement_pct").toDouble(), 0, 'f', 2)
          .arg(interval.at(0).toDouble(), 0, 'f', 2)
          .arg(interval.at(1).toDouble(), 0, 'f', 2)
          .arg(report.value("baseline_gflops").toDouble(), 0, 'f', 2)
          .arg(report.value("best_gflops").toDouble(), 0, 'f', 2)
          .arg(listing_->movedCount())
          .arg(report.value("stored").toBool() ? tr("stored as a refinement") : tr("not stored")));
  error_.clear();
  firstMovedRow_ = -1;
  for (int row = 0; row < listing_->rowCount() && firstMovedRow_ < 0; ++row)
    if (listing_->data(listing_->index(row, views::SipListingModel::FromColumn)).isValid()) firstMovedRow_ = row;
  if (isVisible()) showFirstMove();
  return true;
}

void SipPage::showFirstMove() {
  if (firstMovedRow_ < 0) return;
  // After the layout has given the table its size, or the row would be centred in a zero-height view.
  QTimer::singleShot(0, table_, [this] {
    if (firstMovedRow_ >= 0) table_->scrollTo(listing_->index(firstMovedRow_, 0), QAbstractItemView::PositionAtCenter);
  });
}

void SipPage::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  showFirstMove();
}

} // namespace tessera::gui
