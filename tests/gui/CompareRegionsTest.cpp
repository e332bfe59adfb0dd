// Compare by region: changed nodes group into connected regions, each priced before and after; the
// deltas add up to the whole graph's delta; provenance names the rules; selecting a region frames it
// on both sides.
#include "ChangedRegions.h"
#include "CompareWidget.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "NodeItem.h"
#include "RegionDeltaModel.h"
#include "TestModels.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <algorithm>

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

// branchesGraph with both branches fused (conv + relu -> conv with activation) and a sigmoid
// appended: three separate changes.
Graph twiceFused() {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 8, 14, 14}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8, 1, 1}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8, 3, 3}), 0.1));
  NodeId a = g.addNode(OpKind::Conv, {{x}, {w1}}, {{"activation", int64_t{2}}}, "conv_a");
  NodeId b = g.addNode(OpKind::Conv, {{x}, {w2}}, {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}}, "conv_b");
  NodeId cat = g.addNode(OpKind::Concat, {{a}, {b}}, {{"axis", int64_t{1}}}, "concat");
  g.addOutput({g.addNode(OpKind::Sigmoid, {{cat}}, {}, "extra")}, "y");
  return g;
}

std::vector<NodeOrigin> originsOf(const Graph& g) {
  std::vector<NodeOrigin> origins(g.size());
  origins[idOf(g, "conv_a")] = {"fuse_conv_relu", 1};
  origins[idOf(g, "conv_b")] = {"fuse_conv_relu", 2};
  origins[idOf(g, "extra")] = {"add_sigmoid", 3};
  return origins;
}

const ChangedRegion* regionWith(const std::vector<ChangedRegion>& regions, NodeId afterNode) {
  for (const ChangedRegion& region : regions)
    if (std::find(region.after.begin(), region.after.end(), afterNode) != region.after.end()) return &region;
  return nullptr;
}

} // namespace

TEST(ChangedRegions, GroupsConnectedChangesAndPricesEachSide) {
  auto beforeGraph = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  auto afterGraph = std::make_shared<const Graph>(twiceFused());
  GraphSnapshot before = GraphSnapshot::make(beforeGraph, "analytic:h200");
  GraphSnapshot after = GraphSnapshot::make(afterGraph, "analytic:h200");
  GraphDiff diff = diffGraphs(*beforeGraph, *afterGraph);
  std::vector<NodeOrigin> origins = originsOf(*afterGraph);
  std::vector<ChangedRegion> regions = changedRegions(diff, before, after, origins);
  ASSERT_EQ(regions.size(), 3u) << "branch a, branch b and the new sigmoid are separate";

  const ChangedRegion* a = regionWith(regions, idOf(*afterGraph, "conv_a"));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->before, (std::vector<NodeId>{idOf(*beforeGraph, "conv_a"), idOf(*beforeGraph, "relu_a")}));
  EXPECT_EQ(a->after, (std::vector<NodeId>{idOf(*afterGraph, "conv_a")}));
  EXPECT_DOUBLE_EQ(a->beforeMs, before.costOf(idOf(*beforeGraph, "conv_a")) + before.costOf(idOf(*beforeGraph, "relu_a")));
  EXPECT_DOUBLE_EQ(a->afterMs, after.costOf(idOf(*afterGraph, "conv_a")));
  EXPECT_LT(a->deltaMs(), 0) << "fusing saves the relu's memory traffic";
  EXPECT_EQ(a->rules, (std::map<std::string, int>{{"fuse_conv_relu", 1}}));

  const ChangedRegion* extra = regionWith(regions, idOf(*afterGraph, "extra"));
  ASSERT_TRUE(extra);
  EXPECT_TRUE(extra->before.empty());
  EXPECT_GT(extra->deltaMs(), 0);
  EXPECT_EQ(regions.back().after, extra->after) << "ordered by delta: the added cost last";

  // Unchanged nodes cost the same on both sides, so the regions account for the whole delta.
  double sum = 0;
  for (const ChangedRegion& region : regions) sum += region.deltaMs();
  EXPECT_NEAR(sum, after.totalMs - before.totalMs, 1e-12);

  // Identical graphs have no regions.
  EXPECT_TRUE(changedRegions(diffGraphs(*beforeGraph, *beforeGraph), before, before, {}).empty());
}

TEST(CompareWidget, RegionTableRulesAndFocus) {
  auto beforeGraph = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  auto afterGraph = std::make_shared<const Graph>(twiceFused());
  CompareWidget compare;
  compare.resize(1200, 800);
  compare.show();
  QAbstractItemModelTester tester(compare.regions(), QAbstractItemModelTester::FailureReportingMode::Warning);
  QSignalSpy beforeDone(compare.beforeView()->graphScene(), &GraphScene::layoutFinished);
  QSignalSpy afterDone(compare.afterView()->graphScene(), &GraphScene::layoutFinished);
  compare.setGraphs(GraphSnapshot::make(beforeGraph, "analytic:h200", "original"),
                    GraphSnapshot::make(afterGraph, "analytic:h200", "candidate"), {{"unrelated_rule", 40}},
                    originsOf(*afterGraph));
  ASSERT_TRUE(beforeDone.count() > 0 || beforeDone.wait(30000));
  ASSERT_TRUE(afterDone.count() > 0 || afterDone.wait(30000));

  ASSERT_EQ(compare.regions()->rowCount(), 3);
  // With provenance, the rules list counts the nodes each rule created, not the run's applications.
  auto rules = compare.ruleRows();
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0], std::make_pair(QStringLiteral("fuse_conv_relu"), 2));
  EXPECT_EQ(rules[1], std::make_pair(QStringLiteral("add_sigmoid"), 1));
  EXPECT_TRUE(compare.regions()->index(0, RegionDeltaModel::Rules).data().toString().contains("fuse_conv_relu"));

  // Focusing a region selects its nodes on both sides and brings them into view.
  int rowB = -1;
  for (int row = 0; row < 3; ++row)
    if (compare.regions()->regions()[row].after == std::vector<NodeId>{idOf(*afterGraph, "conv_b")}) rowB = row;
  ASSERT_GE(rowB, 0);
  ASSERT_TRUE(compare.focusRegion(rowB));
  ASSERT_TRUE(compare.beforeView()->graphScene()->selectedNode());
  ASSERT_TRUE(compare.afterView()->graphScene()->selectedNode());
  EXPECT_EQ(*compare.beforeView()->graphScene()->selectedNode(), idOf(*beforeGraph, "conv_b"));
  EXPECT_EQ(*compare.afterView()->graphScene()->selectedNode(), idOf(*afterGraph, "conv_b"));
  QRectF visible = compare.afterView()->mapToScene(compare.afterView()->viewport()->rect()).boundingRect();
  EXPECT_TRUE(visible.contains(compare.afterView()->graphScene()->itemForNode(idOf(*afterGraph, "conv_b"))->pos()));
  EXPECT_FALSE(compare.focusRegion(7));

  // Without provenance the run's applications are listed.
  compare.setGraphs(GraphSnapshot::make(beforeGraph, "analytic:h200"), GraphSnapshot::make(afterGraph, "analytic:h200"),
                    {{"unrelated_rule", 40}});
  ASSERT_EQ(compare.ruleRows().size(), 1u);
  EXPECT_EQ(compare.ruleRows()[0].second, 40);
  EXPECT_TRUE(compare.regions()->regions()[0].rules.empty());
}
