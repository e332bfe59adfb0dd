// The computation-graph view: a QGraphicsView over a GraphScene with zoom (wheel), pan (drag),
// fit, a minimap, a heat-map legend and a find bar (Ctrl+F). Measures its own frame times.
#pragma once

#include "ir/Graph.h"

#include <QGraphicsView>

#include <deque>
#include <vector>

class QLabel;

namespace tessera::views {

class GraphScene;
class HeatLegend;
class MiniMap;
class SearchBar;

struct FrameStats {
  int frames = 0;
  double meanMs = 0;
  double maxMs = 0;
  double p95Ms = 0;
};

class GraphView : public QGraphicsView {
  Q_OBJECT

public:
  explicit GraphView(QWidget* parent = nullptr);

  GraphScene* graphScene() const { return scene_; }

  double zoom() const;
  void setZoom(double zoom);          // keeps the view's centre
  void zoomBy(double factor);
  void fitToView();                   // the whole graph, never magnified past 100 %
  void actualSize();                  // 100 %
  void frameInitially();              // fit when readable, else readable at the graph's inputs
  void centerOnNode(NodeId node, bool select);
  // Frames these nodes (never magnified past 100 %) and selects the first; false when none is shown.
  bool focusNodes(const std::vector<NodeId>& nodes);
  QPointF viewCenter() const;

  void setMiniMapVisible(bool visible);
  bool miniMapVisible() const { return miniMapWanted_; }
  void setPlaceholderText(const QString& text); // shown while there is no graph

  // Find (Ctrl+F is bound by the main window to the focused view's showSearch).
  void showSearch();
  void closeSearch();
  void search(const QString& query);  // marks every match and moves to the first
  void stepSearch(bool backwards);
  const std::vector<NodeId>& searchResults() const { return searchResults_; }
  int currentSearchIndex() const { return searchIndex_; }

  FrameStats frameStats() const;
  void resetFrameStats() { frameMs_.clear(); }

signals:
  // The visible region moved or was zoomed (for the minimap and for synchronised views).
  void viewportChanged();

protected:
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

private:
  void onLayoutFinished();
  void placeOverlays();
  SearchBar& searchBar();
  bool searchShown() const;
  void updateOverlays();

  GraphScene* scene_;
  MiniMap* miniMap_;
  HeatLegend* legend_;
  SearchBar* searchBar_ = nullptr; // see searchBar()
  QLabel* placeholder_;
  QString placeholderText_;
  QString layoutProblem_;
  bool miniMapWanted_ = true;
  const void* framedGraph_ = nullptr; // the graph the view was last framed for
  std::vector<NodeId> searchResults_;
  int searchIndex_ = -1;
  std::deque<double> frameMs_;
};

} // namespace tessera::views
