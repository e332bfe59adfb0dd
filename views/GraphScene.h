// A graph as a QGraphicsScene: one NodeItem per visible node (weights only on request), one
// EdgeItem per edge, graph outputs as pseudo-nodes. Layout runs on a worker thread; the items are
// rebuilt on the UI thread when it arrives, and modes (heat map, marks, search) repaint in place.
#pragma once

#include "GraphDiff.h"
#include "GraphSnapshot.h"
#include "SceneStyle.h"

#include <QGraphicsScene>

#include <optional>
#include <vector>

class QPalette;

namespace tessera::views {

class NodeItem;
class EdgeItem;
struct LayoutResult;

class GraphScene : public QGraphicsScene {
  Q_OBJECT

public:
  explicit GraphScene(QObject* parent = nullptr);
  ~GraphScene() override;

  // Shows `snapshot`: items appear when its layout is done (layoutFinished).
  void setSnapshot(GraphSnapshot snapshot);
  const GraphSnapshot& snapshot() const { return snapshot_; }
  // New costs for the same graph (another cost model): repaints, no new layout.
  void setCosts(const GraphSnapshot& priced);
  void clearGraph();

  void setShowWeights(bool show); // lays out again
  bool showWeights() const { return showWeights_; }
  void setShowShapes(bool show);
  bool showShapes() const { return style_.showShapes; }
  void setHeatMap(bool on);
  bool heatMap() const { return style_.heatMap; }
  // Compare marks per graph node id (empty: none); `dimUnchanged` fades Same nodes.
  void setDiffMarks(std::vector<DiffStatus> marks, bool dimUnchanged);
  void setSearchMatches(const std::vector<NodeId>& nodes);
  void setTheme(const QPalette& palette);
  const SceneStyle& style() const { return style_; }

  bool isNodeVisible(NodeId node) const; // shown under the current settings (even before layout)
  NodeItem* itemForNode(NodeId node) const; // nullptr when hidden or not laid out yet
  const std::vector<NodeItem*>& nodeItems() const { return nodeItems_; } // graph nodes only
  const std::vector<EdgeItem*>& edgeItems() const { return edgeItems_; }
  int visibleNodeCount() const { return static_cast<int>(nodeItems_.size()); }
  double maxNodeMs() const { return maxNodeMs_; }

  std::optional<NodeId> selectedNode() const;
  void selectNode(std::optional<NodeId> node);

  bool isLayingOut() const { return layingOut_; }
  double lastLayoutSeconds() const { return layoutSeconds_; }   // Graphviz
  double lastBuildSeconds() const { return buildSeconds_; }     // items on the UI thread
  QRectF graphBounds() const { return graphBounds_; }

signals:
  void layoutStarted();
  void layoutFinished();
  void layoutFailed(const QString& message);
  // -1 when nothing (or a pseudo-node) is selected.
  void selectedNodeChanged(qint64 node);
  // Colours, marks or modes changed without a new layout (the minimap re-renders).
  void appearanceChanged();

private:
  struct PendingLayout;
  void startLayout();
  void buildItems(const PendingLayout& pending, const LayoutResult& layout);
  void applyHeat();
  void applyMarks();

  SceneStyle style_;
  GraphSnapshot snapshot_;
  bool showWeights_ = false;
  std::vector<DiffStatus> marks_;
  std::vector<NodeId> searchMatches_;
  std::vector<NodeItem*> nodeItems_;
  std::vector<NodeItem*> itemByNode_; // indexed by node id
  std::vector<EdgeItem*> edgeItems_;
  double maxNodeMs_ = 0;
  int generation_ = 0;
  bool layingOut_ = false;
  double layoutSeconds_ = 0;
  double buildSeconds_ = 0;
  QRectF graphBounds_;
  std::optional<NodeId> pendingSelection_;
};

} // namespace tessera::views
