// One decision of an RL agent as a table: its candidates, most probable first, with the rule, the
// probability, the cost change and where in the graph; the candidate it took is marked.
#pragma once

#include "events/Event.h"

#include <QAbstractTableModel>

#include <optional>

namespace tessera::views {

class AgentDecisionModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Chosen, Rule, Probability, CostDelta, Location, ColumnCount };
  // Qt::UserRole on any column: true for the row of the candidate the agent took.
  static constexpr int ChosenRole = Qt::UserRole + 1;
  // Qt::UserRole + 2: the candidate's probability as a number (the bar behind the p column).
  static constexpr int ProbabilityRole = Qt::UserRole + 2;

  explicit AgentDecisionModel(QObject* parent = nullptr);

  // Shows `decision`, or nothing.
  void setDecision(std::optional<AgentDecided> decision);
  const std::optional<AgentDecided>& decision() const { return decision_; }
  int chosenRow() const { return decision_ ? decision_->chosen : -1; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
  std::optional<AgentDecided> decision_;
};

// "12, 13, 40" (at most a few ids, then how many more).
QString nodeList(const std::vector<uint32_t>& nodes);

} // namespace tessera::views
