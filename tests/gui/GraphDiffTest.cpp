// Compare: nodes matched by name then structure; a fused conv is "changed", the relu it absorbed
// "removed", a new op "added"; the compare widget marks them in both scenes and sums op counts.
#include "CompareWidget.h"
#include "GraphDiff.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "NodeItem.h"
#include "OpCountDiffModel.h"
#include "TestModels.h"

#include <QCoreApplication>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::views;
using tessera::testing::f32;

namespace {

using Ints = std::vector<int64_t>;

NodeId idOf(const Graph& graph, const char* name) {
  std::optional<NodeId> id = graph.findNode(name);
  EXPECT_TRUE(id) << name;
  return id.value_or(0);
}

// branchesGraph after fusing conv_a with relu_a and appending a sigmoid: what an optimiser could return.
Graph fusedGraph() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId a = g.addNode(OpKind::Conv, {{x}, {w1}}, {{"activation", int64_t{2}}}, "conv_a");
  NodeId c2 = g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}}, "conv_b");
  NodeId b = g.addNode(OpKind::Relu, {{c2}}, {}, "relu_b");
  NodeId cat = g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}}, "concat");
  g.addOutput({g.addNode(OpKind::Sigmoid, {{cat}}, {}, "extra")}, "y");
  return g;
}

} // namespace

TEST(GraphDiff, MarksFusedChangedRemovedAndAdded) {
  Graph before = tessera::testing::branchesGraph();
  Graph after = fusedGraph();
  GraphDiff diff = diffGraphs(before, after);
  EXPECT_EQ(diff.before[idOf(before, "relu_a")], DiffStatus::Removed);
  EXPECT_EQ(diff.before[idOf(before, "conv_a")], DiffStatus::Changed); // gained activation=relu
  EXPECT_EQ(diff.after[idOf(after, "conv_a")], DiffStatus::Changed);
  // Concat now reads conv_a around the removed relu: rewired, not changed.
  EXPECT_EQ(diff.before[idOf(before, "concat")], DiffStatus::Same);
  EXPECT_EQ(diff.after[idOf(after, "extra")], DiffStatus::Added);
  for (const char* same : {"x", "w1", "w2", "conv_b", "relu_b"}) {
    EXPECT_EQ(diff.before[idOf(before, same)], DiffStatus::Same) << same;
    EXPECT_EQ(diff.after[idOf(after, same)], DiffStatus::Same) << same;
    EXPECT_EQ(diff.beforeToAfter[idOf(before, same)], idOf(after, same)) << same;
  }
  EXPECT_EQ(diff.added, 1u);
  EXPECT_EQ(diff.removed, 1u);
  EXPECT_EQ(diff.changed, 1u);
}

TEST(GraphDiff, ReadingAnotherSurvivingNodeIsAChange) {
  Graph before = tessera::testing::branchesGraph();
  Graph after = tessera::testing::branchesGraph();
  // concat(relu_a, relu_b) becomes concat(relu_b, relu_a): same ops, different wiring.
  Node& concat = after.mutableNode(idOf(after, "concat"));
  std::swap(concat.inputs[0], concat.inputs[1]);
  GraphDiff diff = diffGraphs(before, after);
  EXPECT_EQ(diff.after[idOf(after, "concat")], DiffStatus::Changed);
  EXPECT_EQ(diff.changed, 1u);
  EXPECT_EQ(diff.added + diff.removed, 0u);
}

TEST(GraphDiff, ARewrittenNodeUnderANewNameShowsAsChanged) {
  Graph before = tessera::testing::branchesGraph();
  Graph after = fusedGraph();
  after.mutableNode(idOf(after, "conv_a")).name = "fused_17"; // optimisers name what they create
  GraphDiff diff = diffGraphs(before, after);
  EXPECT_EQ(diff.beforeToAfter[idOf(before, "conv_a")], idOf(after, "fused_17"));
  EXPECT_EQ(diff.after[idOf(after, "fused_17")], DiffStatus::Changed);
  EXPECT_EQ(diff.added, 1u) << "only the sigmoid is new";
  EXPECT_EQ(diff.removed, 1u) << "only the absorbed relu is gone";
}

TEST(GraphDiff, RenamedButIdenticalNodesMatchByStructure) {
  Graph before = tessera::testing::branchesGraph();
  Graph after = tessera::testing::branchesGraph();
  after.mutableNode(idOf(after, "relu_b")).name = "relu_b_renamed";
  after.mutableNode(idOf(after, "conv_a")).name = "";
  GraphDiff diff = diffGraphs(before, after);
  EXPECT_EQ(diff.added, 0u);
  EXPECT_EQ(diff.removed, 0u);
  EXPECT_EQ(diff.changed, 0u);
  EXPECT_EQ(diff.beforeToAfter[idOf(before, "relu_b")], idOf(after, "relu_b_renamed"));
  EXPECT_EQ(diff.beforeToAfter[idOf(before, "conv_a")], idOf(before, "conv_a")); // same position in both
}

TEST(GraphDiff, IdenticalGraphsHaveNoDifferences) {
  Graph g = tessera::testing::denseNet({2, 2});
  GraphDiff diff = diffGraphs(g, g);
  EXPECT_EQ(diff.added + diff.removed + diff.changed, 0u);
  for (NodeId id = 0; id < g.size(); ++id) EXPECT_EQ(diff.beforeToAfter[id], id);
}

TEST(CompareWidget, MarksARemovedAndAnAddedNode) {
  auto before = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  auto after = std::make_shared<const Graph>(fusedGraph());
  CompareWidget compare;
  compare.resize(1000, 700);
  compare.show();
  QSignalSpy beforeDone(compare.beforeView()->graphScene(), &GraphScene::layoutFinished);
  QSignalSpy afterDone(compare.afterView()->graphScene(), &GraphScene::layoutFinished);
  compare.setGraphs(GraphSnapshot::make(before, "analytic:h200", "original"), GraphSnapshot::make(after, "analytic:h200", "optimised"),
                    {{"fuse-conv-relu", 3}});
  ASSERT_TRUE(beforeDone.count() > 0 || beforeDone.wait(30000));
  ASSERT_TRUE(afterDone.count() > 0 || afterDone.wait(30000));

  NodeItem* removed = compare.beforeView()->graphScene()->itemForNode(idOf(*before, "relu_a"));
  NodeItem* added = compare.afterView()->graphScene()->itemForNode(idOf(*after, "extra"));
  NodeItem* same = compare.afterView()->graphScene()->itemForNode(idOf(*after, "conv_b"));
  ASSERT_TRUE(removed && added && same);
  EXPECT_EQ(removed->diffStatus(), DiffStatus::Removed);
  EXPECT_EQ(added->diffStatus(), DiffStatus::Added);
  EXPECT_EQ(same->diffStatus(), DiffStatus::Same);
  EXPECT_EQ(compare.itemsShown(), 6 + 6); // inputs and ops, weights hidden

  // Op counts per kind: one Relu fewer, one Sigmoid more.
  std::map<QString, std::pair<int, int>> counts;
  for (const auto& row : compare.opCounts()->rows()) counts[row.op] = {row.before, row.after};
  EXPECT_EQ(counts["Relu"], std::make_pair(2, 1));
  EXPECT_EQ(counts["Sigmoid"], std::make_pair(0, 1));
  EXPECT_EQ(counts["Conv"], std::make_pair(2, 2));

  // Selecting a node selects its counterpart on the other side.
  compare.beforeView()->graphScene()->selectNode(idOf(*before, "conv_b"));
  ASSERT_TRUE(compare.afterView()->graphScene()->selectedNode());
  EXPECT_EQ(*compare.afterView()->graphScene()->selectedNode(), idOf(*after, "conv_b"));
  // Navigation follows: centring the left side on conv_b brings the right side to its conv_b.
  compare.beforeView()->setZoom(4.0); // larger than the viewport, so centring is exact
  compare.beforeView()->centerOn(compare.beforeView()->graphScene()->itemForNode(idOf(*before, "conv_b")));
  QPointF right = compare.afterView()->viewCenter();
  QPointF counterpart = compare.afterView()->graphScene()->itemForNode(idOf(*after, "conv_b"))->pos();
  EXPECT_LT(QLineF(right, counterpart).length(), 3.0);
  EXPECT_DOUBLE_EQ(compare.afterView()->zoom(), 4.0);
}

// A long title (do no harm's verdict names the interval and the device) wraps: it must not widen the
// view, and with it the window, beyond the screen.
TEST(CompareWidget, ALongTitleWrapsInsteadOfWideningTheView) {
  auto before = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  auto after = std::make_shared<const Graph>(fusedGraph());
  CompareWidget compare;
  compare.resize(900, 600);
  compare.show();
  const std::string verdict = "kept the original (greedy's candidate is not faster: +8.32 % [-17.66, +13.82] (95 % interval, 30 pairs) "
                              "on cpu:AMD EPYC, family 25 model 17 stepping 1 (2 threads, executor timings on huge pages, operands from memory))";
  compare.setGraphs(GraphSnapshot::make(before, "analytic:h200", "original"), GraphSnapshot::make(after, "analytic:h200", verdict), {});
  QCoreApplication::processEvents();
  EXPECT_LE(compare.width(), 900);
  EXPECT_LE(compare.minimumSizeHint().width(), 900);
  EXPECT_LE(compare.minimumSize().width(), 900);
}
