#include "egraph/EGraph.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

Node inputNode(const std::string& name, Shape shape) {
  Node node;
  node.kind = OpKind::Input;
  node.name = name;
  node.outputTypes = {f32(std::move(shape))};
  return node;
}

Node weightNode(const std::string& name, Shape shape) {
  Node node;
  node.kind = OpKind::Weight;
  node.name = name;
  node.outputTypes = {f32(shape)};
  node.weight = std::make_shared<Tensor>(Tensor::splat(f32(shape), 1.0));
  return node;
}
} // namespace

TEST(EGraph, HashconsSharesEqualNodesAndLeavesByName) {
  EGraph g;
  EClassId x = g.addLeaf(inputNode("x", {4}));
  EXPECT_EQ(g.addLeaf(inputNode("x", {4})), x);
  EClassId r1 = *g.add(OpKind::Relu, {}, {x});
  EClassId r2 = *g.add(OpKind::Relu, {}, {x});
  EXPECT_EQ(r1, r2);
  EXPECT_EQ(g.numNodes(), 2u);
  EXPECT_EQ(g.numClasses(), 2u);
  EXPECT_EQ(g.data(r1).type, f32({4}));
}

TEST(EGraph, AddRejectsNodesThatDoNotTypeCheck) {
  EGraph g;
  EClassId a = g.addLeaf(inputNode("a", {2, 3}));
  EClassId b = g.addLeaf(inputNode("b", {4, 5}));
  EXPECT_FALSE(g.add(OpKind::MatMul, {}, {a, b}).has_value());
  EXPECT_EQ(g.numNodes(), 2u);
}

TEST(EGraph, RebuildRestoresCongruence) {
  EGraph g;
  EClassId a = g.addLeaf(inputNode("a", {4}));
  EClassId b = g.addLeaf(inputNode("b", {4}));
  EClassId fa = *g.add(OpKind::Relu, {}, {a});
  EClassId fb = *g.add(OpKind::Relu, {}, {b});
  EClassId gfa = *g.add(OpKind::Tanh, {}, {fa});
  EClassId gfb = *g.add(OpKind::Tanh, {}, {fb});
  EXPECT_NE(g.find(gfa), g.find(gfb));
  EXPECT_TRUE(g.merge(a, b));
  EXPECT_FALSE(g.isClean());
  g.rebuild();
  EXPECT_TRUE(g.isClean());
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_EQ(g.find(gfa), g.find(gfb));
  EXPECT_EQ(g.numClasses(), 3u);
  EXPECT_EQ(g.numNodes(), 4u); // a, b, relu(ab), tanh(relu)
  EXPECT_EQ(g.checkInvariants(), "");
  EXPECT_FALSE(g.merge(fa, fb));
}

TEST(EGraph, MergeOfDifferentTypesIsAnError) {
  EGraph g;
  EClassId a = g.addLeaf(inputNode("a", {4}));
  EClassId b = g.addLeaf(inputNode("b", {5}));
  EXPECT_THROW(g.merge(a, b), Error);
}

TEST(EGraph, AllWeightsFlagPropagatesThroughMerges) {
  EGraph g;
  EClassId w = g.addLeaf(weightNode("w", {4, 4}));
  EClassId x = g.addLeaf(inputNode("x", {4, 4}));
  EClassId tw = *g.add(OpKind::Transpose, {}, {w});
  EXPECT_TRUE(g.data(tw).allWeights);
  EClassId rx = *g.add(OpKind::Relu, {}, {x});
  EClassId above = *g.add(OpKind::Tanh, {}, {rx});
  EXPECT_FALSE(g.data(rx).allWeights);
  g.merge(rx, tw); // pretend relu(x) == transpose(w)
  g.rebuild();
  EXPECT_TRUE(g.data(rx).allWeights);
  EXPECT_TRUE(g.data(above).allWeights);
}

TEST(EGraph, IndexesClassesByOp) {
  EGraph g;
  EClassId x = g.addLeaf(inputNode("x", {4}));
  EClassId r = *g.add(OpKind::Relu, {}, {x});
  EClassId t = *g.add(OpKind::Tanh, {}, {x});
  g.rebuild();
  EXPECT_EQ(g.classesWithOp(OpKind::Relu), std::vector<EClassId>{r});
  g.merge(r, t);
  g.rebuild();
  ASSERT_EQ(g.classesWithOp(OpKind::Relu).size(), 1u);
  EXPECT_EQ(g.classesWithOp(OpKind::Relu)[0], g.classesWithOp(OpKind::Tanh)[0]);
}

TEST(EGraph, SplitPortsAreSeparateClasses) {
  EGraph g;
  EClassId x = g.addLeaf(inputNode("x", {6, 2}));
  Attributes attrs{{"axis", int64_t{0}}, {"split", std::vector<int64_t>{2, 4}}};
  EClassId first = *g.add(OpKind::Split, attrs, {x}, 0);
  EClassId second = *g.add(OpKind::Split, attrs, {x}, 1);
  EXPECT_NE(first, second);
  EXPECT_EQ(g.data(first).type, f32({2, 2}));
  EXPECT_EQ(g.data(second).type, f32({4, 2}));
  EXPECT_FALSE(g.add(OpKind::Split, attrs, {x}, 2).has_value());
}
