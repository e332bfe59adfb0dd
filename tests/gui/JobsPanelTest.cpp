// The Jobs panel: it shows the shard board a launch's driver writes (state, node, retries, last
// word per shard), follows it while the driver works, and says why a directory holds no board.
#include "JobsPanel.h"
#include "ShardTableModel.h"

#include "launch/ShardBoard.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace tessera;

namespace {

launch::ShardBoard runningBoard() {
  launch::ShardBoard board{"slurm", "bench", {}, false, {}};
  board.shards.push_back({0, "squeezenet greedy seed 1", launch::ShardState::Done, "node1", 0, {}});
  board.shards.push_back({1, "squeezenet eqsat seed 1", launch::ShardState::Running, "node2", 1, "job 7_1 ended CANCELLED; resubmitting"});
  board.shards.push_back({2, "squeezenet mcts seed 1", launch::ShardState::Pending, {}, 0, "waiting: Resources"});
  return board;
}

QString cell(const views::ShardTableModel& model, int row, int column) { return model.data(model.index(row, column)).toString(); }

TEST(JobsPanel, ShowsTheBoardAndFollowsTheDriverUntilItFinishes) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  launch::ShardBoard board = runningBoard();
  launch::writeShardBoard(dir.path().toStdString(), board);

  gui::JobsPanel panel;
  QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_TRUE(panel.openWorkDir(dir.path())) << panel.errorText().toStdString();
  const views::ShardTableModel& model = *panel.model();
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::Name), "squeezenet eqsat seed 1");
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::State), "RUNNING");
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::Node), "node2");
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::Retries), "1");
  EXPECT_EQ(cell(model, 2, views::ShardTableModel::Note), "waiting: Resources");

  // The driver moves on: the panel reads the board again on its own.
  board.shards[1].state = launch::ShardState::Done;
  board.shards[1].note.clear();
  board.shards[2] = {2, "squeezenet mcts seed 1", launch::ShardState::Failed, "node1", 2, "exited 1 (see logs/shard-2.log)"};
  board.finished = true;
  launch::writeShardBoard(dir.path().toStdString(), board);
  EXPECT_TRUE(QTest::qWaitFor([&] { return cell(model, 2, views::ShardTableModel::State) == "FAILED"; }, 5000));
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::State), "DONE");
  EXPECT_EQ(cell(model, 2, views::ShardTableModel::Retries), "2");
}

// rl train --agent puct launches once per generation, each in a directory of its own below its
// --work-dir: opening that directory shows the generation at work and moves on to the next.
TEST(JobsPanel, ADirectoryOfLaunchesInARowShowsTheLatestAndFollowsTheNext) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  for (const char* launchDir : {"generation-1", "generation-2", "final"}) ASSERT_TRUE(QDir(dir.path()).mkdir(launchDir));
  launch::ShardBoard first = runningBoard();
  first.finished = true;
  launch::writeShardBoard((dir.path() + "/generation-1").toStdString(), first);
  QTest::qWait(20); // file times must tell the boards apart
  launch::ShardBoard second{"local", "rl train", {}, false, {}};
  second.shards.push_back({0, "games 1-2", launch::ShardState::Running, "localhost", 0, {}});
  launch::writeShardBoard((dir.path() + "/generation-2").toStdString(), second);

  gui::JobsPanel panel;
  ASSERT_TRUE(panel.openWorkDir(dir.path())) << panel.errorText().toStdString();
  const views::ShardTableModel& model = *panel.model();
  ASSERT_EQ(model.rowCount(), 1);
  EXPECT_EQ(cell(model, 0, views::ShardTableModel::Name), "games 1-2");

  second.shards[0].state = launch::ShardState::Done;
  second.finished = true;
  launch::writeShardBoard((dir.path() + "/generation-2").toStdString(), second);
  QTest::qWait(20);
  launch::ShardBoard last{"local", "rl train", {}, false, {}};
  last.shards.push_back({0, "final round", launch::ShardState::Pending, {}, 0, {}});
  last.shards.push_back({1, "final round 2", launch::ShardState::Pending, {}, 0, {}});
  launch::writeShardBoard((dir.path() + "/final").toStdString(), last);
  EXPECT_TRUE(QTest::qWaitFor([&] { return model.rowCount() == 2; }, 5000)) << "the panel moved on to the next launch";
  EXPECT_EQ(cell(model, 1, views::ShardTableModel::Name), "final round 2");
}

TEST(JobsPanel, ADirectoryWithoutABoardIsRefusedNamingTheFile) {
  QTemporaryDir dir;
  gui::JobsPanel panel;
  EXPECT_FALSE(panel.openWorkDir(dir.path()));
  EXPECT_TRUE(panel.errorText().contains(dir.path() + "/shards.json")) << panel.errorText().toStdString();
  EXPECT_EQ(panel.model()->rowCount(), 0);
}

} // namespace
