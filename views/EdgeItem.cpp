#include "EdgeItem.h"

#include "NodeItem.h"
#include "SceneStyle.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace tessera::views {

namespace {

constexpr double kArrowLength = 8;
constexpr double kLodLine = 0.06;  // a whole large model on screen: one segment per edge
constexpr double kLodCurve = 0.2;
constexpr double kLodArrow = 0.35;
constexpr double kLodLabel = 0.6;

QPolygonF arrowHead(QPointF base, QPointF tip) {
  QPointF direction = tip - base;
  double length = std::hypot(direction.x(), direction.y());
  if (length < 1e-6) return {};
  QPointF normal(-direction.y() / length, direction.x() / length);
  double halfWidth = length * 0.45;
  return QPolygonF{} << tip << base + normal * halfWidth << base - normal * halfWidth;
}

} // namespace

EdgeItem::EdgeItem(const SceneStyle* style, NodeItem* source, NodeItem* target, QPainterPath path,
                   std::optional<QPointF> arrowTip, QString shapeLabel)
    : style_(style), source_(source), target_(target), path_(std::move(path)) {
  if (!path_.isEmpty()) {
    QPointF end = path_.currentPosition();
    if (arrowTip) {
      arrow_ = arrowHead(end, *arrowTip);
    } else {
      // Unrouted by Graphviz: point the head along the last stretch of the path.
      QPointF before = path_.pointAtPercent(std::max(0.0, 1.0 - kArrowLength / std::max(1.0, path_.length())));
      arrow_ = arrowHead(before, end);
    }
  }
  coarse_.reserve(path_.elementCount());
  for (int i = 0; i < path_.elementCount(); ++i) coarse_ << QPointF(path_.elementAt(i));
  labelText_ = std::move(shapeLabel);
  setZValue(0);
  setAcceptedMouseButtons(Qt::NoButton);
  if (!labelText_.isEmpty()) setToolTip(labelText_);
  updateBounds();
}

void EdgeItem::prepareLabel() {
  if (labelPrepared_) return;
  labelPrepared_ = true;
  if (path_.isEmpty() || labelText_.isEmpty()) return;
  label_ = QStaticText(labelText_);
  label_.setTextFormat(Qt::PlainText);
  label_.prepare(QTransform(), style_->edgeLabelFont);
  // Past the middle: edges fanning out of one node have separated there, so labels collide less.
  QPointF anchor = path_.pointAtPercent(0.62);
  QSizeF size = label_.size() + QSizeF(6, 2);
  labelRect_ = QRectF(anchor + QPointF(4, -size.height() / 2), size);
}

void EdgeItem::updateBounds() {
  if (style_->showShapes) prepareLabel();
  QRectF bounds = path_.controlPointRect() | arrow_.boundingRect();
  if (style_->showShapes && !labelRect_.isNull()) bounds |= labelRect_;
  bounds_ = bounds.adjusted(-2, -2, 2, 2);
}

void EdgeItem::styleChanged() {
  prepareGeometryChange();
  updateBounds();
}

QRectF EdgeItem::boundingRect() const { return bounds_; }

QPainterPath EdgeItem::shape() const {
  if (hitShape_.isEmpty() && !path_.isEmpty()) {
    QPainterPathStroker stroker;
    stroker.setWidth(6);
    hitShape_ = stroker.createStroke(path_);
    hitShape_.addPolygon(arrow_);
  }
  return hitShape_;
}

bool EdgeItem::highlighted() const { return (source_ && source_->isSelected()) || (target_ && target_->isSelected()); }

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  if (path_.isEmpty()) return;
  const Theme& theme = style_->theme;
  double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
  bool emphasis = highlighted();
  QColor color = emphasis ? theme.edgeHighlight : theme.edge;
  // Set every painter state used: nothing is assumed from the item painted before.
  bool faded = style_->dimUnchanged && !emphasis && source_ && source_->diffStatus() == DiffStatus::Same && target_ &&
               target_->diffStatus() == DiffStatus::Same;
  painter->setOpacity(faded ? 0.4 : 1.0);
  QPen pen(color, emphasis ? 2.2 : 1.1);
  pen.setCosmetic(true); // a hairline stays visible far out and thin up close
  painter->setRenderHint(QPainter::Antialiasing, lod >= kLodArrow);
  painter->setPen(pen);
  painter->setBrush(Qt::NoBrush);
  if (lod < kLodLine) {
    painter->drawLine(coarse_.front(), coarse_.back());
    return;
  }
  if (lod < kLodCurve) {
    // A whole large model on screen: thousands of edges, each a pixel or two wide. Stroking the
    // polygon is several times cheaper than flattening the cubics, and looks the same there.
    painter->drawPolyline(coarse_);
    return;
  }
  painter->drawPath(path_);
  if (lod < kLodArrow) return;
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawPolygon(arrow_);

  if (style_->showShapes && lod >= kLodLabel && !labelRect_.isNull()) {
    QColor background = theme.background;
    background.setAlphaF(0.85f);
    painter->setBrush(background);
    painter->drawRoundedRect(labelRect_, 3, 3);
    painter->setPen(emphasis ? theme.edgeHighlight : theme.mutedText);
    painter->setFont(style_->edgeLabelFont);
    painter->drawStaticText(labelRect_.topLeft() + QPointF(3, 1), label_);
  }
}

} // namespace tessera::views
