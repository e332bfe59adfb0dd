// The Training tab's self-play chart: PUCT reports as one line each with a point a generation, the
// final networks said below, other agents' reports and broken files named above it.
#include "live/SeriesChart.h"
#include "live/StrengthCurvesPanel.h"

#include <QSignalSpy>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

using namespace tessera::views;

namespace {

const QString kAgents = QStringLiteral(TESSERA_SOURCE_DIR "/resources/agents");

bool waitForLoad(StrengthCurvesPanel& panel) {
  QSignalSpy loaded(&panel, &StrengthCurvesPanel::loaded);
  return loaded.wait(10000);
}

} // namespace

TEST(PuctStrengthPanel, ShowsEachReportsGenerationsAndNamesTheBadOnes) {
  StrengthCurvesPanel panel;
  const std::string broken = "/tmp/tessera-puct-strength-panel-broken.json";
  std::ofstream(broken) << "{\"agent\": \"puct\", ";
  panel.loadReports({kAgents + "/puct-training.json", kAgents + "/seeds/puct-noise-seed2.json", kAgents + "/xrlflow-training.json",
                     QString::fromStdString(broken)},
                    /*replace=*/true);
  ASSERT_TRUE(waitForLoad(panel));
  ASSERT_EQ(panel.chart()->seriesCount(), 2);
  EXPECT_EQ(panel.chart()->seriesName(0), QStringLiteral("puct · seed 1"));
  EXPECT_EQ(panel.chart()->seriesName(1), QStringLiteral("puct root_noise 0.25 visits · seed 2"));
  EXPECT_EQ(panel.chart()->pointCount(0), 3) << "three generations";
  EXPECT_EQ(panel.chart()->legendAlignment(), Qt::AlignBottom) << "two lines share the row below the plot";
  const QPointF first = panel.chart()->series()[0].points.front();
  EXPECT_EQ(first.x(), 1.0);
  EXPECT_NEAR(first.y(), 33.89, 0.005);
  EXPECT_TRUE(panel.notesText().contains(QStringLiteral("puct · seed 1: final network 32.89 %"))) << panel.notesText().toStdString();
  EXPECT_TRUE(panel.errorText().contains(QStringLiteral("xrlflow-training.json: a report of agent 'xrlflow'"))) << panel.errorText().toStdString();
  EXPECT_TRUE(panel.errorText().contains(QStringLiteral("broken.json: not valid JSON")));

  // Added beside, and a report shown again replaces itself.
  panel.loadReports({kAgents + "/seeds/puct-seed2.json", kAgents + "/puct-training.json"}, /*replace=*/false);
  ASSERT_TRUE(waitForLoad(panel));
  EXPECT_EQ(panel.chart()->seriesCount(), 3);
  EXPECT_TRUE(panel.errorText().isEmpty());
}
