#include "GraphScene.h"

#include "EdgeItem.h"
#include "GraphLayout.h"
#include "NodeCaption.h"
#include "NodeItem.h"


#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

QFont sceneFont(int pixelSize, QFont::Weight weight) {
  QFont font = QGuiApplication::font();
  font.setPixelSize(pixelSize); // scene units, independent of the screen's DPI
  font.setWeight(weight);
  return font;
}

QPainterPath pathThrough(const std::vector<QPointF>& bezier) {
  QPainterPath path;
  if (bezier.empty()) return path;
  path.moveTo(bezier[0]);
  for (size_t k = 1; k + 2 < bezier.size(); k += 3) path.cubicTo(bezier[k], bezier[k + 1], bezier[k + 2]);
  return path;
}

QString costText(double ms) {
  if (ms <= 0) return QStringLiteral("free");
  if (ms < 0.01) return QString::number(ms * 1000, 'f', 2) + QStringLiteral(" µs");
  return QString::number(ms, 'f', 4) + QStringLiteral(" ms");
}

} // namespace

struct GraphScene::PendingLayout {
  int generation = 0;
  std::shared_ptr<const Graph> graph;
  std::vector<NodeRole> roles;
  std::vector<NodeId> ids; // node id, or output index for NodeRole::Output
  std::vector<OpCategory> categories;
  std::vector<QString> titles;
  std::vector<QString> details;
  std::vector<QSizeF> sizes;
  std::vector<QString> edgeLabels;
  LayoutRequest request;
};

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent) {
  style_.titleFont = sceneFont(12, QFont::DemiBold);
  style_.detailFont = sceneFont(10, QFont::Normal);
  style_.edgeLabelFont = sceneFont(9, QFont::Normal);
  setTheme(QGuiApplication::palette());
  connect(this, &QGraphicsScene::selectionChanged, this, [this] {
    std::optional<NodeId> node = selectedNode();
    emit selectedNodeChanged(node ? static_cast<qint64>(*node) : -1);
  });
}

GraphScene::~GraphScene() {
  // QGraphicsScene's destructor deletes the items after our members are gone; a selected item
  // would announce the selection change to listeners that read snapshot_. Say nothing, early.
  blockSignals(true);
  clear();
}

void GraphScene::setSnapshot(GraphSnapshot snapshot) {
  bool sameGraph = snapshot_.graph && snapshot_.graph == snapshot.graph;
  snapshot_ = std::move(snapshot);
  if (!sameGraph) {
    marks_.clear();
    searchMatches_.clear();
    pendingSelection_.reset();
  }
  startLayout();
}

void GraphScene::setCosts(const GraphSnapshot& priced) {
  if (priced.graph != snapshot_.graph) return;
  snapshot_.nodeMs = priced.nodeMs;
  snapshot_.totalMs = priced.totalMs;
  snapshot_.costSpec = priced.costSpec;
  applyHeat();
  emit appearanceChanged();
}

void GraphScene::clearGraph() {
  ++generation_; // drops a layout still in flight
  layingOut_ = false;
  snapshot_ = {};
  marks_.clear();
  searchMatches_.clear();
  nodeItems_.clear();
  itemByNode_.clear();
  edgeItems_.clear();
  clear();
  graphBounds_ = {};
  setSceneRect(QRectF());
  emit layoutFinished();
}

bool GraphScene::isNodeVisible(NodeId node) const {
  if (!snapshot_.graph || node >= snapshot_.graph->size()) return false;
  return showWeights_ || snapshot_.graph->node(node).kind != OpKind::Weight;
}

NodeItem* GraphScene::itemForNode(NodeId node) const { return node < itemByNode_.size() ? itemByNode_[node] : nullptr; }

void GraphScene::setShowWeights(bool show) {
  if (showWeights_ == show) return;
  showWeights_ = show;
  if (snapshot_.graph) startLayout();
}

void GraphScene::setShowShapes(bool show) {
  if (style_.showShapes == show) return;
  style_.showShapes = show;
  for (EdgeItem* edge : edgeItems_) edge->styleChanged();
  update();
  emit appearanceChanged();
}

void GraphScene::setHeatMap(bool on) {
  if (style_.heatMap == on) return;
  style_.heatMap = on;
  update();
  emit appearanceChanged();
}

void GraphScene::setDiffMarks(std::vector<DiffStatus> marks, bool dimUnchanged) {
  marks_ = std::move(marks);
  style_.dimUnchanged = dimUnchanged && !marks_.empty();
  applyMarks();
  update();
  emit appearanceChanged();
}

void GraphScene::setSearchMatches(const std::vector<NodeId>& nodes) {
  for (NodeId node : searchMatches_)
    if (NodeItem* item = itemForNode(node)) item->setSearchMatch(false);
  searchMatches_ = nodes;
  for (NodeId node : searchMatches_)
    if (NodeItem* item = itemForNode(node)) item->setSearchMatch(true);
  emit appearanceChanged();
}

void GraphScene::setTheme(const QPalette& palette) {
  style_.theme = Theme::fromPalette(palette);
  setBackgroundBrush(style_.theme.background);
  update();
  emit appearanceChanged();
}

std::optional<NodeId> GraphScene::selectedNode() const {
  for (QGraphicsItem* item : selectedItems()) {
    if (item->type() != NodeItem::Type) continue;
    auto* node = static_cast<NodeItem*>(item);
    if (node->role() != NodeRole::Output) return node->nodeId();
  }
  return std::nullopt;
}

void GraphScene::selectNode(std::optional<NodeId> node) {
  if (layingOut_) pendingSelection_ = node;
  NodeItem* item = node ? itemForNode(*node) : nullptr;
  if (item && item->isSelected() && selectedItems().size() == 1) return;
  blockSignals(true); // one selectedNodeChanged for the whole change, below
  clearSelection();
  if (item) item->setSelected(true);
  blockSignals(false);
  emit selectionChanged();
}

void GraphScene::startLayout() {
  ++generation_;
  if (!snapshot_.graph) {
    clearGraph();
    return;
  }
  const Graph& graph = *snapshot_.graph;
  auto pending = std::make_shared<PendingLayout>();
  pending->generation = generation_;
  pending->graph = snapshot_.graph;
  std::vector<int> layoutIndex(graph.size(), -1);
  auto addNode = [&](NodeRole role, NodeId id, OpCategory category, const NodeCaption& caption) {
    QString title = QString::fromStdString(caption.title);
    QString detail = QString::fromStdString(caption.detail);
    QSizeF size = NodeItem::sizeFor(style_, role, title, detail);
    pending->roles.push_back(role);
    pending->ids.push_back(id);
    pending->categories.push_back(category);
    pending->titles.push_back(title);
    pending->details.push_back(detail);
    pending->sizes.push_back(size);
    LayoutNodeSpec spec;
    NodeShape shape = NodeItem::shapeFor(role, category);
    QSizeF outline = NodeItem::outlineSize(shape, size);
    spec.width = outline.width();
    spec.height = outline.height();
    spec.ellipse = shape == NodeShape::Ellipse;
    pending->request.nodes.push_back(spec);
    return static_cast<int>(pending->request.nodes.size() - 1);
  };
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (!isNodeVisible(id)) continue;
    const Node& node = graph.node(id);
    NodeRole role = node.kind == OpKind::Input ? NodeRole::Input : node.kind == OpKind::Weight ? NodeRole::Weight : NodeRole::Op;
    layoutIndex[id] = addNode(role, id, opInfo(node.kind).category, nodeCaption(graph, id));
  }
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (layoutIndex[id] < 0) continue;
    for (ValueRef input : graph.node(id).inputs) {
      if (input.isNone() || layoutIndex[input.node] < 0) continue;
      pending->request.edges.push_back({layoutIndex[input.node], layoutIndex[id]});
      pending->edgeLabels.push_back(QString::fromStdString(shapeCaption(graph.typeOf(input).shape)));
    }
  }
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const GraphOutput& output = graph.outputs()[i];
    if (output.value.isNone() || layoutIndex[output.value.node] < 0) continue;
    NodeCaption caption{output.name.empty() ? "output" : output.name, shapeCaption(graph.typeOf(output.value).shape)};
    caption.title = elide(caption.title, 30);
    int index = addNode(NodeRole::Output, static_cast<NodeId>(i), OpCategory::Source, caption);
    pending->request.edges.push_back({layoutIndex[output.value.node], index});
    pending->edgeLabels.push_back(QString::fromStdString(caption.detail));
  }

  layingOut_ = true;
  emit layoutStarted();
  auto* watcher = new QFutureWatcher<LayoutResult>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, pending] {
    watcher->deleteLater();
    if (pending->generation != generation_) return; // superseded by a newer layout
    layingOut_ = false;
    LayoutResult layout = watcher->result();
    if (!layout.error.empty()) {
      emit layoutFailed(QString::fromStdString(layout.error));
      return;
    }
    buildItems(*pending, layout);
  });
  watcher->setFuture(layoutAsync(pending->request));
}

void GraphScene::buildItems(const PendingLayout& pending, const LayoutResult& layout) {
  QElapsedTimer timer;
  timer.start();
  std::optional<NodeId> keepSelected = pendingSelection_ ? pendingSelection_ : selectedNode();
  pendingSelection_.reset();
  blockSignals(true);
  clear();
  blockSignals(false);
  nodeItems_.clear();
  edgeItems_.clear();
  itemByNode_.assign(pending.graph->size(), nullptr);

  // Inserting thousands of items into the BSP index one by one is slow; index once at the end.
  setItemIndexMethod(NoIndex);
  std::vector<NodeItem*> byLayoutIndex(pending.request.nodes.size());
  for (size_t i = 0; i < byLayoutIndex.size(); ++i) {
    auto* item = new NodeItem(&style_, pending.roles[i], pending.categories[i], pending.ids[i], pending.titles[i],
                              pending.details[i], pending.sizes[i]);
    item->setPos(layout.centers[i]);
    addItem(item);
    byLayoutIndex[i] = item;
    if (pending.roles[i] == NodeRole::Output) continue;
    nodeItems_.push_back(item);
    itemByNode_[pending.ids[i]] = item;
  }
  edgeItems_.reserve(pending.request.edges.size());
  for (size_t e = 0; e < pending.request.edges.size(); ++e) {
    NodeItem* source = byLayoutIndex[pending.request.edges[e].from];
    NodeItem* target = byLayoutIndex[pending.request.edges[e].to];
    const LayoutEdgeRoute& route = layout.edges[e];
    QPainterPath path = pathThrough(route.bezier);
    std::optional<QPointF> tip = route.hasArrow ? std::optional<QPointF>(route.arrowTip) : std::nullopt;
    if (path.isEmpty()) { // Graphviz left it unrouted: a straight line between the boxes
      path.moveTo(source->pos() + QPointF(0, source->size().height() / 2));
      path.lineTo(target->pos() - QPointF(0, target->size().height() / 2));
    }
    auto* edge = new EdgeItem(&style_, source, target, std::move(path), tip, pending.edgeLabels[e]);
    addItem(edge);
    source->addEdge(edge);
    target->addEdge(edge);
    edgeItems_.push_back(edge);
  }
  setItemIndexMethod(BspTreeIndex);
  graphBounds_ = layout.bounds;
  setSceneRect(layout.bounds.adjusted(-60, -60, 60, 60));
  layoutSeconds_ = layout.seconds;

  applyHeat();
  applyMarks();
  for (NodeId node : searchMatches_)
    if (NodeItem* item = itemForNode(node)) item->setSearchMatch(true);
  if (keepSelected)
    if (NodeItem* item = itemForNode(*keepSelected)) item->setSelected(true);
  buildSeconds_ = timer.nsecsElapsed() / 1e9;
  emit layoutFinished();
}

void GraphScene::applyHeat() {
  maxNodeMs_ = 0;
  for (NodeItem* item : nodeItems_) maxNodeMs_ = std::max(maxNodeMs_, snapshot_.costOf(item->nodeId()));
  const Graph* graph = snapshot_.graph.get();
  for (NodeItem* item : nodeItems_) {
    double ms = snapshot_.costOf(item->nodeId());
    // Square root spreads the many cheap ops apart instead of painting them all the palest colour.
    item->setHeat(maxNodeMs_ > 0 ? std::sqrt(ms / maxNodeMs_) : 0.0, ms <= 0);
    const Node& node = graph->node(item->nodeId());
    QString tip = QStringLiteral("%1\n%2").arg(QString::fromStdString(node.name.empty() ? "(unnamed)" : node.name),
                                               item->title());
    if (item->role() == NodeRole::Op && !snapshot_.costSpec.empty())
      tip += QStringLiteral("\n%1 (%2)").arg(costText(ms), QString::fromStdString(snapshot_.costSpec));
    item->setToolTip(tip);
  }
}

void GraphScene::applyMarks() {
  for (NodeItem* item : nodeItems_) {
    NodeId id = item->nodeId();
    item->setDiffStatus(id < marks_.size() ? std::optional<DiffStatus>(marks_[id]) : std::nullopt);
  }
}

} // namespace tessera::views
