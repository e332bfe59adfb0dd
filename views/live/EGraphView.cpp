#include "search/Candidate.h"

#include "EGraphView.h"

#include "EGraphEdgesItem.h"
#include "MiniMap.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
constexpr double kFlashDecayPerTick = 0.06; // about 0.5 s at 30 Hz
constexpr uint64_t kFlashWindow = 2000;      // events between two updates that still count as live
const QString kAll = QStringLiteral("(all)");
} // namespace

EGraphView::EGraphView(QWidget* parent) : QWidget(parent) {
  style_.theme = Theme::fromPalette(palette());
  style_.titleFont = font();
  style_.titleFont.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  style_.chipFont = style_.titleFont;
  style_.chipFont.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.8));

  scene_ = new QGraphicsScene(this);
  scene_->setItemIndexMethod(QGraphicsScene::NoIndex); // items only come and go in batches
  scene_->setBackgroundBrush(style_.theme.background);
  view_ = new QGraphicsView(scene_, this);
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setDragMode(QGraphicsView::ScrollHandDrag);
  view_->setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
  view_->setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  view_->viewport()->installEventFilter(this);
  edges_ = new EGraphEdgesItem;
  edges_->setZValue(-1);
  edges_->setPens(QPen(style_.theme.edge, 1.0), QPen(style_.theme.searchMatch, 2.2));
  scene_->addItem(edges_);

  opFilter_ = new QComboBox(this);
  opFilter_->addItem(kAll);
  opFilter_->setToolTip(tr("Show only e-classes with an e-node of this op"));
  ruleFilter_ = new QComboBox(this);
  ruleFilter_->addItem(kAll);
  ruleFilter_->setToolTip(tr("Show only e-classes with an e-node created by this rule"));
  focusDepth_ = new QSpinBox(this);
  focusDepth_->setRange(0, 8);
  focusDepth_->setValue(2);
  focusDepth_->setPrefix(tr("focus depth "));
  weights_ = new QCheckBox(tr("Weights"), this);
  weights_->setToolTip(tr("Draw the weight-only e-classes (weights, and the concatenated or transposed weights rewrites make); "
                          "otherwise each consumer counts them"));
  auto* clearFocusButton = new QPushButton(tr("Show all"), this);
  auto* fitButton = new QPushButton(tr("Fit"), this);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);

  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Op"), this));
  bar->addWidget(opFilter_, 1);
  bar->addWidget(new QLabel(tr("Rule"), this));
  bar->addWidget(ruleFilter_, 2);
  bar->addWidget(weights_);
  bar->addWidget(focusDepth_);
  bar->addWidget(clearFocusButton);
  bar->addWidget(fitButton);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(view_, 1);
  layout->addWidget(banner_);

  connect(opFilter_, &QComboBox::currentTextChanged, this, [this](const QString& text) { setOpFilter(text == kAll ? QString() : text); });
  connect(ruleFilter_, &QComboBox::currentTextChanged, this,
          [this](const QString& text) { setRuleFilter(text == kAll ? QString() : text); });
  connect(focusDepth_, &QSpinBox::valueChanged, this, [this](int depth) {
    if (filter_.focus) focusClass(*filter_.focus, depth);
  });
  connect(weights_, &QCheckBox::toggled, this, &EGraphView::setShowWeights);
  connect(clearFocusButton, &QPushButton::clicked, this, &EGraphView::clearFocus);
  connect(fitButton, &QPushButton::clicked, this, &EGraphView::fitToView);
  connect(scene_, &QGraphicsScene::selectionChanged, this, [this] {
    const auto selected = scene_->selectedItems();
    if (selected.size() == 1 && selected.front()->type() == EClassItem::Type)
      emit classSelected(static_cast<EClassItem*>(selected.front())->eclass());
  });
  MiniMapSource overview;
  overview.bounds = [this] { return scene_->itemsBoundingRect(); };
  overview.theme = [this] { return style_.theme; };
  overview.boxes = [this](const MiniMapSource::BoxSink& box) {
    for (const auto& [id, item] : items_) box(item->sceneBoundingRect(), item->summaryColor());
  };
  overview_ = new MiniMap(view_, std::move(overview));
  for (QScrollBar* bar : {view_->horizontalScrollBar(), view_->verticalScrollBar()})
    connect(bar, &QScrollBar::valueChanged, overview_, qOverload<>(&QWidget::update));

  flashTimer_ = new QTimer(this);
  flashTimer_->setInterval(33);
  connect(flashTimer_, &QTimer::timeout, this, &EGraphView::stepFlashes);
  updateBanner();
}

EGraphView::~EGraphView() = default;

size_t EGraphView::shownChips() const {
  size_t chips = 0;
  for (const auto& [id, item] : items_) chips += item->chipsShown();
  return chips;
}

size_t EGraphView::drawnEdges() const { return edges_->edgeCount(); }

size_t EGraphView::notShownMarkers() const {
  size_t markers = visibility_.hidden() ? 1 : 0;
  for (const auto& [id, item] : items_) markers += (item->nodesNotShown() > 0) + (item->hiddenNeighbours() > 0);
  return markers;
}

EClassItem* EGraphView::itemFor(EClassId eclass) const {
  auto it = items_.find(eclass);
  return it == items_.end() ? nullptr : it->second;
}

QString EGraphView::bannerText() const { return banner_->text(); }

double EGraphView::zoom() const { return view_->transform().m11(); }

bool EGraphView::overviewVisible() const { return overview_->isVisible(); }

QPointF EGraphView::pointOfInterest() const {
  QRectF fresh;
  const EClassItem* newest = nullptr;
  MirrorNodeId newestNode = 0;
  for (const auto& [id, item] : items_) {
    if (item->hasFreshNode()) fresh = fresh.united(item->sceneBoundingRect());
    for (const ENodeChip& chip : item->chips())
      if (!newest || chip.node > newestNode) {
        newest = item;
        newestNode = chip.node;
      }
  }
  if (!fresh.isEmpty()) return fresh.center();
  if (newest) return newest->sceneBoundingRect().center();
  return scene_->itemsBoundingRect().center();
}

void EGraphView::updateOverview() {
  // The overview is the context of a framed part: shown only when the picture does not fit.
  const QRectF bounds = scene_->itemsBoundingRect();
  const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  const bool needed = !items_.empty() && !visible.contains(bounds.adjusted(10, 10, -10, -10));
  overview_->setVisible(needed);
  if (!needed) return;
  overview_->updateGeometryInView();
  overview_->invalidate();
}

void EGraphView::dropPicture() {
  for (auto& [id, item] : items_) delete item;
  items_.clear();
  flashing_.clear();
  flashTimer_->stop();
  layout_.clear();
  visibility_ = {};
  opsScanned_ = 0;
  framed_ = false;
  edges_->setEdges({});
  overview_->hide();
}

void EGraphView::clear() {
  dropPicture();
  state_ = nullptr;
  seenUpTo_ = 0;
  shownEpoch_ = 0;
  knownOps_.clear();
  knownRules_.clear();
  filter_.focus.reset();
  const QSignalBlocker blockOps(opFilter_);
  const QSignalBlocker blockRules(ruleFilter_);
  while (opFilter_->count() > 1) opFilter_->removeItem(1);
  while (ruleFilter_->count() > 1) ruleFilter_->removeItem(1);
  filter_.op.clear();
  filter_.rule.clear();
  updateBanner();
}

void EGraphView::showState(const ReplayState& state) {
  // Merges since the last update flash while following a run; a seek (backwards, or far ahead) is
  // a jump, not news, and flashing half the e-graph would say nothing.
  bool incremental = state_ && state.nextSequence >= seenUpTo_ && state.nextSequence - seenUpTo_ <= kFlashWindow;
  if (state.egraph.epoch() != shownEpoch_) {
    // A rebased e-graph (or a seek across a rebase): its ids name other classes, so the picture
    // starts over; the filters stay.
    dropPicture();
    shownEpoch_ = state.egraph.epoch();
    incremental = false;
  }
  state_ = &state;
  if (incremental)
    for (const MirrorClass* eclass : state.egraph.classes())
      if (eclass->lastMergeSequence && eclass->lastMergeSequence >= seenUpTo_) flashing_[eclass->id] = 1.0;
  seenUpTo_ = state.nextSequence;
  updateFilterChoices();
  refresh();
  if (!flashing_.empty() && !flashTimer_->isActive()) flashTimer_->start();
  if (!framed_ && !items_.empty()) {
    framed_ = true;
    fitToView();
  }
}

void EGraphView::refresh() {
  if (!state_) return;
  const EGraphMirror& egraph = state_->egraph;
  visibility_ = computeVisibility(egraph, filter_);
  std::unordered_set<EClassId> unplaced;
  for (EClassId id : visibility_.weightOnly)
    if (!visibility_.shownSet.count(id)) unplaced.insert(id);
  layout_.update(egraph, unplaced);

  for (auto it = items_.begin(); it != items_.end();) {
    if (visibility_.shownSet.count(it->first)) {
      ++it;
      continue;
    }
    flashing_.erase(it->first);
    delete it->second;
    it = items_.erase(it);
  }
  // The nodes of the last committed step and of the step in progress are marked as new.
  const size_t steps = state_->steps.size();
  const uint64_t freshFrom = steps >= 2 ? state_->steps[steps - 2].sequence : 0;
  for (EClassId id : visibility_.shown) {
    EClassItem*& item = items_[id];
    if (!item) {
      item = new EClassItem(&style_, id, layout_.classSize());
      item->setPos(layout_.position(id));
      scene_->addItem(item);
    }
    const MirrorClass* eclass = egraph.eclass(id);
    std::vector<ENodeChip> chips;
    chips.reserve(eclass->nodes.size());
    for (MirrorNodeId nodeId : eclass->nodes) {
      const MirrorNode& node = egraph.nodes()[nodeId];
      ENodeChip chip;
      chip.node = nodeId;
      chip.op = QString::fromUtf8(opName(node.node.op).data(), static_cast<qsizetype>(opName(node.node.op).size()));
      chip.category = opInfo(node.node.op).category;
      chip.leaf = node.node.isLeaf();
      chip.dimmed = filter_.filtersNodes() && !filter_.matches(egraph, node);
      chip.highlighted = node.rule >= 0 && highlightedOrigins_.count({egraph.ruleOf(node), node.step});
      chip.fresh = node.sequence >= freshFrom && node.rule >= 0;
      chips.push_back(std::move(chip));
    }
    // Matching nodes first, so a filter never hides them behind "+N more".
    if (filter_.filtersNodes())
      std::stable_partition(chips.begin(), chips.end(), [](const ENodeChip& c) { return !c.dimmed; });
    item->setNodes(std::move(chips));
    item->setCollapsed(collapsed_.count(id) != 0);
    item->setFocused(filter_.focus && egraph.find(*filter_.focus) == id);
    auto hidden = visibility_.hiddenNeighbours.find(id);
    item->setHiddenNeighbours(hidden == visibility_.hiddenNeighbours.end() ? 0 : hidden->second);
    auto weights = visibility_.weightInputs.find(id);
    item->setWeightInputs(weights == visibility_.weightInputs.end() ? 0 : weights->second);
    auto flash = flashing_.find(id);
    item->setFlash(flash == flashing_.end() ? 0.0 : flash->second);
  }
  rebuildEdges();
  // Grow the scene rect only, so the scroll position never jumps as the graph grows.
  const QRectF bounds = scene_->itemsBoundingRect().adjusted(-40, -40, 40, 40);
  scene_->setSceneRect(scene_->sceneRect().united(bounds));
  updateBanner();
  updateOverview();
}

void EGraphView::rebuildEdges() {
  std::vector<EGraphEdgesItem::Edge> edges;
  const EGraphMirror& egraph = state_->egraph;
  const bool far = view_->transform().m11() < 0.35;
  for (const auto& [id, item] : items_) {
    const auto& chips = item->chips();
    for (size_t i = 0; i < chips.size(); ++i) {
      const MirrorNode& node = egraph.nodes()[chips[i].node];
      const QPointF from = item->chipAnchor(i);
      for (EClassId child : node.node.children) {
        auto target = items_.find(egraph.find(child));
        if (target == items_.end()) continue;
        edges.push_back({from, target->second->inboundAnchor(), !far, chips[i].highlighted});
      }
    }
  }
  edges_->setEdges(std::move(edges));
}

void EGraphView::updateBanner() {
  const EGraphVisibility& v = visibility_;
  const size_t nodes = state_ ? state_->egraph.numNodes() : 0;
  QString text = tr("%1 of %2 e-classes shown, %3 e-nodes in the e-graph").arg(items_.size()).arg(v.totalClasses).arg(nodes);
  if (state_) text += tr(", %1 merges").arg(state_->egraph.numMerges());
  if (v.hidden()) {
    QStringList reasons;
    if (v.hiddenByFilter) reasons << tr("%1 by the filter").arg(v.hiddenByFilter);
    if (v.hiddenByFocus) reasons << tr("%1 outside the focus").arg(v.hiddenByFocus);
    if (v.hiddenAsWeights) reasons << tr("%1 weight-only, counted on their consumers (Weights draws them)").arg(v.hiddenAsWeights);
    if (v.hiddenByBudget)
      reasons << tr("%1 over the budget of %2 (double-click a class to focus on it)").arg(v.hiddenByBudget).arg(filter_.classBudget);
    text += QStringLiteral(" — ") + tr("%1 more not shown: %2").arg(v.hidden()).arg(reasons.join(QStringLiteral(", ")));
  }
  banner_->setText(text);
}

void EGraphView::updateFilterChoices() {
  // Only ever adds entries, so a selection survives growth.
  QStringList ops;
  const auto& nodes = state_->egraph.nodes();
  for (size_t i = std::min(opsScanned_, nodes.size()); i < nodes.size(); ++i) {
    const MirrorNode& node = nodes[i];
    const QString name = QString::fromUtf8(opName(node.node.op).data(), static_cast<qsizetype>(opName(node.node.op).size()));
    if (!knownOps_.contains(name) && !ops.contains(name)) ops << name;
  }
  opsScanned_ = std::max(opsScanned_, nodes.size());
  ops.sort();
  knownOps_ << ops;
  const QSignalBlocker blockOps(opFilter_);
  opFilter_->addItems(ops);
  QStringList rules;
  if (!knownRules_.contains(QString::fromUtf8(EGraphFilter::kOriginalRule))) rules << QString::fromUtf8(EGraphFilter::kOriginalRule);
  for (const std::string& rule : state_->egraph.ruleNames()) {
    const QString name = QString::fromStdString(rule);
    if (!knownRules_.contains(name)) rules << name;
  }
  knownRules_ << rules;
  const QSignalBlocker blockRules(ruleFilter_);
  ruleFilter_->addItems(rules);
}

void EGraphView::setOpFilter(const QString& op) {
  filter_.op = op.toStdString();
  const QSignalBlocker block(opFilter_);
  opFilter_->setCurrentText(op.isEmpty() ? kAll : op);
  refresh();
}

void EGraphView::setRuleFilter(const QString& rule) {
  filter_.rule = rule.toStdString();
  const QSignalBlocker block(ruleFilter_);
  ruleFilter_->setCurrentText(rule.isEmpty() ? kAll : rule);
  refresh();
}

void EGraphView::focusClass(EClassId eclass, int depth) {
  filter_.focus = eclass;
  filter_.focusDepth = depth;
  const QSignalBlocker block(focusDepth_);
  focusDepth_->setValue(depth);
  refresh();
  if (EClassItem* item = itemFor(state_ ? state_->egraph.find(eclass) : eclass)) {
    QRectF around;
    for (const auto& [id, shown] : items_) around = around.united(shown->sceneBoundingRect());
    fitted_ = false; // framing the focus, not the whole picture
    view_->fitInView(around.adjusted(-30, -30, 30, 30), Qt::KeepAspectRatio);
    const double scale = std::clamp(zoom(), kReadableScale, 1.0);
    view_->setTransform(QTransform::fromScale(scale, scale));
    view_->centerOn(item);
    rebuildEdges();
    updateOverview();
  }
}

void EGraphView::setShowWeights(bool show) {
  if (show == filter_.showWeights) return;
  filter_.showWeights = show;
  const QSignalBlocker block(weights_);
  weights_->setChecked(show);
  // The weights need room next to their consumers: the picture is laid out again.
  dropPicture();
  refresh();
  fitToView();
}

void EGraphView::clearFocus() {
  filter_.focus.reset();
  refresh();
}

void EGraphView::setClassBudget(size_t classes) {
  filter_.classBudget = std::max<size_t>(1, classes);
  refresh();
}

void EGraphView::setCollapsed(EClassId eclass, bool collapsed) {
  if (collapsed)
    collapsed_.insert(eclass);
  else
    collapsed_.erase(eclass);
  refresh();
}

void EGraphView::setHighlightedOrigins(const std::vector<NodeOrigin>& origins) {
  highlightedOrigins_.clear();
  for (const NodeOrigin& origin : origins)
    if (!origin.rule.empty()) highlightedOrigins_.emplace(origin.rule, origin.step);
  refresh();
}

void EGraphView::fitToView() {
  fitted_ = true;
  const QRectF bounds = scene_->itemsBoundingRect();
  if (bounds.isEmpty()) {
    updateOverview();
    return;
  }
  view_->fitInView(bounds.adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
  if (zoom() > 1.25) view_->setTransform(QTransform::fromScale(1.25, 1.25));
  // A thousand classes fitted into a pane are specks: frame a legible part around the latest step
  // instead; the overview shows the whole.
  if (zoom() < kReadableScale) {
    view_->setTransform(QTransform::fromScale(kReadableScale, kReadableScale));
    view_->centerOn(pointOfInterest());
  }
  if (state_) rebuildEdges(); // straight or curved edges depend on the zoom
  updateOverview();
}

void EGraphView::stepFlashes() {
  for (auto it = flashing_.begin(); it != flashing_.end();) {
    it->second -= kFlashDecayPerTick;
    if (EClassItem* item = itemFor(it->first)) item->setFlash(std::max(0.0, it->second));
    it = it->second <= 0 ? flashing_.erase(it) : std::next(it);
  }
  if (flashing_.empty()) flashTimer_->stop();
}

EClassItem* EGraphView::classItemAt(QPoint viewportPos) const {
  for (QGraphicsItem* item : view_->items(viewportPos))
    if (item->type() == EClassItem::Type) return static_cast<EClassItem*>(item);
  return nullptr;
}

void EGraphView::contextMenuAt(QPoint viewportPos, QPoint globalPos) {
  EClassItem* item = classItemAt(viewportPos);
  if (!item || !state_) return;
  const EClassId eclass = item->eclass();
  const int chip = item->chipAt(view_->mapToScene(viewportPos));
  QMenu menu(this);
  if (chip >= 0) {
    const MirrorNodeId nodeId = item->chips()[static_cast<size_t>(chip)].node;
    const MirrorNode& node = state_->egraph.nodes()[nodeId];
    const QString rule = QString::fromStdString(state_->egraph.ruleOf(node));
    menu.addAction(tr("Why this e-node?"), this, [this, nodeId] { emit nodeSelected(nodeId); });
    if (!rule.isEmpty()) {
      menu.addAction(tr("Pin rule %1").arg(rule), this, [this, rule] { emit pinRequested(rule); });
      menu.addAction(tr("Veto rule %1").arg(rule), this, [this, rule] { emit vetoRequested(rule); });
      menu.addAction(tr("Show only nodes from %1").arg(rule), this, [this, rule] { setRuleFilter(rule); });
    }
    const QString op = item->chips()[static_cast<size_t>(chip)].op;
    menu.addAction(tr("Show only %1 nodes").arg(op), this, [this, op] { setOpFilter(op); });
    menu.addSeparator();
  }
  menu.addAction(tr("Focus on c%1").arg(eclass), this, [this, eclass] { focusClass(eclass, focusDepth_->value()); });
  menu.addAction(item->collapsed() ? tr("Expand c%1").arg(eclass) : tr("Collapse c%1").arg(eclass), this,
                 [this, eclass, collapsed = item->collapsed()] { setCollapsed(eclass, !collapsed); });
  if (filter_.focus) menu.addAction(tr("Show all"), this, &EGraphView::clearFocus);
  menu.exec(globalPos);
}

bool EGraphView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != view_->viewport()) return QWidget::eventFilter(watched, event);
  switch (event->type()) {
  case QEvent::Resize:
    // Framed, the picture stays framed when the view gets its real size (a tab shown later, a
    // window laid out after the log arrived) until the user zooms.
    if (fitted_) fitToView();
    else updateOverview();
    break;
  case QEvent::Wheel: {
    fitted_ = false;
    auto* wheel = static_cast<QWheelEvent*>(event);
    const double factor = std::pow(1.0015, wheel->angleDelta().y());
    const double scale = view_->transform().m11() * factor;
    if (scale < 0.02 || scale > 6) return true;
    const bool wasFar = view_->transform().m11() < 0.35;
    view_->scale(factor, factor);
    if (state_ && wasFar != (scale < 0.35)) rebuildEdges();
    updateOverview();
    return true;
  }
  case QEvent::MouseButtonDblClick: {
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (EClassItem* item = classItemAt(mouse->position().toPoint())) focusClass(item->eclass(), focusDepth_->value());
    return true;
  }
  case QEvent::MouseButtonPress: {
    auto* mouse = static_cast<QMouseEvent*>(event);
    if (mouse->button() != Qt::LeftButton) break;
    if (EClassItem* item = classItemAt(mouse->position().toPoint())) {
      const int chip = item->chipAt(view_->mapToScene(mouse->position().toPoint()));
      if (chip >= 0) emit nodeSelected(item->chips()[static_cast<size_t>(chip)].node);
    }
    break;
  }
  case QEvent::ContextMenu: {
    auto* menu = static_cast<QContextMenuEvent*>(event);
    contextMenuAt(menu->pos(), menu->globalPos());
    return true;
  }
  default: break;
  }
  return QWidget::eventFilter(watched, event);
}

} // namespace tessera::views
