// Every drawn edge of the live e-graph view (e-node -> child e-class) in one item, so a 20,000-edge
// e-graph is one item to paint and its geometry is rebuilt once per update batch. Painting draws
// only the edges that cross the exposed area, and draws them without antialiasing when there are
// many: stroking every edge of a 50,000-node e-graph as one antialiased path held the UI thread
// for seconds.
#pragma once

#include <QGraphicsItem>
#include <QPen>
#include <QPointF>

#include <vector>

namespace tessera::views {

class EGraphEdgesItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 41 };
  struct Edge {
    QPointF from;
    QPointF to;
    bool curved = true; // a vertical S-curve; straight when the view is zoomed far out
    bool highlighted = false;
  };
  // Above this many edges in the exposed area, edges are drawn without antialiasing.
  static constexpr size_t kAntialiasedEdges = 1500;

  EGraphEdgesItem();
  int type() const override { return Type; }
  void setEdges(std::vector<Edge> edges);
  void setPens(QPen edge, QPen highlight);
  size_t edgeCount() const { return edges_.size(); }
  // The edges painted last time, for tests.
  size_t lastPaintedEdges() const { return lastPainted_; }

  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  std::vector<Edge> edges_;
  std::vector<QRectF> edgeBounds_; // per edge, what it covers (with its curve)
  QRectF bounds_;
  QPen edgePen_;
  QPen highlightPen_;
  size_t lastPainted_ = 0;
};

} // namespace tessera::views
