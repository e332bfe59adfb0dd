// Layered layout of a directed graph with Graphviz `dot` (cgraph + gvc): node centres and edge
// splines in scene units (points, y down). Graphviz is not thread-safe, so every layout in the
// process runs behind one mutex; callers run it on a worker thread through layoutAsync.
#pragma once

#include <QFuture>
#include <QPointF>
#include <QRectF>

#include <string>
#include <vector>

namespace tessera::views {

struct LayoutNodeSpec {
  double width = 60;   // points
  double height = 30;
  bool ellipse = false; // edges are clipped to an ellipse instead of the box
};

struct LayoutEdgeSpec {
  int from = 0; // indices into LayoutRequest::nodes
  int to = 0;
};

struct LayoutRequest {
  std::vector<LayoutNodeSpec> nodes;
  std::vector<LayoutEdgeSpec> edges;
  double nodeSeparation = 18; // points between neighbours in a rank
  double rankSeparation = 26; // points between ranks
  // dot's cost grows with the ranks its edges cross (one virtual node per rank crossed). Past this
  // budget the longest edges (DenseNet's concatenations of every earlier layer) are left out of
  // Graphviz and routed down lanes beside the nodes instead.
  size_t virtualNodeBudget = 2500;
};

struct LayoutEdgeRoute {
  std::vector<QPointF> bezier; // start point, then three points per cubic segment
  bool hasArrow = false;
  QPointF arrowTip;            // where the arrowhead points, past the end of `bezier`
  bool arc = false;            // left out of Graphviz (too long) and routed down a lane beside the nodes
};

struct LayoutResult {
  std::vector<QPointF> centers; // per request node
  std::vector<LayoutEdgeRoute> edges; // per request edge
  QRectF bounds;
  size_t arcs = 0;     // edges routed in lanes (see LayoutRequest::virtualNodeBudget)
  double seconds = 0;  // time inside Graphviz, without waiting for the mutex
  std::string error;   // non-empty when Graphviz failed; then centers and edges are empty
};

// Blocks until the layout is done. Safe to call from any thread.
LayoutResult computeLayout(const LayoutRequest& request);

// Runs computeLayout on a thread pool of its own (one thread: layouts are serialised anyway), so
// that a long layout never starves the global pool that model loading uses.
QFuture<LayoutResult> layoutAsync(LayoutRequest request);

} // namespace tessera::views
