#include "EGraphEdgesItem.h"

#include <QPainter>

namespace tessera::views {

void EGraphEdgesItem::setPaths(QPainterPath edges, QPainterPath highlighted, size_t edgeCount) {
  prepareGeometryChange();
  edges_ = std::move(edges);
  highlighted_ = std::move(highlighted);
  edgeCount_ = edgeCount;
  bounds_ = edges_.boundingRect().united(highlighted_.boundingRect()).adjusted(-4, -4, 4, 4);
}

void EGraphEdgesItem::setPens(QPen edge, QPen highlight) {
  edgePen_ = std::move(edge);
  highlightPen_ = std::move(highlight);
  update();
}

void EGraphEdgesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  painter->setBrush(Qt::NoBrush);
  painter->setPen(edgePen_);
  painter->drawPath(edges_);
  painter->setPen(highlightPen_);
  painter->drawPath(highlighted_);
}

} // namespace tessera::views
