// Side-by-side compare of two graphs (original vs optimised, or two candidates): both laid out,
// nodes marked added / removed / changed, navigation and selection kept in step through matched
// nodes, and a summary: cost delta, op counts per kind, the changed regions with their cost before
// and after (selecting one frames it on both sides), and the rules behind the difference.
#pragma once

#include "ChangedRegions.h"
#include "GraphDiff.h"
#include "GraphSnapshot.h"

#include "cost/EndToEndComparison.h"

#include <QWidget>

#include <map>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QLabel;
class QTreeWidget;
class QTableView;

namespace tessera::views {

class GraphView;
class MeasuredLatencyBar;
class OpCountDiffModel;
class RegionDeltaModel;

class CompareWidget : public QWidget {
  Q_OBJECT

public:
  explicit CompareWidget(QWidget* parent = nullptr);
  ~CompareWidget() override;

  // `rulesApplied`: rule name -> applications during the run that produced `after` (may be empty).
  // `afterOrigins`: the provenance of each node of `after` (may be empty); when given, the rules
  // list counts the changed nodes each rule created instead of the run's applications.
  void setGraphs(GraphSnapshot before, GraphSnapshot after, const std::map<std::string, size_t>& rulesApplied);
  void setGraphs(GraphSnapshot before, GraphSnapshot after, const std::map<std::string, size_t>& rulesApplied,
                 std::vector<NodeOrigin> afterOrigins);
  // Same graphs, priced by another cost model.
  void setCosts(const GraphSnapshot& before, const GraphSnapshot& after);
  // Where "Time end to end" would run ("cpu"); empty, with why, when nowhere. Kept across graphs.
  void setTimingBackend(const QString& backend, const QString& why = {});
  // The two graphs on screen timed end to end (the before graph as the original).
  void setMeasured(const EndToEndComparison& comparison);
  MeasuredLatencyBar* measuredBar() const { return measured_; }
  void clear();
  bool hasGraphs() const;

  GraphView* beforeView() const { return before_; }
  GraphView* afterView() const { return after_; }
  const GraphDiff& diff() const { return diff_; }
  // The provenance of each node of the after graph, as given to setGraphs (empty when none was).
  const std::vector<NodeOrigin>& afterOrigins() const { return afterOrigins_; }
  OpCountDiffModel* opCounts() const { return opCounts_; }
  RegionDeltaModel* regions() const { return regions_; }
  QTableView* regionTable() const { return regionTable_; }
  // Frames region `row` of regions() in both views; false for a bad row.
  bool focusRegion(int row);
  // rule -> count shown in the rules list (nodes created, or applications without provenance).
  std::vector<std::pair<QString, int>> ruleRows() const;
  int itemsShown() const;
  void setSynchronized(bool on);

signals:
  // A node was selected on one side (0: before, 1: after); -1 when the selection was cleared.
  void nodeSelected(int side, qint64 node);

private:
  void syncView(bool fromBefore);
  void syncSelection(bool fromBefore, qint64 node);
  void updateSummary();
  void updateTitles();
  void updateRegions();
  void fillRules();

  GraphView* before_;
  GraphView* after_;
  QLabel* beforeTitle_;
  QLabel* afterTitle_;
  QLabel* summary_;
  MeasuredLatencyBar* measured_;
  QString timingBackend_, noTimingBecause_;
  QCheckBox* sync_;
  QTableView* table_;
  QTreeWidget* rules_;
  QTableView* regionTable_;
  OpCountDiffModel* opCounts_;
  RegionDeltaModel* regions_;
  GraphDiff diff_;
  std::map<std::string, size_t> rulesApplied_;
  std::vector<NodeOrigin> afterOrigins_;
  bool syncing_ = false;
};

} // namespace tessera::views
