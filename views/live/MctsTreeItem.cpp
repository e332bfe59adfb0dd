#include "MctsTreeItem.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>

namespace tessera::views {

namespace {
constexpr double kLabelLod = 0.55;    // below this zoom, labels in scene units are too small to read
constexpr double kBesideRoom = 300;   // scene units right of a committed node for its label, zoomed out
constexpr int kBesideRuleWidth = 220; // pixels of a committed node's rule, zoomed out (longer names are elided)
constexpr double kPriorWidth = 80;    // pixels of a prior's "P 23%"
} // namespace

MctsTreeItem::MctsTreeItem(Theme theme, QFont font) : theme_(std::move(theme)), font_(std::move(font)) {}

void MctsTreeItem::setTree(const MctsTreeMirror* tree, const MctsTreeLayout* layout) {
  prepareGeometryChange();
  tree_ = tree;
  layout_ = layout;
  bounds_ = {};
  minMean_ = 0;
  maxMean_ = 0;
  bool first = true;
  if (tree_ && layout_)
    for (uint32_t id : layout_->shown) {
      const MirrorMctsNode* node = tree_->node(id);
      const QPointF p = layout_->position.at(id);
      bounds_ = bounds_.united(QRectF(p - QPointF(60, 30), QSizeF(120, node->prior ? 84 : 70)));
      // A committed node's rule (and prior) is written beside it at any zoom (paint): room to the right.
      if (node->committed()) bounds_ = bounds_.united(QRectF(p - QPointF(0, 30), QSizeF(kBesideRoom, 60)));
      if (!node->visits) continue;
      minMean_ = first ? node->meanValue() : std::min(minMean_, node->meanValue());
      maxMean_ = first ? node->meanValue() : std::max(maxMean_, node->meanValue());
      first = false;
    }
  update();
}

void MctsTreeItem::setSelected(std::optional<uint32_t> id) {
  selected_ = id;
  update();
}

double MctsTreeItem::radius(const MirrorMctsNode& node) const {
  const double most = std::max<uint32_t>(1, tree_ ? tree_->maxVisits() : 1);
  return 5.0 + 17.0 * std::sqrt(static_cast<double>(node.visits) / most);
}

QColor MctsTreeItem::valueColor(double mean) const {
  const double span = maxMean_ - minMean_;
  const double f = span > 0 ? (mean - minMean_) / span : 0.5;
  return QColor::fromHsvF(0.62 - 0.32 * f, 0.35 + 0.45 * f, theme_.dark ? 0.85 : 0.92);
}

std::optional<uint32_t> MctsTreeItem::nodeAt(QPointF pos) const {
  if (!tree_ || !layout_) return std::nullopt;
  std::optional<uint32_t> best;
  double bestDistance = 0;
  for (uint32_t id : layout_->shown) {
    const QPointF d = layout_->position.at(id) - pos;
    const double distance = std::hypot(d.x(), d.y());
    if (distance > radius(*tree_->node(id)) + 4) continue;
    if (!best || distance < bestDistance) {
      best = id;
      bestDistance = distance;
    }
  }
  return best;
}

void MctsTreeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
  if (!tree_ || !layout_) return;
  const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
  painter->setFont(font_);
  // Edges first, the committed path bold, labelled with the rule when readable.
  for (uint32_t id : layout_->shown) {
    const MirrorMctsNode* node = tree_->node(id);
    if (node->isRoot() || !layout_->position.count(node->parent)) continue;
    const QPointF from = layout_->position.at(node->parent);
    const QPointF to = layout_->position.at(id);
    const bool path = node->committed();
    painter->setPen(QPen(path ? theme_.edgeHighlight : theme_.edge, path ? 3.0 : 1.0));
    painter->drawLine(from, to);
    if (lod > kLabelLod && !node->action.empty()) {
      // Just above the child, as wide as its column, so siblings' labels never overlap.
      const double width = layout_->columnWidth - 4;
      const double top = to.y() - radius(*node) - 15;
      painter->setPen(path ? theme_.text : theme_.mutedText);
      const QString label = painter->fontMetrics().elidedText(QString::fromStdString(node->action), Qt::ElideMiddle,
                                                              static_cast<int>(width));
      painter->fillRect(QRectF(to.x() - width / 2, top, width, 14), theme_.background);
      painter->drawText(QRectF(to.x() - width / 2, top, width, 14), Qt::AlignCenter, label);
    }
  }
  for (uint32_t id : layout_->shown) {
    const MirrorMctsNode* node = tree_->node(id);
    const QPointF p = layout_->position.at(id);
    const double r = radius(*node);
    const QColor fill = node->visits ? valueColor(node->meanValue()) : theme_.background;
    const bool selected = selected_ && *selected_ == id;
    painter->setPen(QPen(selected ? theme_.selection : node->committed() ? theme_.edgeHighlight : theme_.mutedText,
                         selected ? 3.5 : node->committed() ? 2.5 : 1.0));
    painter->setBrush(fill);
    painter->drawEllipse(p, r, r);
    if (lod > 0.4 && r >= 11) {
      painter->setPen(textColorOn(fill));
      painter->drawText(QRectF(p.x() - r, p.y() - 8, 2 * r, 16), Qt::AlignCenter, QString::number(node->visits));
    }
    double below = p.y() + r + 1;
    if (node->prior && lod > kLabelLod) {
      paintPrior(painter, id, QRectF(p.x() - 40, below, 80, 14), Qt::AlignCenter);
      below += 14;
    } else if (lod <= kLabelLod && node->committed() && !node->isRoot()) {
      paintBeside(painter, id, p, r);
    }
    auto hidden = layout_->hiddenUnder.find(id);
    if (hidden != layout_->hiddenUnder.end()) {
      painter->setPen(theme_.removed);
      painter->drawText(QRectF(p.x() - 40, below, 80, 14), Qt::AlignCenter, QStringLiteral("+%1 more").arg(hidden->second));
    }
  }
}

void MctsTreeItem::paintBeside(QPainter* painter, uint32_t id, QPointF p, double r) const {
  // Zoomed out, the edge labels are too small to read, but the committed path's decisions keep
  // their rule (and a guided run's prior) beside each node, at the font's own size.
  const MirrorMctsNode* node = tree_->node(id);
  painter->save();
  const QPointF right = painter->worldTransform().map(QPointF(p.x() + r, p.y()));
  const QPointF left = painter->worldTransform().map(QPointF(p.x() - r, p.y()));
  painter->resetTransform();
  const QFontMetrics metrics(font_);
  const QString rule = metrics.elidedText(QString::fromStdString(node->action), Qt::ElideMiddle, kBesideRuleWidth);
  const double ruleWidth = metrics.horizontalAdvance(rule) + 4;
  const double width = ruleWidth + (node->prior ? 6 + kPriorWidth : 0);
  // Right of the node, or left of it where the pane ends first (the tree is fitted to the pane,
  // and the label is wider in the pane than the room the scene keeps for it).
  const int paneWidth = painter->device() ? painter->device()->width() : 0;
  const bool onTheLeft = paneWidth > 0 && right.x() + 4 + width > paneWidth && left.x() - 4 - width >= 0;
  const double x = onTheLeft ? left.x() - 4 - width : right.x() + 4;
  const QRectF ruleBox(x, right.y() - 8, ruleWidth, 16);
  QColor backdrop = theme_.background;
  backdrop.setAlphaF(0.8); // the label stays legible over the branches it crosses
  painter->fillRect(ruleBox, backdrop);
  painter->setPen(theme_.text);
  painter->drawText(ruleBox, Qt::AlignLeft | Qt::AlignVCenter, rule);
  if (node->prior) paintPrior(painter, id, QRectF(ruleBox.right() + 6, right.y() - 8, kPriorWidth, 16), Qt::AlignLeft | Qt::AlignVCenter);
  painter->restore();
}

QString MctsTreeItem::priorPercent(double prior) { return QStringLiteral("%1%").arg(100.0 * prior, 0, 'f', prior < 0.1 ? 1 : 0); }

void MctsTreeItem::paintPrior(QPainter* painter, uint32_t id, const QRectF& box, Qt::Alignment alignment) const {
  // The network's first choice among its siblings in bold; the search's choice where the network
  // preferred another sibling in the overruled colour.
  const std::optional<SiblingRanks> ranks = tree_->siblingRanks(id);
  QFont font = font_;
  font.setBold(ranks && ranks->byPrior == 1);
  painter->save();
  painter->setFont(font);
  painter->setPen(ranks && ranks->overruled() ? overruledColor() : theme_.text);
  painter->drawText(box, alignment, QStringLiteral("P ") + priorPercent(*tree_->node(id)->prior));
  painter->restore();
}

} // namespace tessera::views
