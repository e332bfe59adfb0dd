// The rules of a run as a table: name, labels, applications, new e-nodes, commits, cost effect, and
// pin / veto check boxes. Ticking a box does not change the run; it asks for the decision
// (pinRequested ...) and shows it as pending (partly checked) until the run records the decision
// (a UserDecision event), which is what the box then reflects.
#pragma once

#include "replay/ReplayState.h"
#include "rewrite/RuleSet.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <set>
#include <unordered_map>
#include <vector>

namespace tessera::views {

struct RuleInfo {
  QString name;
  QStringList labels;
  QString origin; // a synthesised rule's enumerated pattern pair; empty for hand-written rules
};
std::vector<RuleInfo> ruleInfos(const RuleSet& rules);

class RuleTableModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Name, Labels, Applications, NewNodes, Commits, CostEffect, Pinned, Vetoed, ColumnCount };

  explicit RuleTableModel(std::vector<RuleInfo> rules = {}, QObject* parent = nullptr);

  void setRules(std::vector<RuleInfo> rules);
  // Statistics and decisions as of `state`; rules the log names but the pack lacks are added.
  void showState(const ReplayState& state);
  int rowOf(const QString& rule) const; // -1 when unknown
  bool isPinned(const QString& rule) const { return pinned_.count(rule) != 0; }
  bool isVetoed(const QString& rule) const { return vetoed_.count(rule) != 0; }
  bool isPending(const QString& rule) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
  void pinRequested(const QString& rule);
  void unpinRequested(const QString& rule);
  void vetoRequested(const QString& rule);
  void unvetoRequested(const QString& rule);

private:
  std::vector<RuleInfo> rules_;
  std::unordered_map<QString, int> rowByName_;
  std::vector<RuleStatistics> stats_;
  std::set<QString> pinned_;
  std::set<QString> vetoed_;
  std::set<QString> pendingPin_;  // requested, not yet recorded
  std::set<QString> pendingVeto_;
};

} // namespace tessera::views
