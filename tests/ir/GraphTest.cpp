#include "ir/Graph.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
} // namespace

TEST(Graph, AddNodeInfersTypesAndNames) {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 3, 8, 8}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({4, 3, 3, 3}), 0.5));
  NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  NodeId relu = g.addNode(OpKind::Relu, {{conv}}, {}, "act");
  g.addOutput({relu}, "y");
  EXPECT_EQ(g.node(conv).outputTypes[0], f32({1, 4, 8, 8}));
  EXPECT_EQ(g.node(relu).name, "act");
  EXPECT_EQ(g.node(conv).name, "Conv_2");
  EXPECT_EQ(g.opCount(), 2u);
  EXPECT_EQ(g.inputNodes(), std::vector<NodeId>{x});
  EXPECT_EQ(g.weightNodes(), std::vector<NodeId>{w});
  EXPECT_EQ(g.findNode("act"), relu);
}

TEST(Graph, AddNodeRejectsMismatchedShapesNamingTheNode) {
  Graph g;
  NodeId a = g.addInput("a", f32({2, 3}));
  NodeId b = g.addInput("b", f32({4, 5}));
  try {
    g.addNode(OpKind::MatMul, {{a}, {b}}, {}, "mm");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mm"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("inner dimensions"), std::string::npos) << e.what();
  }
  EXPECT_THROW(g.addNode(OpKind::Relu, {{NodeId{42}}}), Error);
  EXPECT_THROW(g.addNode(OpKind::Relu, {{a, 3}}), Error);
}

TEST(Graph, TopologicalOrderPutsInputsFirstAndDetectsCycles) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  NodeId r = g.addNode(OpKind::Relu, {{x}});
  NodeId s = g.addNode(OpKind::Sigmoid, {{r}});
  NodeId t = g.addNode(OpKind::Add, {{r}, {s}});
  g.addOutput({t});
  auto order = g.topologicalOrder();
  ASSERT_EQ(order.size(), 4u);
  auto pos = [&](NodeId id) { return std::find(order.begin(), order.end(), id) - order.begin(); };
  EXPECT_LT(pos(x), pos(r));
  EXPECT_LT(pos(r), pos(s));
  EXPECT_LT(pos(s), pos(t));
  EXPECT_FALSE(g.hasCycle());

  g.mutableNode(r).inputs[0] = {t}; // r -> t -> r
  EXPECT_TRUE(g.hasCycle());
  auto cycle = g.findCycle();
  EXPECT_FALSE(cycle.empty());
  EXPECT_THROW(g.topologicalOrder(), Error);
}

TEST(Graph, CompactedDropsDeadNodesAndKeepsInputs) {
  Graph g;
  NodeId x = g.addInput("x", f32({4}));
  NodeId unused = g.addInput("unused", f32({2}));
  NodeId dead = g.addNode(OpKind::Tanh, {{x}}, {}, "dead");
  NodeId live = g.addNode(OpKind::Relu, {{x}}, {}, "live");
  g.addOutput({live}, "y");
  (void)unused;
  (void)dead;
  Graph c = g.compacted();
  EXPECT_EQ(c.size(), 3u);
  EXPECT_FALSE(c.findNode("dead").has_value());
  ASSERT_EQ(c.inputNodes().size(), 2u);
  EXPECT_EQ(c.node(c.inputNodes()[0]).name, "x");
  EXPECT_EQ(c.node(c.inputNodes()[1]).name, "unused");
  EXPECT_EQ(c.node(c.outputs()[0].value.node).name, "live");
}

TEST(Graph, ReinferTypesFollowsAnInputChange) {
  Graph g;
  NodeId x = g.addInput("x", f32({2, 3}));
  NodeId y = g.addInput("y", f32({3, 5}));
  NodeId z = g.addInput("z", f32({3, 7}));
  NodeId mm = g.addNode(OpKind::MatMul, {{x}, {y}});
  g.addOutput({mm});
  g.mutableNode(mm).inputs[1] = {z};
  g.reinferTypes();
  EXPECT_EQ(g.node(mm).outputTypes[0], f32({2, 7}));
}

TEST(Attributes, TypedAccessAndOrderIndependentEquality) {
  Attributes a{{"axis", int64_t{1}}, {"perm", std::vector<int64_t>{0, 2, 1}}};
  Attributes b;
  b.set("perm", std::vector<int64_t>{0, 2, 1});
  b.set("axis", int64_t{1});
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(a.getInt("axis", 0), 1);
  EXPECT_EQ(a.getInt("missing", 7), 7);
  EXPECT_FLOAT_EQ(a.getFloat("axis", 0), 1.0f); // int read as float
  EXPECT_THROW(a.getInts("axis"), Error);
  b.set("axis", int64_t{2});
  EXPECT_NE(a, b);
  EXPECT_EQ(a.toString(), "axis=1, perm=[0,2,1]");
}

TEST(Tensor, SplatBehavesLikeDenseData) {
  Tensor s = Tensor::splat(f32({2, 3}), 0.25);
  EXPECT_TRUE(s.isSplat());
  EXPECT_EQ(s.numel(), 6);
  EXPECT_FLOAT_EQ(s.floatAt(5), 0.25f);
  Tensor d = s.materialized();
  EXPECT_FALSE(d.isSplat());
  ASSERT_EQ(d.floats().size(), 6u);
  EXPECT_FLOAT_EQ(d.floats()[4], 0.25f);
  Tensor i = Tensor::fromInts({DType::Int64, {3}}, {4, -1, 2});
  EXPECT_EQ(i.toInts(), (std::vector<int64_t>{4, -1, 2}));
}

TEST(Graph, AttributesAreCanonicalSoEqualOpsCompareEqual) {
  Graph g;
  NodeId x = g.addInput("x", f32({1, 4, 8, 8}));
  NodeId w = g.addWeight("w", Tensor::splat(f32({4, 4, 3, 3}), 0.5));
  NodeId explicitDefaults = g.addNode(OpKind::Conv, {{x}, {w}},
                                      {{"strides", std::vector<int64_t>{1, 1}}, {"pads", std::vector<int64_t>{0, 0, 0, 0}},
                                       {"group", int64_t{1}}, {"kernel_shape", std::vector<int64_t>{3, 3}}});
  NodeId bare = g.addNode(OpKind::Conv, {{x}, {w}});
  EXPECT_EQ(g.node(explicitDefaults).attrs, g.node(bare).attrs);
  EXPECT_TRUE(g.node(bare).attrs.empty());

  NodeId reshape = g.addNode(OpKind::Reshape, {{x}}, {{"shape", std::vector<int64_t>{0, -1}}});
  EXPECT_EQ(g.node(reshape).attrs.getInts("shape"), (std::vector<int64_t>{1, 256}));
  NodeId softmax = g.addNode(OpKind::Softmax, {{x}}, {{"axis", int64_t{-1}}});
  EXPECT_EQ(g.node(softmax).attrs.getInt("axis", 0), 3);
  NodeId squeeze = g.addNode(OpKind::Squeeze, {{x}});
  EXPECT_EQ(g.node(squeeze).attrs.getInts("axes"), (std::vector<int64_t>{0}));
}
