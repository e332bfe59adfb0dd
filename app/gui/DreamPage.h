// The Dream tab (issue #33), beside Training: from the graph the Graph view shows, an RLFlow
// agent's imagined rollout beside the real one on the same actions (core/rlflow/RlflowDreamTrace):
// reward per step (real, dreamt open loop, predicted one step at a time), valid actions per step
// (real, in the dream's predicted mask), and a table of every step, so a person sees where the
// world model's imagination departs from reality. Greedy or the shipped X-RLflow agent may play
// the real rollout instead, to show what the world model imagines of their paths. The trace runs
// on a worker, a row a real step; it is made when the tab is first shown and again on Dream.
// Needs a build with libtorch.
#pragma once

#include "GraphSnapshot.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace tessera::views {
class SeriesChart;
}

namespace tessera::gui {

class DreamTraceModel;

class DreamPage : public QWidget {
  Q_OBJECT
public:
  explicit DreamPage(QWidget* parent = nullptr);

  // Where a trace starts: the graph the Graph view shows when the trace is asked for.
  void setGraphSource(std::function<views::GraphSnapshot()> source) { source_ = std::move(source); }
  // The Graph view shows another graph: traced at once while the tab is shown, else when it is.
  void graphShown();
  void setCheckpoint(const QString& path); // empty: the shipped agent
  QString checkpoint() const { return checkpoint_; }
  // Starts a trace on a worker; false, with the reason in statusText(), when none can start.
  bool trace();
  bool isBusy() const { return busy_; }
  int stepsShown() const; // rows of the table
  QString statusText() const;
  views::SeriesChart* rewardChart() const { return rewards_; }
  views::SeriesChart* actionsChart() const { return actions_; }

signals:
  // A trace ended; `error` is empty when it was made.
  void traced(const QString& error);

protected:
  void showEvent(QShowEvent* event) override;

private:
  void build();
  void chooseCheckpoint();
  void showCharts();
  void finish(const QString& summary, const QString& error);

  std::function<views::GraphSnapshot()> source_;
  std::shared_ptr<const Graph> lastTraced_; // the start of the trace shown (or being made)
  QString startTitle_;
  QString player_; // who plays the trace shown (or being made)
  QString checkpoint_;
  bool busy_ = false;
  QLabel* agent_ = nullptr;
  QComboBox* policy_ = nullptr; // who plays the real rollout
  QSpinBox* steps_ = nullptr;
  QPushButton* dream_ = nullptr;
  QLabel* status_ = nullptr;
  views::SeriesChart* rewards_ = nullptr;
  views::SeriesChart* actions_ = nullptr;
  QTableView* table_ = nullptr;
  DreamTraceModel* model_ = nullptr;
};

} // namespace tessera::gui
