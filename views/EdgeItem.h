// One edge of a graph scene: the spline Graphviz routed, cached as a path, with an arrowhead and
// (on demand) the tensor shape it carries. Emphasised while either end is selected.
#pragma once

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QStaticText>

#include <optional>

namespace tessera::views {

struct SceneStyle;
class NodeItem;

class EdgeItem final : public QGraphicsItem {
public:
  enum { Type = UserType + 2 };

  EdgeItem(const SceneStyle* style, NodeItem* source, NodeItem* target, QPainterPath path,
           std::optional<QPointF> arrowTip, QString shapeLabel);

  int type() const override { return Type; }
  NodeItem* source() const { return source_; }
  NodeItem* target() const { return target_; }
  const QString& shapeLabel() const { return labelText_; }

  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  // Call after SceneStyle::showShapes changes: the label changes the bounding rect.
  void styleChanged();

private:
  bool highlighted() const;
  void updateBounds();
  void prepareLabel(); // text layout is costly for thousands of edges: done when first shown

  const SceneStyle* style_;
  NodeItem* source_;
  NodeItem* target_;
  QPainterPath path_;
  QPolygonF coarse_; // the path's control polygon: drawn instead of the curve when zoomed far out
  QPolygonF arrow_;
  QString labelText_;
  QStaticText label_;
  QRectF labelRect_;
  bool labelPrepared_ = false;
  QRectF bounds_;
  mutable QPainterPath hitShape_; // built on first hit test
};

} // namespace tessera::views
