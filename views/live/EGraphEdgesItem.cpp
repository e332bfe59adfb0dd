#include "EGraphEdgesItem.h"

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

// How far an S-curve's control points reach beyond its end points, vertically.
double bendOf(const EGraphEdgesItem::Edge& edge) { return std::max(30.0, std::abs(edge.to.y() - edge.from.y()) * 0.4); }

void addEdge(QPainterPath& path, const EGraphEdgesItem::Edge& edge) {
  path.moveTo(edge.from);
  if (!edge.curved) {
    path.lineTo(edge.to);
    return;
  }
  const double bend = bendOf(edge);
  path.cubicTo(edge.from + QPointF(0, -bend), edge.to + QPointF(0, bend), edge.to);
}

} // namespace

EGraphEdgesItem::EGraphEdgesItem() { setFlag(ItemUsesExtendedStyleOption); } // for exposedRect

void EGraphEdgesItem::setEdges(std::vector<Edge> edges) {
  prepareGeometryChange();
  edges_ = std::move(edges);
  edgeBounds_.clear();
  edgeBounds_.reserve(edges_.size());
  bounds_ = QRectF();
  for (const Edge& edge : edges_) {
    QRectF covered = QRectF(edge.from, edge.to).normalized();
    if (edge.curved) covered.adjust(0, -bendOf(edge), 0, bendOf(edge));
    covered.adjust(-3, -3, 3, 3); // the pen's width
    edgeBounds_.push_back(covered);
    bounds_ = bounds_.united(covered);
  }
}

void EGraphEdgesItem::setPens(QPen edge, QPen highlight) {
  edgePen_ = std::move(edge);
  highlightPen_ = std::move(highlight);
  update();
}

void EGraphEdgesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const QRectF exposed = option->exposedRect;
  QPainterPath normal;
  QPainterPath highlighted;
  size_t painted = 0;
  for (size_t i = 0; i < edges_.size(); ++i) {
    if (!edgeBounds_[i].intersects(exposed)) continue;
    addEdge(edges_[i].highlighted ? highlighted : normal, edges_[i]);
    ++painted;
  }
  lastPainted_ = painted;
  painter->setRenderHint(QPainter::Antialiasing, painted <= kAntialiasedEdges);
  painter->setBrush(Qt::NoBrush);
  painter->setPen(edgePen_);
  painter->drawPath(normal);
  painter->setPen(highlightPen_);
  painter->drawPath(highlighted);
}

} // namespace tessera::views
