#include "GraphLayout.h"

#include "BackgroundWork.h"

#include <QPolygonF>
#include <QThreadPool>

#include <gvc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <numeric>
#include <optional>

namespace tessera::views {

namespace {

constexpr double kPointsPerInch = 72.0;

// Graphviz keeps global state (its context, error handling, memory pools): one layout at a time.
std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

// Created once and kept for the life of the process; loading plugins is the slow part.
GVC_t* graphvizContext() {
  static GVC_t* context = [] {
    agseterr(AGERR); // warnings about huge graphs are not for the user's terminal
    return gvContext();
  }();
  return context;
}

// cgraph's API takes char* for strings it never writes.
char* cstr(const char* text) { return const_cast<char*>(text); }

std::string inches(double points) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", points / kPointsPerInch);
  return buffer;
}

// Longest-path depth of every node; a source sits just above its first consumer, where dot's
// ranking puts it too. Nodes on a cycle (never in a model graph) keep depth 0.
std::vector<int> depths(const LayoutRequest& request) {
  size_t n = request.nodes.size();
  std::vector<std::vector<int>> consumers(n);
  std::vector<int> pending(n, 0), depth(n, 0);
  for (const LayoutEdgeSpec& e : request.edges) {
    consumers[e.from].push_back(e.to);
    ++pending[e.to];
  }
  std::vector<bool> isSource(n);
  std::deque<int> ready;
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) {
      ready.push_back(static_cast<int>(i));
      isSource[i] = true;
    }
  while (!ready.empty()) {
    int node = ready.front();
    ready.pop_front();
    for (int next : consumers[node]) {
      depth[next] = std::max(depth[next], depth[node] + 1);
      if (--pending[next] == 0) ready.push_back(next);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!isSource[i] || consumers[i].empty()) continue;
    int first = depth[consumers[i].front()];
    for (int next : consumers[i]) first = std::min(first, depth[next]);
    depth[i] = std::max(0, first - 1);
  }
  return depth;
}

// Which edges Graphviz routes: all, unless their virtual nodes exceed the budget; then the
// longest go first.
std::vector<bool> edgesForGraphviz(const LayoutRequest& request) {
  std::vector<bool> keep(request.edges.size(), true);
  std::vector<int> depth = depths(request);
  std::vector<size_t> span(request.edges.size());
  size_t virtualNodes = 0;
  for (size_t i = 0; i < request.edges.size(); ++i) {
    int d = depth[request.edges[i].to] - depth[request.edges[i].from];
    span[i] = d > 1 ? static_cast<size_t>(d - 1) : 0;
    virtualNodes += span[i];
  }
  if (virtualNodes <= request.virtualNodeBudget) return keep;
  std::vector<size_t> order(request.edges.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return span[a] > span[b]; });
  for (size_t i : order) {
    if (virtualNodes <= request.virtualNodeBudget || span[i] == 0) break;
    keep[i] = false;
    virtualNodes -= span[i];
  }
  return keep;
}

// Node boxes sorted by their centre's y, to find what lies between two ranks quickly.
struct BoxIndex {
  std::vector<std::pair<double, QRectF>> byY;

  BoxIndex(const LayoutRequest& request, const std::vector<QPointF>& centers) {
    byY.reserve(centers.size());
    for (size_t i = 0; i < centers.size(); ++i) {
      QSizeF size(request.nodes[i].width, request.nodes[i].height);
      byY.push_back({centers[i].y(), QRectF(centers[i] - QPointF(size.width() / 2, size.height() / 2), size)});
    }
    std::sort(byY.begin(), byY.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  // The right edge of the boxes strictly between y0 and y1 that lie near [x0, x1] horizontally.
  double rightEdgeBetween(double y0, double y1, double x0, double x1) const {
    constexpr double kNear = 320;
    double right = x1;
    auto it = std::upper_bound(byY.begin(), byY.end(), y0, [](double y, const auto& entry) { return y < entry.first; });
    for (; it != byY.end() && it->first < y1; ++it) {
      const QRectF& box = it->second;
      if (box.right() < x0 - kNear || box.left() > x1 + kNear) continue;
      right = std::max(right, box.right());
    }
    return right;
  }
};

// A skip connection Graphviz did not route: out of the producer's bottom, down a lane to the right
// of every box in between, into the consumer's top. Lanes of neighbouring skips are spread a
// little so that they read as a bundle of lines, not one.
LayoutEdgeRoute laneRoute(const BoxIndex& boxes, QPointF from, QSizeF fromSize, QPointF to, QSizeF toSize, int spread) {
  constexpr double kArrow = 7;
  constexpr double kClearance = 14;
  QPointF start = from + QPointF(0, fromSize.height() / 2);
  QPointF tip = to - QPointF(0, toSize.height() / 2);
  QPointF end = tip - QPointF(0, kArrow);
  double lane = boxes.rightEdgeBetween(from.y(), to.y(), std::min(from.x(), to.x()), std::max(from.x(), to.x())) + kClearance +
                4.0 * spread;
  double turn = std::min(40.0, std::max(8.0, (end.y() - start.y()) / 4));
  QPointF laneTop(lane, start.y() + turn);
  QPointF laneBottom(lane, end.y() - turn);
  LayoutEdgeRoute route;
  // Three cubics: an S-bend into the lane, straight down it, an S-bend back into the consumer.
  route.bezier = {start,
                  start + QPointF(0, turn * 0.6), laneTop - QPointF(0, turn * 0.6), laneTop,
                  laneTop + (laneBottom - laneTop) / 3, laneBottom - (laneBottom - laneTop) / 3, laneBottom,
                  laneBottom + QPointF(0, turn * 0.6), end - QPointF(0, turn * 0.6), end};
  route.hasArrow = true;
  route.arrowTip = tip;
  route.arc = true;
  return route;
}

struct GraphHandle {
  Agraph_t* graph = nullptr;
  bool laidOut = false;
  ~GraphHandle() {
    if (!graph) return;
    if (laidOut) gvFreeLayout(graphvizContext(), graph);
    agclose(graph);
  }
};

} // namespace

LayoutResult computeLayout(const LayoutRequest& request) {
  LayoutResult result;
  if (request.nodes.empty()) return result;
  std::lock_guard<std::mutex> lock(graphvizMutex());
  auto start = std::chrono::steady_clock::now();
  GVC_t* context = graphvizContext();

  GraphHandle handle;
  Agdesc_t directed = Agdirected;
  handle.graph = agopen(cstr("tessera"), directed, nullptr);
  Agraph_t* g = handle.graph;
  agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
  agattr(g, AGRAPH, cstr("nodesep"), cstr(inches(request.nodeSeparation).c_str()));
  agattr(g, AGRAPH, cstr("ranksep"), cstr(inches(request.rankSeparation).c_str()));
  agattr(g, AGRAPH, cstr("splines"), cstr("spline"));
  // Big graphs: fewer crossing-minimisation passes and network-simplex iterations. DenseNet-size
  // models lay out ten times faster and still read well; small ones keep dot's full effort.
  if (request.nodes.size() > 300) {
    agattr(g, AGRAPH, cstr("mclimit"), cstr("0.2"));
    agattr(g, AGRAPH, cstr("nslimit"), cstr("0.5"));
    agattr(g, AGRAPH, cstr("nslimit1"), cstr("0.5"));
  }
  Agsym_t* shape = agattr(g, AGNODE, cstr("shape"), cstr("box"));
  Agsym_t* width = agattr(g, AGNODE, cstr("width"), cstr("0.75"));
  Agsym_t* height = agattr(g, AGNODE, cstr("height"), cstr("0.5"));
  agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
  agattr(g, AGNODE, cstr("label"), cstr("")); // no text layout in Graphviz: Qt draws the text
  agattr(g, AGNODE, cstr("margin"), cstr("0"));
  agattr(g, AGEDGE, cstr("arrowsize"), cstr("0.6"));

  std::vector<Agnode_t*> nodes(request.nodes.size());
  char name[32];
  for (size_t i = 0; i < request.nodes.size(); ++i) {
    std::snprintf(name, sizeof name, "n%zu", i);
    nodes[i] = agnode(g, name, 1);
    agxset(nodes[i], width, cstr(inches(request.nodes[i].width).c_str()));
    agxset(nodes[i], height, cstr(inches(request.nodes[i].height).c_str()));
    if (request.nodes[i].ellipse) agxset(nodes[i], shape, cstr("ellipse"));
  }
  std::vector<Agedge_t*> edges(request.edges.size(), nullptr);
  for (size_t i = 0; i < request.edges.size(); ++i) {
    const LayoutEdgeSpec& spec = request.edges[i];
    if (spec.from < 0 || spec.to < 0 || spec.from >= static_cast<int>(nodes.size()) || spec.to >= static_cast<int>(nodes.size())) {
      result.error = "edge " + std::to_string(i) + " names a node that is not in the layout";
      return result;
    }
  }
  std::vector<bool> routed = edgesForGraphviz(request);
  for (size_t i = 0; i < request.edges.size(); ++i) {
    if (!routed[i]) continue;
    const LayoutEdgeSpec& spec = request.edges[i];
    std::snprintf(name, sizeof name, "e%zu", i); // named, so that parallel edges stay distinct
    edges[i] = agedge(g, nodes[spec.from], nodes[spec.to], name, 1);
  }

  if (gvLayout(context, g, "dot") != 0) {
    result.error = "Graphviz dot could not lay out the graph";
    return result;
  }
  handle.laidOut = true;

  boxf box = GD_bb(g);
  double top = box.UR.y; // Graphviz's y grows upwards; the scene's grows downwards
  auto toScene = [top](pointf p) { return QPointF(p.x, top - p.y); };
  result.bounds = QRectF(QPointF(box.LL.x, 0), QPointF(box.UR.x, box.UR.y - box.LL.y));
  result.centers.reserve(nodes.size());
  for (Agnode_t* node : nodes) result.centers.push_back(toScene(ND_coord(node)));
  result.edges.resize(edges.size());
  auto sizeOf = [&](int node) { return QSizeF(request.nodes[node].width, request.nodes[node].height); };
  std::optional<BoxIndex> boxes;
  for (size_t i = 0; i < edges.size(); ++i) {
    Agedge_t* edge = edges[i];
    if (!edge) {
      if (!boxes) boxes.emplace(request, result.centers);
      const LayoutEdgeSpec& spec = request.edges[i];
      result.edges[i] = laneRoute(*boxes, result.centers[spec.from], sizeOf(spec.from), result.centers[spec.to], sizeOf(spec.to),
                                  static_cast<int>(result.arcs % 4));
      QPolygonF points(QList<QPointF>(result.edges[i].bezier.begin(), result.edges[i].bezier.end()));
      result.bounds |= points.boundingRect().adjusted(0, 0, 4, 0);
      ++result.arcs;
      continue;
    }
    // Parallel edges may have been merged by dot: the route then lives on the representative edge.
    splines* routes = ED_spl(edge);
    if (!routes || routes->size == 0) continue;
    const bezier& curve = routes->list[0];
    LayoutEdgeRoute& route = result.edges[i];
    route.bezier.reserve(curve.size);
    for (int p = 0; p < curve.size; ++p) route.bezier.push_back(toScene(curve.list[p]));
    if (curve.eflag) {
      route.hasArrow = true;
      route.arrowTip = toScene(curve.ep);
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

QFuture<LayoutResult> layoutAsync(LayoutRequest request) {
  static QThreadPool* const pool = namedThreadPool(QStringLiteral("tessera-layout"), 1);
  return runInBackground(pool, [request = std::move(request)] { return computeLayout(request); });
}

} // namespace tessera::views
