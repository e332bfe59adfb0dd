#include "ir/GraphHash.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// relu(x @ w) + x @ w, built with node ids in a different order when `shuffled`.
Graph sample(bool shuffled, OpKind activation = OpKind::Relu) {
  Graph g;
  NodeId w = 0, x = 0;
  if (shuffled) {
    w = g.addWeight("w", Tensor::splat(f32({4, 4}), 1.0));
    x = g.addInput("x", f32({2, 4}));
  } else {
    x = g.addInput("x", f32({2, 4}));
    w = g.addWeight("w", Tensor::splat(f32({4, 4}), 1.0));
  }
  NodeId mm = g.addNode(OpKind::MatMul, {{x}, {w}}, {}, shuffled ? "other_name" : "mm");
  NodeId act = g.addNode(activation, {{mm}});
  g.addOutput({g.addNode(OpKind::Add, {{act}, {mm}})});
  return g;
}
} // namespace

TEST(GraphHash, IgnoresIdsAndNodeNamesButNotStructure) {
  EXPECT_EQ(structuralHash(sample(false)), structuralHash(sample(true)));
  EXPECT_TRUE(structurallyEqual(sample(false), sample(true)));
  EXPECT_NE(structuralHash(sample(false)), structuralHash(sample(false, OpKind::Tanh)));
  EXPECT_FALSE(structurallyEqual(sample(false), sample(false, OpKind::Tanh)));
}

TEST(GraphHash, AttributesAndWeightNamesMatter) {
  Graph a = sample(false);
  Graph b = sample(false);
  b.mutableNode(*b.findNode("w")).name = "w2";
  EXPECT_FALSE(structurallyEqual(a, b));
  Graph c = sample(false);
  c.mutableNode(*c.findNode("mm")).attrs.set("activation", int64_t{2});
  EXPECT_FALSE(structurallyEqual(a, c));
  EXPECT_NE(structuralHash(a), structuralHash(c));
}

// Two exports of one model may name their weights differently; an agent, which reads no names,
// sees one graph.
TEST(GraphHash, LeavesByTypeAloneIgnoreTheirNamesButNotTheirShapes) {
  Graph a = sample(false);
  Graph renamed = sample(false);
  renamed.mutableNode(*renamed.findNode("w")).name = "w2";
  renamed.mutableNode(*renamed.findNode("x")).name = "input";
  EXPECT_NE(structuralHash(a), structuralHash(renamed));
  EXPECT_EQ(structuralHash(a, LeafIdentity::TypeOnly), structuralHash(renamed, LeafIdentity::TypeOnly));
  Graph reshaped;
  NodeId x = reshaped.addInput("x", f32({3, 4}));
  NodeId w = reshaped.addWeight("w", Tensor::splat(f32({4, 4}), 1.0));
  NodeId mm = reshaped.addNode(OpKind::MatMul, {{x}, {w}});
  reshaped.addOutput({reshaped.addNode(OpKind::Add, {{reshaped.addNode(OpKind::Relu, {{mm}})}, {mm}})});
  EXPECT_NE(structuralHash(a, LeafIdentity::TypeOnly), structuralHash(reshaped, LeafIdentity::TypeOnly));
  EXPECT_NE(structuralHash(a, LeafIdentity::TypeOnly), structuralHash(sample(false, OpKind::Tanh), LeafIdentity::TypeOnly));
}

TEST(GraphSet, KeepsDistinctGraphsWhenHashesCollide) {
  GraphSet set([](const Graph&) { return size_t{42}; }); // every graph collides
  EXPECT_TRUE(set.insert(sample(false)));
  EXPECT_TRUE(set.insert(sample(false, OpKind::Tanh)));
  EXPECT_TRUE(set.insert(sample(false, OpKind::Sigmoid)));
  EXPECT_FALSE(set.insert(sample(true))); // structurally equal to the first
  EXPECT_EQ(set.size(), 3u);
  EXPECT_TRUE(set.contains(sample(false, OpKind::Sigmoid)));
}
