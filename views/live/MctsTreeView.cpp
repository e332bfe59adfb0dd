#include "MctsTreeView.h"

#include "MctsTreeItem.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>

namespace tessera::views {

MctsTreeView::MctsTreeView(QWidget* parent) : QWidget(parent) {
  const Theme theme = Theme::fromPalette(palette());
  QFont small = font();
  small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.8));
  scene_ = new QGraphicsScene(this);
  scene_->setBackgroundBrush(theme.background);
  item_ = new MctsTreeItem(theme, small);
  scene_->addItem(item_);
  view_ = new QGraphicsView(scene_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setDragMode(QGraphicsView::ScrollHandDrag);
  view_->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  view_->viewport()->installEventFilter(this);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  details_ = new QLabel(this);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(view_, 1);
  layout->addWidget(banner_);
  layout->addWidget(details_);
  clear();
}

MctsTreeView::~MctsTreeView() = default;

size_t MctsTreeView::notShownMarkers() const { return layout_.hiddenUnder.size() + (layout_.hidden() ? 1 : 0); }
QString MctsTreeView::bannerText() const { return banner_->text(); }
QString MctsTreeView::detailsText() const { return details_->text(); }

void MctsTreeView::clear() {
  state_ = nullptr;
  layout_ = {};
  selected_.reset();
  framed_ = false;
  item_->setTree(nullptr, nullptr);
  banner_->setText(tr("No MCTS tree in this run"));
  details_->setText(tr("Select a node to see its statistics"));
}

void MctsTreeView::showState(const ReplayState& state) {
  state_ = &state;
  if (selected_ && !state.tree.has(*selected_)) selected_.reset();
  relayout();
  updateDetails();
  // Framed until the user zooms: the growing tree keeps filling the pane.
  if ((!framed_ || fitted_) && layout_.shown.size() > 1) {
    framed_ = true;
    fitToView();
  }
}

void MctsTreeView::setBudget(size_t nodes) {
  options_.budget = std::max<size_t>(1, nodes);
  relayout();
}

void MctsTreeView::relayout() {
  if (!state_) return;
  layout_ = layoutMctsTree(state_->tree, options_);
  fillPaneHeight();
  item_->setTree(&state_->tree, &layout_);
  scene_->setSceneRect(item_->boundingRect().adjusted(-30, -30, 30, 30));
  if (state_->tree.empty()) {
    banner_->setText(tr("No MCTS tree in this run (MCTS events appear when the strategy is mcts)"));
    return;
  }
  QString text = tr("%1 of %2 tree nodes shown, %3 committed steps; size = visits, colour = mean value (blue low, green high)")
                     .arg(layout_.shown.size())
                     .arg(layout_.total)
                     .arg(state_->tree.committedPath().size());
  if (hasPriors())
    text += QStringLiteral("; ") +
            tr("P = the network's prior (bold: its first choice among siblings; <span style='color:%1'>coloured</span>: "
               "the search chose it, committed or most visited, although the network preferred a sibling)")
                .arg(item_->overruledColor().name());
  if (layout_.hidden())
    text += QStringLiteral(" — ") + tr("%1 more not shown (less visited, counted as +N under their parent)").arg(layout_.hidden());
  banner_->setText(text);
}

void MctsTreeView::fillPaneHeight() {
  // A search tree is wide and shallow (hundreds of leaves, a few rows): fitted as laid out it is a
  // strip across the pane. Its rows spread out until the tree has the pane's proportions.
  double left = 0, right = 0, bottom = 0;
  bool first = true;
  for (const auto& [id, p] : layout_.position) {
    left = first ? p.x() : std::min(left, p.x());
    right = first ? p.x() : std::max(right, p.x());
    bottom = first ? p.y() : std::max(bottom, p.y());
    first = false;
  }
  const QSize pane = view_->viewport()->size();
  if (bottom <= 0 || pane.width() <= 0 || pane.height() <= 0) return;
  const double width = right - left + layout_.columnWidth;
  const double wantedHeight = width * pane.height() / pane.width() - options_.rowHeight;
  const double stretch = std::min(wantedHeight / bottom, 12.0);
  if (stretch <= 1.0) return;
  for (auto& [id, p] : layout_.position) p.setY(p.y() * stretch);
}

void MctsTreeView::selectNode(uint32_t id) {
  if (!state_ || !state_->tree.has(id)) return;
  selected_ = id;
  item_->setSelected(selected_);
  updateDetails();
  if (layout_.position.count(id)) {
    setFitted(false); // the user's node stays in view
    view_->centerOn(layout_.position.at(id));
  }
  emit nodeSelected(id);
}

void MctsTreeView::updateDetails() {
  item_->setSelected(selected_);
  if (!state_ || !selected_) {
    details_->setText(tr("Select a node to see its statistics"));
    return;
  }
  details_->setText(describeNode(*selected_));
}

QString MctsTreeView::describeNode(uint32_t id) const {
  const MirrorMctsNode* node = state_ ? state_->tree.node(id) : nullptr;
  if (!node) return {};
  QString text = tr("<b>node %1</b> depth %2 · rule <b>%3</b> · visits %4 · Q %5 · mean %6 · last reward %7 · e-graph %8 e-nodes")
                     .arg(node->id)
                     .arg(node->depth)
                     .arg(node->action.empty() ? tr("(root)") : QString::fromStdString(node->action).toHtmlEscaped())
                     .arg(node->visits)
                     .arg(node->totalValue, 0, 'g', 4)
                     .arg(node->meanValue(), 0, 'g', 4)
                     .arg(node->lastReward, 0, 'g', 4)
                     .arg(node->enodes);
  if (const std::optional<SiblingRanks> ranks = state_->tree.siblingRanks(id)) {
    text += tr(" · prior %1 (%2 of %3 siblings by prior, %4 by visits)")
                .arg(MctsTreeItem::priorPercent(*node->prior))
                .arg(ranks->byPrior)
                .arg(ranks->siblings)
                .arg(ranks->byVisits);
    if (ranks->overruled()) text += tr(" · <b>the search overruled the network here</b>");
  }
  if (node->committed()) text += tr(" · <b>committed at step %1</b>").arg(node->committedStep);
  return text;
}

bool MctsTreeView::hasPriors() const {
  if (!state_) return false;
  for (uint32_t id : layout_.shown)
    if (state_->tree.node(id)->prior) return true;
  return false;
}

void MctsTreeView::setFitted(bool fitted) {
  fitted_ = fitted;
  // Fitted, the whole tree is in view and scroll bars have nothing to scroll. Kept off, they cannot
  // shrink the viewport, which lays the tree out and fits it again, which hides them, for ever.
  const Qt::ScrollBarPolicy policy = fitted ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded;
  view_->setHorizontalScrollBarPolicy(policy);
  view_->setVerticalScrollBarPolicy(policy);
}

void MctsTreeView::fitToView() {
  setFitted(true);
  const QRectF bounds = item_->boundingRect();
  if (bounds.isEmpty()) return;
  view_->fitInView(bounds, Qt::KeepAspectRatio);
  if (view_->transform().m11() > 1.2) view_->setTransform(QTransform::fromScale(1.2, 1.2));
  view_->centerOn(bounds.center());
}

bool MctsTreeView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != view_->viewport()) return QWidget::eventFilter(watched, event);
  // Framed, the whole tree stays framed when the view gets its real size (a tab shown later, a
  // window laid out after the run's log arrived) until the user zooms.
  if (event->type() == QEvent::Resize && fitted_) {
    relayout(); // the rows spread to the pane's new proportions
    fitToView();
  }
  if (event->type() == QEvent::Wheel) {
    setFitted(false);
    const double factor = std::pow(1.0015, static_cast<QWheelEvent*>(event)->angleDelta().y());
    const double scale = view_->transform().m11() * factor;
    if (scale > 0.02 && scale < 6) view_->scale(factor, factor);
    return true;
  }
  if (event->type() == QEvent::ToolTip && state_) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (auto id = item_->nodeAt(view_->mapToScene(help->pos())))
      QToolTip::showText(help->globalPos(), describeNode(*id), view_->viewport());
    else
      QToolTip::hideText();
    return true;
  }
  if (event->type() == QEvent::MouseButtonPress) {
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (auto id = item_->nodeAt(view_->mapToScene(mouse->position().toPoint()))) selectNode(*id);
    return false;
  }
  if (event->type() == QEvent::ContextMenu && state_) {
    auto* menuEvent = static_cast<QContextMenuEvent*>(event);
    auto id = item_->nodeAt(view_->mapToScene(menuEvent->pos()));
    if (!id) return true;
    const QString rule = QString::fromStdString(state_->tree.node(*id)->action);
    QMenu menu(this);
    menu.addAction(tr("Select node %1").arg(*id), this, [this, id] { selectNode(*id); });
    if (!rule.isEmpty() && rule != QLatin1String(kRebaseAction.data(), static_cast<qsizetype>(kRebaseAction.size()))) {
      menu.addAction(tr("Pin rule %1").arg(rule), this, [this, rule] { emit pinRequested(rule); });
      menu.addAction(tr("Veto rule %1").arg(rule), this, [this, rule] { emit vetoRequested(rule); });
    }
    menu.exec(menuEvent->globalPos());
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

} // namespace tessera::views
