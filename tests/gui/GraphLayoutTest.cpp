// Graphviz layout: every node of a sample model gets a position, boxes never overlap, edges go
// down the ranks, parallel edges stay distinct, and concurrent requests are serialised safely.
#include "GraphLayout.h"
#include "TestModels.h"

#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using namespace tessera::views;

namespace {

// One layout node per non-weight graph node, one edge per input between them.
LayoutRequest requestFor(const Graph& graph, std::vector<int>* indexOf = nullptr) {
  LayoutRequest request;
  std::vector<int> index(graph.size(), -1);
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (graph.node(id).kind == OpKind::Weight) continue;
    index[id] = static_cast<int>(request.nodes.size());
    request.nodes.push_back({60.0 + (id % 5) * 10, 30, id % 3 == 0});
  }
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (index[id] < 0) continue;
    for (ValueRef in : graph.node(id).inputs)
      if (!in.isNone() && index[in.node] >= 0) request.edges.push_back({index[in.node], index[id]});
  }
  if (indexOf) *indexOf = index;
  return request;
}

QRectF box(const LayoutRequest& request, const LayoutResult& layout, size_t i) {
  QSizeF size(request.nodes[i].width, request.nodes[i].height);
  return QRectF(layout.centers[i] - QPointF(size.width() / 2, size.height() / 2), size);
}

void expectSound(const LayoutRequest& request, const LayoutResult& layout) {
  ASSERT_TRUE(layout.error.empty()) << layout.error;
  ASSERT_EQ(layout.centers.size(), request.nodes.size());
  ASSERT_EQ(layout.edges.size(), request.edges.size());
  QRectF bounds = layout.bounds.adjusted(-1, -1, 1, 1);
  for (size_t i = 0; i < layout.centers.size(); ++i) {
    QPointF c = layout.centers[i];
    ASSERT_TRUE(std::isfinite(c.x()) && std::isfinite(c.y())) << "node " << i;
    EXPECT_TRUE(bounds.contains(box(request, layout, i))) << "node " << i << " leaves the layout bounds";
  }
  for (size_t i = 0; i < layout.centers.size(); ++i)
    for (size_t j = i + 1; j < layout.centers.size(); ++j)
      ASSERT_FALSE(box(request, layout, i).adjusted(1, 1, -1, -1).intersects(box(request, layout, j)))
          << "nodes " << i << " and " << j << " overlap";
  for (size_t e = 0; e < request.edges.size(); ++e) {
    const LayoutEdgeRoute& route = layout.edges[e];
    ASSERT_GE(route.bezier.size(), 4u) << "edge " << e << " is not routed";
    EXPECT_EQ((route.bezier.size() - 1) % 3, 0u) << "a route is a start point plus three points per cubic";
    // Top to bottom: the consumer sits on a lower rank than its producer.
    EXPECT_LT(layout.centers[request.edges[e].from].y(), layout.centers[request.edges[e].to].y()) << "edge " << e;
    // The route leaves the producer's box and ends at the consumer's box (arrowhead included).
    QPointF end = route.hasArrow ? route.arrowTip : route.bezier.back();
    EXPECT_TRUE(box(request, layout, request.edges[e].from).adjusted(-3, -3, 3, 3).contains(route.bezier.front())) << "edge " << e;
    EXPECT_TRUE(box(request, layout, request.edges[e].to).adjusted(-3, -3, 3, 3).contains(end)) << "edge " << e;
  }
}

} // namespace

TEST(GraphLayout, EveryNodeOfASampleModelGetsAPosition) {
  Graph graph = onnx_io::importOnnxFile(tessera::testing::samplePath("squeezenet"));
  LayoutRequest request = requestFor(graph);
  ASSERT_EQ(request.nodes.size(), graph.opCount() + graph.inputNodes().size());
  LayoutResult layout = computeLayout(request);
  expectSound(request, layout);
  EXPECT_GT(layout.seconds, 0.0);
}

TEST(GraphLayout, ParallelEdgesStayDistinct) {
  LayoutRequest request;
  request.nodes = {{60, 30, false}, {60, 30, true}};
  request.edges = {{0, 1}, {0, 1}}; // Add(x, x)
  LayoutResult layout = computeLayout(request);
  expectSound(request, layout);
  EXPECT_NE(layout.edges[0].bezier, layout.edges[1].bezier);
}

TEST(GraphLayout, ConcurrentRequestsAreSerialisedAndAllSucceed) {
  Graph graph = tessera::testing::denseNet({2, 3});
  LayoutRequest request = requestFor(graph);
  std::vector<QFuture<LayoutResult>> futures;
  for (int i = 0; i < 4; ++i) futures.push_back(layoutAsync(request));
  LayoutResult first = futures[0].result();
  expectSound(request, first);
  for (auto& future : futures) {
    LayoutResult layout = future.result();
    ASSERT_TRUE(layout.error.empty());
    EXPECT_EQ(layout.centers, first.centers) << "dot is deterministic for the same input";
  }
}

TEST(GraphLayout, EmptyAndInvalidRequests) {
  EXPECT_TRUE(computeLayout({}).centers.empty());
  LayoutRequest bad;
  bad.nodes = {{60, 30, false}};
  bad.edges = {{0, 3}};
  LayoutResult layout = computeLayout(bad);
  EXPECT_FALSE(layout.error.empty());
  EXPECT_TRUE(layout.centers.empty());
}
