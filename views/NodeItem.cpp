#include "NodeItem.h"

#include "EdgeItem.h"
#include "SceneStyle.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace tessera::views {

namespace {

constexpr double kPaddingX = 10;
constexpr double kPaddingY = 5;
constexpr double kLineGap = 1;
constexpr double kMinWidth = 54;
constexpr double kMarkWidth = 3;   // compare marks and search halo
constexpr double kBadgeRadius = 7;

// Level-of-detail thresholds: below them text would be a few pixels tall and only costs time.
constexpr double kLodShapes = 0.28;
constexpr double kLodTitle = 0.45;
constexpr double kLodDetail = 0.7;

QPainterPath outlineFor(NodeShape shape, const QRectF& r) {
  QPainterPath path;
  switch (shape) {
  case NodeShape::RoundedBox: path.addRoundedRect(r, 5, 5); break;
  case NodeShape::Box: path.addRect(r); break;
  case NodeShape::Pill: path.addRoundedRect(r, r.height() / 2, r.height() / 2); break;
  case NodeShape::Ellipse: path.addEllipse(r); break;
  case NodeShape::Hexagon: {
    double inset = std::min(r.height() / 2, r.width() / 4);
    QPolygonF hexagon;
    hexagon << QPointF(r.left() + inset, r.top()) << QPointF(r.right() - inset, r.top()) << QPointF(r.right(), r.center().y())
            << QPointF(r.right() - inset, r.bottom()) << QPointF(r.left() + inset, r.bottom()) << QPointF(r.left(), r.center().y());
    path.addPolygon(hexagon);
    path.closeSubpath();
    break;
  }
  }
  return path;
}

QStaticText preparedText(const QString& text, const QFont& font) {
  QStaticText staticText(text);
  staticText.setTextFormat(Qt::PlainText);
  staticText.setPerformanceHint(QStaticText::AggressiveCaching);
  staticText.prepare(QTransform(), font);
  return staticText;
}

} // namespace

NodeShape NodeItem::shapeFor(NodeRole role, OpCategory category) {
  switch (role) {
  case NodeRole::Input:
  case NodeRole::Output: return NodeShape::Pill;
  case NodeRole::Weight: return NodeShape::Box;
  case NodeRole::Op: return categoryShape(category);
  }
  return NodeShape::RoundedBox;
}

QSizeF NodeItem::sizeFor(const SceneStyle& style, NodeRole role, const QString& title, const QString& detail) {
  QFontMetricsF titleMetrics(style.titleFont);
  QFontMetricsF detailMetrics(style.detailFont);
  double width = titleMetrics.horizontalAdvance(title);
  double height = titleMetrics.height();
  if (!detail.isEmpty()) {
    width = std::max(width, detailMetrics.horizontalAdvance(detail));
    height += kLineGap + detailMetrics.height();
  }
  width += 2 * kPaddingX;
  height += 2 * kPaddingY;
  if (role == NodeRole::Input || role == NodeRole::Output) width += height * 0.6; // the pill's round ends
  return {std::max(kMinWidth, std::ceil(width)), std::ceil(height)};
}

QSizeF NodeItem::outlineSize(NodeShape shape, QSizeF size) {
  if (shape == NodeShape::Ellipse) size.rwidth() *= 1.25;
  if (shape == NodeShape::Hexagon) size.rwidth() += size.height() * 0.6;
  return size;
}

NodeItem::NodeItem(const SceneStyle* style, NodeRole role, OpCategory category, NodeId node, QString title, QString detail,
                   QSizeF size)
    : style_(style), role_(role), category_(category), node_(node) {
  NodeShape shape = shapeFor(role, category);
  size = outlineSize(shape, size);
  rect_ = QRectF(QPointF(-size.width() / 2, -size.height() / 2), size);
  outline_ = outlineFor(shape, rect_);
  title_ = preparedText(title, style->titleFont);
  if (!detail.isEmpty()) detail_ = preparedText(detail, style->detailFont);
  titleHeight_ = QFontMetricsF(style->titleFont).height();
  detailHeight_ = QFontMetricsF(style->detailFont).height();
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(false);
  setZValue(1);
}

QRectF NodeItem::boundingRect() const {
  double margin = kMarkWidth + 2 + (diff_ && *diff_ != DiffStatus::Same ? kBadgeRadius : 0);
  return rect_.adjusted(-margin, -margin, margin, margin);
}

QPainterPath NodeItem::shape() const { return outline_; }

QColor NodeItem::fillColor() const {
  bool dark = style_->theme.dark;
  if (role_ == NodeRole::Input || role_ == NodeRole::Output) return inputColor(dark);
  if (role_ == NodeRole::Weight) return weightColor(dark);
  if (style_->heatMap) return free_ ? freeOpColor(dark) : heatColor(heat_, dark);
  return categoryColor(category_, dark);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
  const Theme& theme = style_->theme;
  double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
  QColor fill = fillColor();
  bool marked = diff_ && *diff_ != DiffStatus::Same;
  QColor mark = !marked ? QColor() : *diff_ == DiffStatus::Added ? theme.added : *diff_ == DiffStatus::Removed ? theme.removed : theme.changed;
  // Set every painter state used: nothing is assumed from the item painted before.
  bool faded = style_->dimUnchanged && diff_ && *diff_ == DiffStatus::Same && !isSelected();
  painter->setOpacity(faded ? 0.4 : 1.0);
  painter->setRenderHint(QPainter::Antialiasing, lod >= kLodShapes);

  if (lod < kLodShapes) {
    // Far out: a flat box per node, with marks kept visible by cosmetic (screen-width) pens.
    painter->fillRect(rect_, fill);
    QColor outlineColor = isSelected() ? theme.selection : marked ? mark : searchMatch_ ? theme.searchMatch : QColor();
    if (outlineColor.isValid()) {
      QPen pen(outlineColor, 3);
      pen.setCosmetic(true);
      painter->setPen(pen);
      painter->setBrush(Qt::NoBrush);
      painter->drawRect(rect_);
    }
    return;
  }

  if (searchMatch_) {
    painter->setPen(QPen(theme.searchMatch, 2 * kMarkWidth + 2));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(outline_);
  }
  QPen border(isSelected() ? theme.selection : marked ? mark : fill.darker(theme.dark ? 70 : 135),
              isSelected() || marked ? kMarkWidth : 1);
  if (role_ == NodeRole::Weight || category_ == OpCategory::Opaque) border.setStyle(Qt::DashLine);
  if (isSelected() || marked) border.setStyle(Qt::SolidLine);
  painter->setPen(border);
  painter->setBrush(fill);
  painter->drawPath(outline_);

  if (lod >= kLodTitle) {
    QColor textColor = textColorOn(fill);
    bool withDetail = lod >= kLodDetail && !detail_.text().isEmpty();
    double detailHeight = withDetail ? detailHeight_ + kLineGap : 0;
    double top = -(titleHeight_ + detailHeight) / 2;
    painter->setPen(textColor);
    painter->setFont(style_->titleFont);
    painter->drawStaticText(QPointF(-title_.size().width() / 2, top), title_);
    if (withDetail) {
      QColor muted = textColor;
      muted.setAlphaF(0.78f);
      painter->setPen(muted);
      painter->setFont(style_->detailFont);
      painter->drawStaticText(QPointF(-detail_.size().width() / 2, top + titleHeight_ + kLineGap), detail_);
    }
  }
  if (marked && lod >= kLodTitle) {
    QChar symbol = *diff_ == DiffStatus::Added ? QChar('+') : *diff_ == DiffStatus::Removed ? QChar(0x2212) : QChar('~');
    paintBadge(painter, mark, symbol);
  }
}

void NodeItem::paintBadge(QPainter* painter, const QColor& color, QChar symbol) const {
  QPointF center(rect_.right() - 1, rect_.top() + 1);
  QRectF badge(center - QPointF(kBadgeRadius, kBadgeRadius), QSizeF(2 * kBadgeRadius, 2 * kBadgeRadius));
  painter->setPen(Qt::NoPen);
  painter->setBrush(color);
  painter->drawEllipse(badge);
  QFont font = style_->titleFont;
  font.setBold(true);
  painter->setFont(font);
  painter->setPen(Qt::white);
  painter->drawText(badge, Qt::AlignCenter, QString(symbol));
}

void NodeItem::setHeat(double fraction, bool free) {
  if (heat_ == fraction && free_ == free) return;
  heat_ = fraction;
  free_ = free;
  update();
}

void NodeItem::setDiffStatus(std::optional<DiffStatus> status) {
  if (diff_ == status) return;
  prepareGeometryChange(); // the badge widens the bounding rect
  diff_ = status;
}

void NodeItem::setSearchMatch(bool match) {
  if (searchMatch_ == match) return;
  searchMatch_ = match;
  update();
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
  if (change == ItemSelectedHasChanged) {
    setZValue(value.toBool() ? 2 : 1);
    for (EdgeItem* edge : edges_) edge->update();
  }
  return QGraphicsItem::itemChange(change, value);
}

} // namespace tessera::views
