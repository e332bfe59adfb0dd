// The graph scene and view: one item per visible node, weights on request, captions, heat-map
// colours by cost, and search by name, op and shape.
#include "EdgeItem.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "NodeCaption.h"
#include "NodeItem.h"
#include "NodeSearch.h"
#include "OpStyle.h"
#include "TestModels.h"
#include "ViewExport.h"

#include "onnx/OnnxImport.h"

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <set>

using namespace tessera;
using namespace tessera::views;
using tessera::testing::waitUntil;

namespace {

std::shared_ptr<const Graph> squeezenet() {
  static auto graph = std::make_shared<const Graph>(onnx_io::importOnnxFile(tessera::testing::samplePath("squeezenet")));
  return graph;
}

bool layOut(GraphScene& scene, GraphSnapshot snapshot) {
  QSignalSpy finished(&scene, &GraphScene::layoutFinished);
  scene.setSnapshot(std::move(snapshot));
  return finished.wait(30000);
}

size_t inputEdgesBetweenVisible(const Graph& graph, bool weights) {
  size_t edges = 0;
  for (const Node& node : graph.nodes()) {
    if (!weights && node.kind == OpKind::Weight) continue;
    for (ValueRef in : node.inputs)
      edges += !in.isNone() && (weights || graph.node(in.node).kind != OpKind::Weight);
  }
  return edges + graph.outputs().size();
}

NodeId idOf(const Graph& graph, const char* name) {
  std::optional<NodeId> id = graph.findNode(name);
  EXPECT_TRUE(id) << name;
  return id.value_or(0);
}

} // namespace

TEST(GraphScene, ShowsOneItemPerVisibleNode) {
  auto graph = squeezenet();
  GraphScene scene;
  ASSERT_TRUE(layOut(scene, GraphSnapshot::make(graph, "analytic:h200")));
  size_t weights = graph->weightNodes().size();
  ASSERT_GT(weights, 0u);
  EXPECT_EQ(scene.visibleNodeCount(), static_cast<int>(graph->size() - weights));
  EXPECT_EQ(scene.edgeItems().size(), inputEdgesBetweenVisible(*graph, false));
  std::set<std::pair<qreal, qreal>> positions;
  for (NodeItem* item : scene.nodeItems()) {
    EXPECT_NE(graph->node(item->nodeId()).kind, OpKind::Weight);
    EXPECT_EQ(scene.itemForNode(item->nodeId()), item);
    positions.insert({item->pos().x(), item->pos().y()});
  }
  EXPECT_EQ(positions.size(), scene.nodeItems().size()) << "every node has its own place";
  EXPECT_EQ(scene.itemForNode(graph->weightNodes().front()), nullptr);

  QSignalSpy relaid(&scene, &GraphScene::layoutFinished);
  scene.setShowWeights(true);
  ASSERT_TRUE(relaid.wait(30000));
  EXPECT_EQ(scene.visibleNodeCount(), static_cast<int>(graph->size()));
  EXPECT_EQ(scene.edgeItems().size(), inputEdgesBetweenVisible(*graph, true));
  EXPECT_NE(scene.itemForNode(graph->weightNodes().front()), nullptr);
}

TEST(GraphScene, SelectionSurvivesARelayoutAndEmphasisesEdges) {
  auto graph = squeezenet();
  GraphScene scene;
  ASSERT_TRUE(layOut(scene, GraphSnapshot::make(graph, "analytic:h200")));
  NodeId conv = scene.nodeItems()[3]->nodeId();
  QSignalSpy selected(&scene, &GraphScene::selectedNodeChanged);
  scene.selectNode(conv);
  ASSERT_EQ(selected.count(), 1);
  EXPECT_EQ(selected.front().front().toLongLong(), static_cast<qint64>(conv));
  QSignalSpy relaid(&scene, &GraphScene::layoutFinished);
  scene.setShowWeights(true);
  ASSERT_TRUE(relaid.wait(30000));
  ASSERT_TRUE(scene.selectedNode());
  EXPECT_EQ(*scene.selectedNode(), conv);
}

TEST(GraphScene, DestroyingASceneWithASelectionAnnouncesNothing) {
  auto graph = squeezenet();
  int announcements = 0;
  {
    GraphScene scene;
    ASSERT_TRUE(layOut(scene, GraphSnapshot::make(graph, "analytic:h200")));
    scene.selectNode(scene.nodeItems().front()->nodeId());
    // A listener that reads the scene, as the properties panel does: it must not run mid-destruction.
    QObject::connect(&scene, &GraphScene::selectedNodeChanged, [&] {
      ++announcements;
      EXPECT_TRUE(scene.snapshot().graph);
    });
  }
  EXPECT_EQ(announcements, 0);
}

TEST(GraphScene, HeatMapColoursTheCostliestNodeHottest) {
  auto graph = squeezenet();
  GraphScene scene;
  GraphSnapshot snapshot = GraphSnapshot::make(graph, "analytic:h200");
  ASSERT_TRUE(layOut(scene, snapshot));
  scene.setHeatMap(true);
  NodeId hottest = 0;
  NodeId freeOp = 0;
  bool sawFree = false;
  for (NodeItem* item : scene.nodeItems()) {
    if (item->role() != NodeRole::Op) continue;
    if (snapshot.costOf(item->nodeId()) > snapshot.costOf(hottest)) hottest = item->nodeId();
    if (snapshot.costOf(item->nodeId()) == 0) {
      freeOp = item->nodeId();
      sawFree = true;
    }
  }
  bool dark = scene.style().theme.dark;
  EXPECT_EQ(scene.maxNodeMs(), snapshot.costOf(hottest));
  EXPECT_EQ(scene.itemForNode(hottest)->fillColor(), heatColor(1.0, dark));
  ASSERT_TRUE(sawFree) << "squeezenet has free ops (reshape, dropout)";
  EXPECT_EQ(scene.itemForNode(freeOp)->fillColor(), freeOpColor(dark));
  scene.setHeatMap(false);
  const Node& node = graph->node(hottest);
  EXPECT_EQ(scene.itemForNode(hottest)->fillColor(), categoryColor(opInfo(node.kind).category, dark));
}

TEST(NodeCaption, ReadsLikeTheOp) {
  Graph dense = tessera::testing::denseNet({1, 1});
  EXPECT_EQ(nodeCaption(dense, idOf(dense, "conv0")).title, "Conv 7×7 /2");
  EXPECT_EQ(nodeCaption(dense, idOf(dense, "conv0")).detail, "1×64×112×112");
  EXPECT_EQ(nodeCaption(dense, idOf(dense, "pool0")).title, "MaxPool 3×3 /2");
  EXPECT_EQ(nodeCaption(dense, idOf(dense, "input")).title, "input");
  Graph g = tessera::testing::branchesGraph();
  Node& conv = g.mutableNode(idOf(g, "conv_a"));
  conv.attrs.set("activation", int64_t{2});
  EXPECT_EQ(nodeCaption(g, idOf(g, "conv_a")).title, "Conv 1×1 +Relu");
  EXPECT_EQ(elide("abcdefgh", 5), "abcd…");
  EXPECT_EQ(elide("abcde", 5), "abcde");
  EXPECT_EQ(elide("a×b×c×d", 4), "a×b…");
}

TEST(NodeSearch, FindsByNameOpAndShape) {
  Graph g = tessera::testing::branchesGraph();
  auto ids = [&](std::initializer_list<const char*> names) {
    std::vector<NodeId> out;
    for (const char* name : names) out.push_back(idOf(g, name));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(findNodes(g, "relu"), ids({"relu_a", "relu_b"}));
  EXPECT_EQ(findNodes(g, "  CONV_B "), ids({"conv_b"}));
  EXPECT_EQ(findNodes(g, "op:conv"), ids({"conv_a", "conv_b"}));
  EXPECT_EQ(findNodes(g, "name:concat"), ids({"concat"}));
  // Concat's output is 1x16x14x14; whole dimensions only, in any of the usual spellings.
  EXPECT_EQ(findNodes(g, "16x14x14"), ids({"concat"}));
  EXPECT_EQ(findNodes(g, "[1,16,14,14]"), ids({"concat"}));
  EXPECT_EQ(findNodes(g, "shape:16×14"), ids({"concat"}));
  EXPECT_TRUE(findNodes(g, "shape:6,14").empty()) << "16 must not match 6";
  EXPECT_EQ(findNodes(g, "8,3,3"), ids({"w2"}));
  EXPECT_TRUE(findNodes(g, "").empty());
  EXPECT_TRUE(findNodes(g, "op:").empty());
  EXPECT_TRUE(findNodes(g, "no-such-node").empty());
}

TEST(GraphView, SearchSelectsAndCentresTheMatch) {
  auto graph = squeezenet();
  GraphView view;
  view.resize(800, 600);
  view.show();
  QSignalSpy finished(view.graphScene(), &GraphScene::layoutFinished);
  view.graphScene()->setSnapshot(GraphSnapshot::make(graph, "analytic:h200"));
  ASSERT_TRUE(finished.wait(30000));
  // The last Concat sits far below the first screen.
  std::vector<NodeId> concats = findNodes(*graph, "op:Concat");
  ASSERT_FALSE(concats.empty());
  NodeId last = concats.back();
  std::string name = graph->node(last).name;
  ASSERT_FALSE(name.empty());
  view.showSearch();
  view.search(QString::fromStdString("name:" + name));
  ASSERT_EQ(view.searchResults(), std::vector<NodeId>{last});
  ASSERT_TRUE(view.graphScene()->selectedNode());
  EXPECT_EQ(*view.graphScene()->selectedNode(), last);
  EXPECT_TRUE(view.graphScene()->itemForNode(last)->isSearchMatch());
  QPointF centre = view.viewCenter();
  QPointF target = view.graphScene()->itemForNode(last)->pos();
  EXPECT_LT(std::abs(centre.y() - target.y()), 5.0) << "the match is scrolled into the middle";

  view.search("op:Concat");
  EXPECT_EQ(view.searchResults(), concats);
  view.stepSearch(false);
  EXPECT_EQ(view.currentSearchIndex(), 1);
  view.stepSearch(true);
  view.stepSearch(true);
  EXPECT_EQ(view.currentSearchIndex(), static_cast<int>(concats.size()) - 1) << "stepping back wraps around";
  view.closeSearch();
  EXPECT_FALSE(view.graphScene()->itemForNode(last)->isSearchMatch());
}

TEST(ViewExport, WritesTheWholeSceneAsPngAndSvg) {
  auto graph = squeezenet();
  GraphScene scene;
  ASSERT_TRUE(layOut(scene, GraphSnapshot::make(graph, "analytic:h200")));
  QTemporaryDir dir;
  QString png = dir.filePath("graph.png");
  QString svg = dir.filePath("graph.svg");
  EXPECT_EQ(exportScene(&scene, png), QString());
  EXPECT_EQ(exportScene(&scene, svg), QString());
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  // The whole graph, not a viewport: the image is as tall as the laid-out graph (at 2x).
  EXPECT_GE(image.height(), static_cast<int>(scene.graphBounds().height() * 2));
  QFile file(svg);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  QByteArray text = file.readAll();
  EXPECT_TRUE(text.contains("<svg"));
  EXPECT_TRUE(text.contains("Concat")) << "node captions are text in the SVG";
  EXPECT_NE(exportScene(&scene, dir.filePath("missing/dir/x.png")), QString());
  GraphScene empty;
  EXPECT_NE(exportScene(&empty, dir.filePath("empty.png")), QString());
}
