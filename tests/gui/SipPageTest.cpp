// The explorer's SIP view (offscreen): a `tessera-cli sip --json` report as a chart of GFLOP/s
// against step and the best kernel's listing with its moved instructions marked (the model checked
// by QAbstractItemModelTester), and files it must refuse by name.
#include "SipPage.h"

#include "tuning/SipListingModel.h"
#include "tuning/TuningChart.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::gui;

namespace {

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
  const QString path = dir.filePath(QString::fromLatin1(name));
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(text);
  return path;
}

constexpr const char* kReport = R"({
  "workload": "matmul:512x512x512", "legality": "deps", "seed": 1, "steps": 3, "stop_reason": "step limit",
  "accepted": 1, "failed_test": 1, "failed_run": 0, "failed_assemble": 0,
  "search_baseline_gflops": 30.0, "gflops_by_step": [29.0, 0.0, 33.0],
  "baseline_gflops": 30.0, "best_gflops": 31.5, "improvement_pct": 4.8, "improvement_ci_pct": [1.0, 8.6],
  "final_test_passed": true, "samples_tested": 2000, "stored": true,
  "best_listing": [{"text": "tessera_kernel:"}, {"text": "vmovups\t(%rax), %ymm1", "from_line": 3},
                   {"text": "vfmadd231ps\t%ymm2, %ymm3, %ymm4"}, {"text": "retq"}]
})";

} // namespace

TEST(SipPage, ShowsTheReportsStepsAndMarksTheMovedInstructions) {
  QTemporaryDir dir;
  SipPage page;
  QAbstractItemModelTester tester(page.listing(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_TRUE(page.openReport(write(dir, "report.json", kReport))) << page.errorText().toStdString();
  EXPECT_EQ(page.chart()->trialCount(), 3);
  EXPECT_DOUBLE_EQ(page.chart()->bestGflops(), 33.0);
  ASSERT_TRUE(page.chart()->baseline());
  EXPECT_DOUBLE_EQ(*page.chart()->baseline(), 30.0);
  const views::SipListingModel& listing = *page.listing();
  EXPECT_EQ(listing.rowCount(), 4);
  EXPECT_EQ(listing.movedCount(), 1);
  const QString from = listing.data(listing.index(1, views::SipListingModel::FromColumn)).toString();
  EXPECT_TRUE(from.contains("3")) << from.toStdString();
  EXPECT_TRUE(listing.data(listing.index(1, 0), Qt::BackgroundRole).isValid());
  EXPECT_FALSE(listing.data(listing.index(2, 0), Qt::BackgroundRole).isValid());
}

TEST(SipPage, RefusesFilesThatAreNotSipReportsByName) {
  QTemporaryDir dir;
  SipPage page;
  EXPECT_FALSE(page.openReport(dir.filePath("missing.json")));
  EXPECT_TRUE(page.errorText().contains("missing.json"));
  EXPECT_FALSE(page.openReport(write(dir, "broken.json", "{not json")));
  EXPECT_TRUE(page.errorText().contains("broken.json"));
  EXPECT_FALSE(page.openReport(write(dir, "tune.json", R"({"workload": "matmul:8x8x8", "best_gflops": 3})")));
  EXPECT_TRUE(page.errorText().contains("not a SIP report"));
  EXPECT_EQ(page.listing()->rowCount(), 0);
}
