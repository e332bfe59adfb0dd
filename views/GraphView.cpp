#include "GraphView.h"

#include "GraphScene.h"
#include "HeatLegend.h"
#include "MiniMap.h"
#include "NodeItem.h"
#include "NodeSearch.h"
#include "SearchBar.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {
constexpr double kMinZoom = 0.02;
constexpr double kMaxZoom = 4.0;
constexpr double kReadableZoom = 0.6;  // below this, titles are too small to read
constexpr double kStartZoom = 0.9;
constexpr size_t kFrameWindow = 600;   // frames kept for statistics
} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), scene_(new GraphScene(this)) {
  setScene(scene_);
  setDragMode(ScrollHandDrag);
  setTransformationAnchor(AnchorUnderMouse);
  setResizeAnchor(AnchorViewCenter);
  setViewportUpdateMode(SmartViewportUpdate);
  setOptimizationFlag(DontAdjustForAntialiasing); // items pad their own bounds
  setRenderHint(QPainter::TextAntialiasing);
  setFrameShape(QFrame::NoFrame);
  setAcceptDrops(false); // model files dropped here go to the main window

  MiniMapSource overview;
  overview.bounds = [this] { return scene_->graphBounds(); };
  overview.theme = [this] { return scene_->style().theme; };
  overview.boxes = [this](const MiniMapSource::BoxSink& box) {
    const Theme& theme = scene_->style().theme;
    for (NodeItem* item : scene_->nodeItems()) {
      const QSizeF size = item->size();
      std::optional<DiffStatus> diff = item->diffStatus();
      QColor color = item->fillColor();
      if (diff && *diff == DiffStatus::Added) color = theme.added;
      else if (diff && *diff == DiffStatus::Removed) color = theme.removed;
      else if (diff && *diff == DiffStatus::Changed) color = theme.changed;
      else if (diff && scene_->style().dimUnchanged) color.setAlphaF(0.35f);
      if (item->isSearchMatch()) color = theme.searchMatch;
      box(QRectF(item->pos() - QPointF(size.width() / 2, size.height() / 2), size), color);
    }
  };
  miniMap_ = new MiniMap(this, std::move(overview));
  legend_ = new HeatLegend(this, scene_);
  placeholder_ = new QLabel(this);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setAttribute(Qt::WA_TransparentForMouseEvents);
  QPalette muted = placeholder_->palette();
  muted.setColor(QPalette::WindowText, scene_->style().theme.mutedText);
  placeholder_->setPalette(muted);

  connect(scene_, &GraphScene::layoutFinished, this, &GraphView::onLayoutFinished);
  connect(scene_, &GraphScene::layoutStarted, this, [this] {
    layoutProblem_.clear();
    updateOverlays();
  });
  connect(scene_, &GraphScene::layoutFailed, this, [this](const QString& message) {
    layoutProblem_ = tr("The graph could not be laid out: %1").arg(message);
    updateOverlays();
  });
  connect(scene_, &GraphScene::appearanceChanged, this, [this] {
    miniMap_->invalidate();
    updateOverlays();
  });
  connect(this, &GraphView::viewportChanged, miniMap_, qOverload<>(&QWidget::update));
  // Placed before it is first shown: a word-wrapped label shown with no size of its own lays its
  // text out to find one (a few ms per view at start-up), only to be placed right after.
  placeOverlays();
  setPlaceholderText(tr("Open an ONNX model (Ctrl+O) or drop one here"));
}

double GraphView::zoom() const { return transform().m11(); }

void GraphView::setZoom(double zoom) {
  zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
  QPointF center = viewCenter();
  setTransform(QTransform::fromScale(zoom, zoom));
  centerOn(center);
  emit viewportChanged();
}

void GraphView::zoomBy(double factor) {
  double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
  if (target == zoom()) return;
  scale(target / zoom(), target / zoom());
  emit viewportChanged();
}

void GraphView::fitToView() {
  QRectF bounds = scene_->graphBounds();
  if (bounds.isEmpty()) return;
  QRectF target = bounds.adjusted(-20, -20, 20, 20);
  QSizeF area = viewport()->size();
  double zoom = std::min({area.width() / target.width(), area.height() / target.height(), 1.0});
  setTransform(QTransform::fromScale(std::max(zoom, kMinZoom), std::max(zoom, kMinZoom)));
  centerOn(target.center());
  emit viewportChanged();
}

void GraphView::actualSize() { setZoom(1.0); }

void GraphView::frameInitially() {
  QRectF bounds = scene_->graphBounds();
  if (bounds.isEmpty()) return;
  QSizeF area = viewport()->size();
  double fit = std::min(area.width() / (bounds.width() + 40), area.height() / (bounds.height() + 40));
  if (fit >= kReadableZoom) {
    fitToView();
    return;
  }
  // Too big to read whole: start readable at the top (the inputs), as a reader starts a model;
  // the minimap shows the rest.
  double zoom = kStartZoom;
  setTransform(QTransform::fromScale(zoom, zoom));
  double halfHeight = area.height() / 2 / zoom;
  double x = bounds.center().x();
  for (NodeItem* item : scene_->nodeItems())
    if (item->role() == NodeRole::Input) {
      x = item->pos().x();
      break;
    }
  centerOn(x, bounds.top() - 20 + halfHeight);
  emit viewportChanged();
}

void GraphView::centerOnNode(NodeId node, bool select) {
  NodeItem* item = scene_->itemForNode(node);
  if (!item) return;
  if (zoom() < kReadableZoom) setZoom(kStartZoom);
  centerOn(item);
  if (select) scene_->selectNode(node);
  emit viewportChanged();
}

bool GraphView::focusNodes(const std::vector<NodeId>& nodes) {
  QRectF bounds;
  std::optional<NodeId> first;
  for (NodeId node : nodes) {
    NodeItem* item = scene_->itemForNode(node);
    if (!item) continue;
    bounds |= item->sceneBoundingRect();
    if (!first) first = node;
  }
  if (!first) return false;
  QRectF target = bounds.adjusted(-60, -60, 60, 60);
  QSizeF area = viewport()->size();
  double zoom = std::min({area.width() / target.width(), area.height() / target.height(), 1.0});
  setTransform(QTransform::fromScale(std::max(zoom, kMinZoom), std::max(zoom, kMinZoom)));
  centerOn(target.center());
  scene_->selectNode(first);
  emit viewportChanged();
  return true;
}

QPointF GraphView::viewCenter() const { return mapToScene(viewport()->rect().center()); }

void GraphView::setMiniMapVisible(bool visible) {
  miniMapWanted_ = visible;
  updateOverlays();
}

void GraphView::setPlaceholderText(const QString& text) {
  placeholderText_ = text;
  updateOverlays();
}

// Made on first use: most views are never searched, and a line edit's clear button costs an icon
// theme lookup that would otherwise lengthen the window's start-up.
SearchBar& GraphView::searchBar() {
  if (searchBar_) return *searchBar_;
  searchBar_ = new SearchBar(this);
  searchBar_->onQueryChanged = [this](const QString& query) { search(query); };
  searchBar_->onStep = [this](bool backwards) { stepSearch(backwards); };
  searchBar_->onClose = [this] { closeSearch(); };
  return *searchBar_;
}

bool GraphView::searchShown() const { return searchBar_ && searchBar_->isVisible(); }

void GraphView::showSearch() {
  searchBar().activate();
  placeOverlays();
  if (!searchBar_->query().isEmpty()) search(searchBar_->query());
}

void GraphView::closeSearch() {
  if (searchBar_) searchBar_->hide();
  searchResults_.clear();
  searchIndex_ = -1;
  scene_->setSearchMatches({});
  setFocus();
}

void GraphView::search(const QString& query) {
  if (searchBar().query() != query) searchBar_->setQuery(query); // re-enters through onQueryChanged
  searchResults_.clear();
  searchIndex_ = -1;
  const GraphSnapshot& snapshot = scene_->snapshot();
  if (snapshot.graph) {
    for (NodeId node : findNodes(*snapshot.graph, query.toStdString()))
      if (scene_->isNodeVisible(node)) searchResults_.push_back(node);
  }
  scene_->setSearchMatches(searchResults_);
  if (!searchResults_.empty()) {
    searchIndex_ = 0;
    centerOnNode(searchResults_.front(), true);
  }
  searchBar_->setResult(searchIndex_, static_cast<int>(searchResults_.size()));
}

void GraphView::stepSearch(bool backwards) {
  if (searchResults_.empty()) return;
  int count = static_cast<int>(searchResults_.size());
  searchIndex_ = (searchIndex_ + (backwards ? count - 1 : 1)) % count;
  centerOnNode(searchResults_[searchIndex_], true);
  searchBar().setResult(searchIndex_, count);
}

FrameStats GraphView::frameStats() const {
  FrameStats stats;
  stats.frames = static_cast<int>(frameMs_.size());
  if (frameMs_.empty()) return stats;
  std::vector<double> sorted(frameMs_.begin(), frameMs_.end());
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double ms : sorted) sum += ms;
  stats.meanMs = sum / sorted.size();
  stats.maxMs = sorted.back();
  stats.p95Ms = sorted[std::min(sorted.size() - 1, static_cast<size_t>(sorted.size() * 0.95))];
  return stats;
}

void GraphView::wheelEvent(QWheelEvent* event) {
  int delta = event->angleDelta().y();
  if (delta == 0) {
    QGraphicsView::wheelEvent(event);
    return;
  }
  zoomBy(std::pow(1.0015, delta)); // one notch (120) is 20 %
  event->accept();
}

void GraphView::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  placeOverlays();
}

void GraphView::scrollContentsBy(int dx, int dy) {
  QGraphicsView::scrollContentsBy(dx, dy);
  emit viewportChanged();
}

void GraphView::paintEvent(QPaintEvent* event) {
  QElapsedTimer timer;
  timer.start();
  QGraphicsView::paintEvent(event);
  frameMs_.push_back(timer.nsecsElapsed() / 1e6);
  if (frameMs_.size() > kFrameWindow) frameMs_.pop_front();
}

void GraphView::changeEvent(QEvent* event) {
  QGraphicsView::changeEvent(event);
  if (event->type() != QEvent::PaletteChange) return;
  scene_->setTheme(palette());
  QPalette muted = placeholder_->palette();
  muted.setColor(QPalette::WindowText, scene_->style().theme.mutedText);
  placeholder_->setPalette(muted);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && searchShown()) {
    closeSearch();
    return;
  }
  QGraphicsView::keyPressEvent(event);
}

void GraphView::onLayoutFinished() {
  const void* graph = scene_->snapshot().graph.get();
  if (graph != framedGraph_) {
    framedGraph_ = graph;
    frameInitially();
  } else if (std::optional<NodeId> selected = scene_->selectedNode()) {
    centerOn(scene_->itemForNode(*selected));
  }
  miniMap_->invalidate();
  updateOverlays();
  if (searchShown() && !searchBar_->query().isEmpty()) search(searchBar_->query());
}

void GraphView::placeOverlays() {
  QRect area = viewport()->geometry();
  miniMap_->updateGeometryInView();
  legend_->move(area.left() + 12, area.bottom() - legend_->height() - 12);
  if (searchBar_) {
    QSize bar = searchBar_->sizeHint();
    searchBar_->setGeometry(area.right() - bar.width() - 12, area.top() + 10, bar.width(), bar.height());
  }
  placeholder_->setGeometry(area.adjusted(40, 40, -40, -40));
}

void GraphView::updateOverlays() {
  bool hasGraph = !scene_->nodeItems().empty();
  miniMap_->setVisible(hasGraph && miniMapWanted_);
  legend_->setVisible(hasGraph && scene_->heatMap());
  if (!layoutProblem_.isEmpty()) placeholder_->setText(layoutProblem_);
  else if (scene_->isLayingOut()) placeholder_->setText(tr("Laying out the graph…"));
  else placeholder_->setText(placeholderText_);
  placeholder_->setVisible(!hasGraph || !layoutProblem_.isEmpty());
  if (legend_->isVisible()) legend_->update();
  placeOverlays();
}

} // namespace tessera::views
