// The RL agent's views: the decision dock fed by AgentDecided events (live, through a session, on a
// seek) and the training-curve chart fed by training reports, good and bad.
#include "live/AgentDecisionModel.h"
#include "live/AgentDecisionPanel.h"
#include "live/LiveRun.h"
#include "live/TrainingCurveChart.h"
#include "live/TrainingCurvesPanel.h"

#include "ir/Graph.h"
#include "session/Session.h"
#include "support/Error.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessera;
using namespace tessera::views;

namespace {

// A decision as XrlflowStrategy publishes one: most probable first, the taken one (not the most
// probable: a rewrite back to a visited graph was left out) marked.
AgentDecided decisionAt(int step) {
  AgentDecided decision{step, 2.5 + step, 23, {}, 1};
  decision.candidates.push_back({"fuse-conv-relu", {4, 5}, {4, 5}, -0.0125, 0.55});
  decision.candidates.push_back({"matmul-assoc", {9, 10, 11}, {9}, 0.003, 0.25});
  decision.candidates.push_back({std::string(kAgentStopAction), {}, {}, 0, 0.15});
  decision.candidates.push_back({"ewadd-comm", {2}, {}, 0, 0.05});
  return decision;
}

std::vector<Event> runWithDecisions() {
  std::vector<Event> log;
  log.push_back({0, 0, RunStateChanged{RunState::Started, ""}});
  log.push_back({1, 0.1, AgentDecided(decisionAt(0))});
  log.push_back({2, 0.2, StepCommitted{0, "matmul-assoc", 0, 0, 2.5, 12, 0}});
  log.push_back({3, 0.3, AgentDecided(decisionAt(1))});
  log.push_back({4, 0.4, StepCommitted{1, "matmul-assoc", 0, 0, 3.5, 12, 0}});
  log.push_back({5, 0.5, RunStateChanged{RunState::Finished, "saturated"}});
  return log;
}

std::string scratchDir() {
  static std::atomic<int> counter{0};
  auto dir = std::filesystem::temp_directory_path() / ("tessera-agent-views-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string writeFile(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// A report as `rl train --json` writes it, with `episodes` episodes alternating two models.
std::string reportJson(int seed, int episodes) {
  std::string curve;
  for (int e = 1; e <= episodes; ++e) {
    if (!curve.empty()) curve += ",";
    curve += R"({"episode":)" + std::to_string(e) + R"(,"model":")" + (e % 2 ? "nasrnn" : "bert") + R"(","reward":)" +
             std::to_string(0.5 * e + seed) + R"(,"steps":10,"seconds":0.1})";
  }
  return R"({"agent":"xrlflow","seed":)" + std::to_string(seed) + R"(,"cost":"analytic:h200","models":["nasrnn","bert"],"curve":[)" +
         curve + "]}";
}

bool waitForLoad(TrainingCurvesPanel& panel) {
  QSignalSpy loaded(&panel, &TrainingCurvesPanel::loaded);
  return loaded.wait(10000);
}

} // namespace

TEST(AgentDecisionPanel, ShowsThePublishedCandidatesWithTheChosenOneMarked) {
  qRegisterMetaType<std::vector<NodeId>>();
  LiveRun run;
  AgentDecisionPanel panel;
  QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  QObject::connect(&run, &LiveRun::stateChanged, &panel, &AgentDecisionPanel::showState);
  QSignalSpy marked(&panel, &AgentDecisionPanel::opsHighlighted);
  EXPECT_EQ(panel.model()->rowCount(), 0);
  EXPECT_TRUE(panel.summary().contains("No agent decision")) << panel.summary().toStdString();

  const std::vector<Event> log = runWithDecisions();
  run.applyEvents(std::vector<Event>(log.begin(), log.begin() + 2)); // the first decision arrives live
  AgentDecisionModel* model = panel.model();
  ASSERT_EQ(model->rowCount(), 4);
  EXPECT_EQ(model->chosenRow(), 1);
  const QStringList rules = {"fuse-conv-relu", "matmul-assoc", "stop", "ewadd-comm"};
  for (int row = 0; row < model->rowCount(); ++row) {
    EXPECT_EQ(model->index(row, AgentDecisionModel::Rule).data().toString(), rules[row]);
    EXPECT_EQ(model->index(row, AgentDecisionModel::Rule).data(AgentDecisionModel::ChosenRole).toBool(), row == 1);
    EXPECT_EQ(model->index(row, AgentDecisionModel::Chosen).data().toString().isEmpty(), row != 1);
  }
  EXPECT_EQ(model->index(0, AgentDecisionModel::Probability).data().toString(), "55.00 %");
  EXPECT_EQ(model->index(1, AgentDecisionModel::CostDelta).data().toString(), "+0.0030 ms");
  EXPECT_EQ(model->index(1, AgentDecisionModel::Location).data().toString(), "9, 10, 11");
  EXPECT_TRUE(model->index(1, AgentDecisionModel::Rule).data(Qt::FontRole).value<QFont>().bold());
  EXPECT_FALSE(model->index(0, AgentDecisionModel::Rule).data(Qt::FontRole).value<QFont>().bold());
  EXPECT_TRUE(panel.summary().contains("Step 0")) << panel.summary().toStdString();
  EXPECT_TRUE(panel.summary().contains("2.500")) << "the value estimate";
  EXPECT_TRUE(panel.summary().contains("matmul-assoc"));
  // The taken rewrite's ops of the model (op 9; 10 and 11 came from earlier rewrites) are marked.
  ASSERT_FALSE(marked.isEmpty());
  EXPECT_EQ(marked.last().at(0).value<std::vector<NodeId>>(), std::vector<NodeId>{9});
  EXPECT_FALSE(marked.last().at(1).toBool());

  run.applyEvents(std::vector<Event>(log.begin() + 2, log.end()));
  EXPECT_TRUE(panel.summary().contains("Step 1")) << panel.summary().toStdString();
  EXPECT_TRUE(panel.summary().contains("3.500"));

  // A person picking a row asks for that rewrite's ops, framed.
  panel.table()->selectRow(0);
  EXPECT_EQ(marked.last().at(0).value<std::vector<NodeId>>(), (std::vector<NodeId>{4, 5}));
  EXPECT_TRUE(marked.last().at(1).toBool());

  // A seek before the second decision shows the first again; before any, none.
  run.seekToIndex(2);
  EXPECT_TRUE(panel.summary().contains("Step 0")) << panel.summary().toStdString();
  run.seekToIndex(1);
  EXPECT_EQ(model->rowCount(), 0);
}

// Recorded in a session, read back and replayed: the same decision, as the live run showed it.
TEST(AgentDecisionPanel, ReplaysTheDecisionsASessionRecorded) {
  const std::string path = scratchDir() + "/agent.tsession";
  std::vector<Event> stored;
  {
    Session session = Session::create(path);
    Graph model;
    const NodeId x = model.addInput("x", TensorType{DType::Float32, {1, 4}});
    model.addOutput({model.addNode(OpKind::Relu, {{x}})}, "y");
    const int64_t runId = session.beginRun(RunInfo{session.addModel("m", "m.onnx", model), "xrlflow", {{"checkpoint", "a.ckpt"}}, 1, "analytic:h200"});
    const std::vector<Event> log = runWithDecisions();
    session.appendEvents(runId, log);
    stored = session.events(runId);
    ASSERT_EQ(stored.size(), log.size());
  }
  LiveRun run;
  AgentDecisionPanel panel;
  QObject::connect(&run, &LiveRun::stateChanged, &panel, &AgentDecisionPanel::showState);
  QObject::connect(&run, &LiveRun::reset, &panel, &AgentDecisionPanel::clear);
  run.loadEvents(stored);
  ASSERT_EQ(panel.model()->rowCount(), 4);
  const AgentDecided& shown = *panel.model()->decision();
  const AgentDecided expected = decisionAt(1);
  EXPECT_EQ(shown.step, expected.step);
  EXPECT_EQ(shown.value, expected.value);
  EXPECT_EQ(shown.listed, expected.listed);
  EXPECT_EQ(shown.candidates, expected.candidates);
  EXPECT_EQ(shown.chosen, expected.chosen);
  run.clear();
  EXPECT_EQ(panel.model()->rowCount(), 0);
}

TEST(TrainingCurveChart, DrawsOneLinePerReportWithAPointPerEpisode) {
  const std::string dir = scratchDir();
  std::vector<TrainingCurve> curves;
  const int episodes[] = {30, 45, 12};
  for (int seed = 1; seed <= 3; ++seed)
    curves.push_back(readTrainingCurve(writeFile(dir, "seed" + std::to_string(seed) + ".json", reportJson(seed, episodes[seed - 1]))));
  TrainingCurveChart chart;
  chart.resize(900, 500);
  chart.setCurves(curves);
  ASSERT_EQ(chart.seriesCount(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(chart.pointCount(i), episodes[i]);
    EXPECT_EQ(chart.seriesName(i), QStringLiteral("seed %1 · seed%1.json").arg(i + 1));
  }
  chart.setSmoothing(1);
  EXPECT_EQ(chart.pointCount(1), 45) << "smoothing keeps a point per episode";
  chart.setCurves({});
  EXPECT_EQ(chart.seriesCount(), 0);
}

TEST(TrainingCurveChart, TrailingMeanAveragesTheEpisodesUpToEachOne) {
  std::vector<EpisodeReward> episodes{{1, 2, ""}, {2, 4, ""}, {3, 6, ""}, {4, 10, ""}};
  EXPECT_EQ(trailingMean(episodes, 1), (std::vector<double>{2, 4, 6, 10}));
  EXPECT_EQ(trailingMean(episodes, 2), (std::vector<double>{2, 3, 5, 8}));
  EXPECT_EQ(trailingMean(episodes, 10), (std::vector<double>{2, 3, 4, 5.5}));
}

TEST(TrainingReport, BadReportsAreErrorsNamingTheFile) {
  const std::string dir = scratchDir();
  const std::pair<const char*, const char*> bad[] = {
      {"truncated.json", R"({"agent":"xrlflow","curve":[{"episode":1,"rew)"},
      {"array.json", "[1,2,3]"},
      {"nocurve.json", R"({"agent":"xrlflow","seed":1})"},
      {"emptycurve.json", R"({"curve":[]})"},
      {"textreward.json", R"({"curve":[{"episode":1,"reward":"lots"}]})"},
      {"entry.json", R"({"curve":[7]})"},
  };
  for (const auto& [name, text] : bad) {
    const std::string path = writeFile(dir, name, text);
    try {
      readTrainingCurve(path);
      ADD_FAILURE() << name << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(readTrainingCurve(dir + "/missing.json"), Error);
  EXPECT_THROW(readTrainingCurve(dir), Error) << "a directory";
}

TEST(TrainingCurvesPanel, ShowsTheGoodReportsAndNamesTheBadOne) {
  const std::string dir = scratchDir();
  const QString good = QString::fromStdString(writeFile(dir, "good.json", reportJson(2, 20)));
  const QString bad = QString::fromStdString(writeFile(dir, "broken-report.json", "{\"curve\": [ {\"reward\": 1}, "));
  TrainingCurvesPanel panel;
  panel.loadReports({good, bad}, /*replace=*/true);
  ASSERT_TRUE(waitForLoad(panel));
  EXPECT_EQ(panel.chart()->seriesCount(), 1);
  EXPECT_EQ(panel.chart()->pointCount(0), 20);
  EXPECT_TRUE(panel.errorText().contains("broken-report.json")) << panel.errorText().toStdString();

  // Adding keeps what is shown; a report shown already is replaced, not doubled.
  const QString other = QString::fromStdString(writeFile(dir, "other.json", reportJson(3, 7)));
  panel.loadReports({other, good}, /*replace=*/false);
  ASSERT_TRUE(waitForLoad(panel));
  EXPECT_EQ(panel.chart()->seriesCount(), 2);
  EXPECT_TRUE(panel.errorText().isEmpty()) << panel.errorText().toStdString();
}
