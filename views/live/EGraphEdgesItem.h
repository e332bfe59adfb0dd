// Every drawn edge of the live e-graph view (e-node -> child e-class) as one cached path, so a
// 4,000-edge e-graph is one item to paint and the path is rebuilt once per update batch.
#pragma once

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPen>

namespace tessera::views {

class EGraphEdgesItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 41 };

  int type() const override { return Type; }
  void setPaths(QPainterPath edges, QPainterPath highlighted, size_t edgeCount);
  void setPens(QPen edge, QPen highlight);
  size_t edgeCount() const { return edgeCount_; }

  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
  QPainterPath edges_;
  QPainterPath highlighted_;
  QRectF bounds_;
  QPen edgePen_;
  QPen highlightPen_;
  size_t edgeCount_ = 0;
};

} // namespace tessera::views
