#include "EClassItem.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace tessera::views {

namespace {
constexpr double kPad = 5;
constexpr double kTitleHeight = 15;
constexpr double kChipHeight = 17;
constexpr double kChipGap = 3;
} // namespace

EClassItem::EClassItem(const EGraphStyle* style, EClassId eclass, QSizeF size)
    : style_(style), eclass_(eclass), size_(size) {
  setFlag(ItemIsSelectable);
  setAcceptHoverEvents(false);
}

void EClassItem::setNodes(std::vector<ENodeChip> chips) {
  chips_ = std::move(chips);
  update();
}

void EClassItem::setHiddenNeighbours(uint32_t count) {
  if (count == hiddenNeighbours_) return;
  hiddenNeighbours_ = count;
  update();
}

void EClassItem::setWeightInputs(uint32_t count) {
  if (count == weightInputs_) return;
  weightInputs_ = count;
  update();
}

void EClassItem::setCollapsed(bool collapsed) {
  if (collapsed == collapsed_) return;
  collapsed_ = collapsed;
  update();
}

void EClassItem::setFlash(double strength) {
  flash_ = std::clamp(strength, 0.0, 1.0);
  update();
}

void EClassItem::setFocused(bool focused) {
  if (focused == focused_) return;
  focused_ = focused;
  update();
}

const ENodeChip* EClassItem::leadingChip() const {
  // The class reads as its first operator; a class of weights or inputs as its first leaf.
  for (const ENodeChip& chip : chips_)
    if (!chip.leaf && !chip.dimmed) return &chip;
  for (const ENodeChip& chip : chips_)
    if (!chip.leaf) return &chip;
  return chips_.empty() ? nullptr : &chips_.front();
}

QColor EClassItem::summaryColor() const {
  const ENodeChip* lead = leadingChip();
  if (!lead) return style_->theme.mutedText;
  if (lead->highlighted) return style_->theme.searchMatch;
  return lead->leaf ? weightColor(style_->theme.dark) : categoryColor(lead->category, style_->theme.dark);
}

bool EClassItem::hasFreshNode() const {
  return std::any_of(chips_.begin(), chips_.end(), [](const ENodeChip& chip) { return chip.fresh; });
}

void EClassItem::paintSummary(QPainter* painter, double lod) {
  // Semantic zoom: too far out for chips, the class is one label (its leading operator and how
  // many more e-nodes it holds) drawn at a size that stays legible on screen; further out only the
  // colour remains.
  const Theme& theme = style_->theme;
  const ENodeChip* lead = leadingChip();
  if (!lead) return;
  QColor color = lead->leaf ? weightColor(theme.dark) : categoryColor(lead->category, theme.dark);
  if (lead->dimmed) color.setAlphaF(0.35);
  if (hasFreshNode()) {
    painter->setPen(QPen(theme.added, 3.0 / std::max(lod, 0.05)));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(QRectF(QPointF(0, 0), size_), 10, 10);
  }
  const QRectF inner = QRectF(QPointF(0, 0), size_).adjusted(kPad, kPad, -kPad, -kPad);
  painter->setPen(Qt::NoPen);
  painter->setBrush(lead->highlighted ? theme.searchMatch : color);
  painter->drawRoundedRect(inner, 6, 6);
  if (lod < kLabelZoom) return;
  QFont font = style_->chipFont;
  font.setBold(true);
  // About 11 px on screen, never taller than the box.
  font.setPixelSize(std::max(1, static_cast<int>(std::min(11.0 / lod, inner.height() * 0.62))));
  const QString more = chips_.size() > 1 ? QStringLiteral(" +%1").arg(chips_.size() - 1) : QString();
  const double room = inner.width() - 4;
  // A long operator (AveragePool at Fit's scale) is set smaller, down to 9 px on screen, before it
  // is cut; the count of the other e-nodes is never cut.
  if (const double wide = QFontMetricsF(font).horizontalAdvance(lead->op + more); wide > room) {
    const double fitting = font.pixelSize() * room / wide;
    font.setPixelSize(std::max(1, static_cast<int>(std::max(fitting, std::min(9.0 / lod, static_cast<double>(font.pixelSize()))))));
  }
  painter->setFont(font);
  painter->setPen(textColorOn(color));
  const QFontMetricsF metrics(font);
  const QString op = metrics.elidedText(lead->op, Qt::ElideRight, std::max(0.0, room - metrics.horizontalAdvance(more)));
  painter->drawText(inner, Qt::AlignCenter, op + more);
}

QRectF EClassItem::boundingRect() const { return QRectF(QPointF(-3, -3), size_ + QSizeF(6, 6)); }

QRectF EClassItem::chipRect(size_t index) const {
  const double width = (size_.width() - 2 * kPad - (kChipsPerRow - 1) * kChipGap) / kChipsPerRow;
  const auto row = static_cast<double>(index / kChipsPerRow);
  const auto column = static_cast<double>(index % kChipsPerRow);
  return {kPad + column * (width + kChipGap), kTitleHeight + 2 + row * (kChipHeight + kChipGap), width, kChipHeight};
}

QPointF EClassItem::chipAnchor(size_t index) const {
  if (collapsed_ || index >= static_cast<size_t>(kMaxChips)) return mapToScene(QPointF(size_.width() / 2, 0));
  const QRectF chip = chipRect(index);
  return mapToScene(QPointF(chip.center().x(), 0));
}

QPointF EClassItem::inboundAnchor() const { return mapToScene(QPointF(size_.width() / 2, size_.height())); }

int EClassItem::chipAt(QPointF scenePos) const {
  const QPointF local = mapFromScene(scenePos);
  for (size_t i = 0; i < chipsShown(); ++i)
    if (chipRect(i).contains(local)) return static_cast<int>(i);
  return -1;
}

void EClassItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  const Theme& theme = style_->theme;
  const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
  const QRectF box(QPointF(0, 0), size_);
  QColor fill = theme.dark ? QColor(52, 56, 64) : QColor(240, 242, 246);
  if (flash_ > 0) {
    // A merge tints the cluster amber and fades back.
    const QColor amber(255, 196, 64);
    fill = QColor::fromRgbF(fill.redF() + (amber.redF() - fill.redF()) * flash_ * 0.7,
                            fill.greenF() + (amber.greenF() - fill.greenF()) * flash_ * 0.7,
                            fill.blueF() + (amber.blueF() - fill.blueF()) * flash_ * 0.7);
  }
  QPen border(isSelected() || focused_ ? theme.selection : theme.mutedText, isSelected() || focused_ ? 2.5 : 1.0);
  if (std::any_of(chips_.begin(), chips_.end(), [](const ENodeChip& c) { return c.highlighted; })) {
    border.setColor(theme.searchMatch);
    border.setWidthF(3);
  }
  painter->setPen(border);
  painter->setBrush(fill);
  painter->drawRoundedRect(box, 10, 10);
  if (lod < kSummaryZoom) {
    paintSummary(painter, lod);
    return;
  }

  painter->setFont(style_->titleFont);
  painter->setPen(theme.text);
  QString title = QStringLiteral("c%1 · %2 node%3").arg(eclass_).arg(chips_.size()).arg(chips_.size() == 1 ? "" : "s");
  if (weightInputs_) title += QStringLiteral(" · %1 w").arg(weightInputs_);
  if (collapsed_) title += QStringLiteral(" (collapsed)");
  painter->drawText(QRectF(kPad + 2, 1, size_.width() - 2 * kPad, kTitleHeight), Qt::AlignLeft | Qt::AlignVCenter, title);
  if (hiddenNeighbours_) {
    painter->setPen(theme.removed);
    painter->drawText(QRectF(kPad, 1, size_.width() - 2 * kPad - 2, kTitleHeight), Qt::AlignRight | Qt::AlignVCenter,
                      QStringLiteral("+%1 linked hidden").arg(hiddenNeighbours_));
  }

  painter->setFont(style_->chipFont);
  for (size_t i = 0; i < chipsShown(); ++i) {
    const ENodeChip& chip = chips_[i];
    const QRectF rect = chipRect(i);
    QColor color = chip.leaf ? weightColor(theme.dark) : categoryColor(chip.category, theme.dark);
    if (chip.dimmed) color.setAlphaF(0.25);
    painter->setBrush(color);
    QPen pen(chip.highlighted ? theme.searchMatch : chip.fresh ? theme.added : color.darker(130),
             chip.highlighted || chip.fresh ? 2.2 : 0.8);
    painter->setPen(pen);
    painter->drawRoundedRect(rect, 4, 4);
    QColor text = textColorOn(color);
    if (chip.dimmed) text.setAlphaF(0.45);
    painter->setPen(text);
    painter->drawText(rect.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                      painter->fontMetrics().elidedText(chip.op, Qt::ElideRight, static_cast<int>(rect.width()) - 4));
  }
  if (const size_t more = nodesNotShown()) {
    painter->setPen(theme.mutedText);
    const double y = collapsed_ ? kTitleHeight + 4 : chipRect(kMaxChips - 1).bottom() + 1;
    painter->drawText(QRectF(kPad + 2, y, size_.width() - 2 * kPad, size_.height() - y - 1), Qt::AlignLeft | Qt::AlignVCenter,
                      QStringLiteral("+%1 more e-node%2 not shown").arg(more).arg(more == 1 ? "" : "s"));
  }
}

} // namespace tessera::views
