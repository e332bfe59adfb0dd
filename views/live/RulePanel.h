// The rule panel: every rule of the pack with its labels and what it has done so far (applications,
// new e-nodes, commits, cost effect), pin and veto boxes, a filter, and the run controls (pause,
// resume, single step, stop). It only asks: every request goes out as a signal for the search
// runner's Control, and the table reflects decisions once the run records them (UserDecision).
#pragma once

#include "RuleTableModel.h"
#include "replay/ReplayState.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace tessera::views {

class RulePanel : public QWidget {
  Q_OBJECT
public:
  explicit RulePanel(std::vector<RuleInfo> rules = {}, QWidget* parent = nullptr);

  RuleTableModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QString statusText() const;
  QPushButton* pauseButton() const { return pause_; }
  QPushButton* resumeButton() const { return resume_; }
  QPushButton* stepButton() const { return step_; }
  QPushButton* stopButton() const { return stop_; }

public slots:
  void setRules(std::vector<tessera::views::RuleInfo> rules);
  void showState(const tessera::ReplayState& state);
  void setFilterText(const QString& text); // matches names and labels
  // Context menus of the e-graph and tree views route here, so the table shows the request too.
  void requestPin(const QString& rule);
  void requestVeto(const QString& rule);

signals:
  void pinRequested(const QString& rule);
  void unpinRequested(const QString& rule);
  void vetoRequested(const QString& rule);
  void unvetoRequested(const QString& rule);
  void pauseRequested();
  void resumeRequested();
  void stepRequested();
  void stopRequested();

private:
  RuleTableModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLineEdit* filter_;
  QPushButton* pause_;
  QPushButton* resume_;
  QPushButton* step_;
  QPushButton* stop_;
  QLabel* status_;
};

} // namespace tessera::views
