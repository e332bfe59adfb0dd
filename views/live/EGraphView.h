// The live e-graph: e-classes as rounded clusters of e-node chips, edges from an e-node to its child
// classes. Follows a run batch by batch (showState) without moving what is already on screen, flashes
// merges, marks the nodes of the latest step, and hides nothing silently: clusters say "+N more",
// linked classes that are not drawn are counted on the cluster, and the banner counts every hidden
// class by reason (filter, focus, item budget). Focus on a class and its k-neighbourhood to navigate
// a 50,000-node e-graph; filter by op or by the rule that created a node; collapse classes.
// Readable at any size: Fit never zooms out past a legible scale (it frames the latest step
// instead, and the overview in the corner shows where that lies in the whole), and far out each
// class is drawn as one label, its leading operator (semantic zoom).
#pragma once

#include "EGraphLayout.h"
#include "EGraphVisibility.h"
#include "EClassItem.h"
#include "replay/ReplayState.h"

#include <QWidget>

#include <set>
#include <unordered_map>

class QCheckBox;
class QComboBox;
class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QSpinBox;
class QTimer;

namespace tessera {
struct NodeOrigin;
}

namespace tessera::views {

class EGraphEdgesItem;
class MiniMap;

class EGraphView : public QWidget {
  Q_OBJECT
public:
  explicit EGraphView(QWidget* parent = nullptr);
  ~EGraphView() override;

  // What is on screen, for tests and the screenshot report.
  size_t shownClasses() const { return items_.size(); }
  size_t shownChips() const;
  size_t drawnEdges() const;
  // Every explicit "not shown" marker: clusters with "+N more" lines or hidden-link badges, plus
  // the banner when whole classes are hidden.
  size_t notShownMarkers() const;
  const EGraphVisibility& visibility() const { return visibility_; }
  QString bannerText() const;
  const EGraphFilter& filter() const { return filter_; }
  QGraphicsView* graphicsView() const { return view_; }
  EClassItem* itemFor(EClassId eclass) const;
  QPointF classPosition(EClassId eclass) const { return layout_.position(eclass); }
  const EGraphLayout& layout() const { return layout_; }
  // The smallest zoom Fit uses: class labels (semantic zoom) stay legible down to it.
  static constexpr double kReadableScale = 0.36;
  double zoom() const;
  bool overviewVisible() const;
  // Where Fit centres when the whole picture is too large to read: the classes the latest step
  // touched, else the newest class.
  QPointF pointOfInterest() const;

  // The extraction events do not name e-nodes, so the best candidate is highlighted through its
  // provenance: e-nodes created by a (rule, step) that one of the candidate's nodes came from.
  // (Not a slot: moc would need NodeOrigin complete.)
  void setHighlightedOrigins(const std::vector<NodeOrigin>& origins);

public slots:
  // Brings the view to `state` (a later moment of the same run is incremental; an earlier one
  // removes what did not exist yet). Call once per drained batch, not per event.
  void showState(const tessera::ReplayState& state);
  void clear();
  void setOpFilter(const QString& op);     // empty: all
  void setRuleFilter(const QString& rule); // empty: all; EGraphFilter::kOriginalRule: the model's own nodes
  void focusClass(tessera::EClassId eclass, int depth = 2);
  void clearFocus();
  void setClassBudget(size_t classes);
  void setShowWeights(bool show);
  void setCollapsed(tessera::EClassId eclass, bool collapsed);
  void fitToView();

signals:
  void classSelected(tessera::EClassId eclass);
  void nodeSelected(tessera::MirrorNodeId node); // index into EGraphMirror::nodes()
  void pinRequested(const QString& rule);
  void vetoRequested(const QString& rule);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  void refresh(); // re-applies filters to the last state
  void dropPicture(); // items, layout and flashes, not the filters
  void rebuildEdges();
  void updateOverview();
  void updateBanner();
  void updateFilterChoices();
  void stepFlashes();
  void contextMenuAt(QPoint viewportPos, QPoint globalPos);
  EClassItem* classItemAt(QPoint viewportPos) const;

  const ReplayState* state_ = nullptr; // owned by the caller (LiveRun); valid until the next showState
  EGraphStyle style_;
  EGraphLayout layout_;
  EGraphFilter filter_;
  EGraphVisibility visibility_;
  std::unordered_map<EClassId, EClassItem*> items_;
  std::set<EClassId> collapsed_;
  std::set<std::pair<std::string, int>> highlightedOrigins_;
  std::unordered_map<EClassId, double> flashing_;
  EGraphEdgesItem* edges_ = nullptr;
  uint64_t seenUpTo_ = 0; // nextSequence of the previous state shown
  size_t opsScanned_ = 0; // e-nodes already looked at for the op filter's choices
  int shownEpoch_ = 0;     // the mirror epoch the items were laid out for
  bool framed_ = false;
  bool fitted_ = false; // the last framing was fitToView's, not the user's zoom

  QGraphicsScene* scene_;
  QGraphicsView* view_;
  MiniMap* overview_;
  QComboBox* opFilter_;
  QComboBox* ruleFilter_;
  QSpinBox* focusDepth_;
  QCheckBox* weights_;
  QLabel* banner_;
  QTimer* flashTimer_;
  QStringList knownOps_;
  QStringList knownRules_;
};

} // namespace tessera::views
