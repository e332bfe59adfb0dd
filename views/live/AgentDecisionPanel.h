// The "Agent decision" dock: what an RL agent (X-RLflow) weighed at the step the live views show —
// its value estimate and its most probable rewrites, the one it took marked — from the run's
// AgentDecided events, so a live run and a replayed one look the same. Selecting a row asks for
// that rewrite's ops to be shown in the model's graph.
#pragma once

#include "events/Event.h"
#include "ir/Graph.h"

#include <QWidget>

#include <cstddef>
#include <cstdint>
#include <vector>

class QLabel;
class QTableView;

namespace tessera {
struct ReplayState;
}

namespace tessera::views {

class AgentDecisionModel;

class AgentDecisionPanel : public QWidget {
  Q_OBJECT
public:
  explicit AgentDecisionPanel(QWidget* parent = nullptr);

  AgentDecisionModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString summary() const; // the text above the table, for tests

public slots:
  // The last decision at or before the state's moment; nothing when the run has none.
  void showState(const tessera::ReplayState& state);
  // Another log replaces the run's (LiveRun::reset).
  void clear();

signals:
  // Ops of the model's own graph (original ids) to mark: the taken rewrite's whenever the decision
  // shown changes, a selected row's when a person picks one (`focus`: frame them too).
  void opsHighlighted(const std::vector<tessera::NodeId>& originalOps, bool focus);

private:
  void showDecision(const AgentDecided* decision);
  void highlightRow(int row, bool focus);

  AgentDecisionModel* model_;
  QTableView* table_;
  QLabel* summary_;
  QLabel* where_;
  size_t shownCount_ = SIZE_MAX; // decisions in the state shown (the last is shown); MAX: none yet
};

} // namespace tessera::views
