// What the graph and compare views show of the open model: the original, the last run's best and
// the candidate picked in the Candidates dock, each priced by the current cost model. Candidates
// load and every graph is (re)priced on workers; a later selection or cost model supersedes an
// older one still in flight.
#pragma once

#include "GraphSnapshot.h"
#include "ModelLoader.h"

#include <QList>
#include <QObject>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::views {
class CompareWidget;
class GraphView;
class PropertiesPanel;
} // namespace tessera::views

namespace tessera::gui {

class CandidatesPanel;
class RunPanel;
class SessionController;

class CandidatesController : public QObject {
  Q_OBJECT

public:
  CandidatesController(SessionController* session, CandidatesPanel* panel, RunPanel* runPanel, views::GraphView* graphView,
                       views::CompareWidget* compare, views::PropertiesPanel* properties, QObject* parent = nullptr);

  // A newly opened model: shown alone, no candidate, no best.
  void setOriginal(views::GraphSnapshot original);
  // A run's best (priced by the run's cost model) beside the original in the compare view.
  void showBest(views::GraphSnapshot best, const std::map<std::string, size_t>& rulesApplied, std::vector<NodeOrigin> origins);

  void onCandidatesSelected(const QList<qint64>& ids);
  void showOriginal();
  void compareWithOriginal(qint64 candidateId);
  void compareCandidates(qint64 left, qint64 right);
  // Reprices every graph on screen with `spec` on a worker.
  void onCostModelChanged(const QString& spec);
  // Times the two graphs of the compare view end to end on a worker ("Time end to end"): the
  // device's medians and speedup appear beside the cost model's prediction.
  void timeCompared();
  // What File ▸ Export writes: the candidate selected in the dock, else the run's best; null when
  // there is neither.
  std::shared_ptr<const Graph> exportedGraph() const;

  const views::GraphSnapshot& original() const { return original_; }
  bool hasShownCandidate() const { return shownCandidate_.graph != nullptr; }
  bool hasBest() const { return best_.graph != nullptr; }
  qint64 shownCandidateId() const { return shownCandidateId_; }
  // The node's origin in the shown candidate; nullptr when no candidate is shown or it has none.
  const NodeOrigin* originOf(qint64 node) const;
  size_t graphsLoaded() const { return graphsLoaded_; }
  bool isBusy() const { return loading_ || repricing_ || timing_; }

signals:
  void candidateShown(qint64 candidateId);
  void originalShown();
  void compareShown();
  void costsChanged(); // every graph on screen is priced by the new cost model
  void endToEndTimed(); // the compare view shows what the device measured
  void logged(const QString& line);
  void statusMessage(const QString& text, int timeoutMs);
  void failed(const QString& title, const QString& message);

private:
  // Loads candidates and prices them with the current cost model on a worker, then calls `show`
  // with them in the order asked (not at all on failure: the error is reported, or when a later
  // selection superseded this one).
  void load(const QList<qint64>& ids, std::function<void(std::vector<LoadedCandidate>)> show);
  void showCandidate(LoadedCandidate loaded);
  void showProperties(const views::GraphSnapshot& snapshot, qint64 node);
  views::GraphSnapshot originalAsBefore() const;
  // Tells the compare view where "Time end to end" runs for the current cost model.
  void showTimingBackend();

  SessionController* session_;
  CandidatesPanel* panel_;
  RunPanel* runPanel_;
  views::GraphView* graphView_;
  views::CompareWidget* compare_;
  views::PropertiesPanel* properties_;

  views::GraphSnapshot original_;
  views::GraphSnapshot best_;           // the last run's, when one finished on this model
  views::GraphSnapshot shownCandidate_; // the candidate in the graph view, when one is
  qint64 shownCandidateId_ = 0;
  std::vector<NodeOrigin> shownOrigins_; // per node of shownCandidate_, for "why this rewrite"
  int candidateGeneration_ = 0; // the newest candidate selection; older loads are dropped
  int repriceGeneration_ = 0;   // the newest cost-model change; older pricings are dropped
  bool loading_ = false;
  bool repricing_ = false;
  bool timing_ = false;
  bool timingQueued_ = false; // Time end to end asked for other graphs while timing_
  size_t graphsLoaded_ = 0;
};

} // namespace tessera::gui
