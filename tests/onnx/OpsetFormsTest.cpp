// The forms Split, Slice, Pad, Unsqueeze, Squeeze, ReduceMean, Softmax and Clip take in opsets
// 9, 11, 13, 18 and 21 all import to the IR's one canonical form.
#include "ModelBuilder.h"

#include "interp/Interpreter.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::test;
using Ints = std::vector<int64_t>;

namespace {

class OpsetForms : public testing::TestWithParam<int64_t> {
protected:
  int64_t opset() const { return GetParam(); }
};

std::vector<TensorType> outputTypes(const Node& node) { return node.outputTypes; }
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

} // namespace

TEST_P(OpsetForms, SplitWithExplicitSizes) {
  ModelBuilder b(opset());
  b.input("x", {2, 6});
  auto& split = b.node("Split", {"x"}, {"a", "b", "c"});
  setAttr(split, "axis", int64_t(-1));
  if (opset() < 13) {
    setAttr(split, "split", Ints{1, 2, 3});
  } else {
    b.ints("sizes", {1, 2, 3});
    split.add_input("sizes");
  }
  b.output("a").output("b").output("c");
  Graph g = b.import();
  const Node& node = onlyNode(g, OpKind::Split);
  EXPECT_EQ(node.attrs.getInts("split"), (Ints{1, 2, 3}));
  EXPECT_EQ(node.attrs.getInt("axis", -7), 1);
  EXPECT_EQ(outputTypes(node), (std::vector<TensorType>{f32({2, 1}), f32({2, 2}), f32({2, 3})}));
  EXPECT_EQ(g.outputs()[2].name, "c");
  EXPECT_EQ(g.outputs()[2].value.port, 2u);
  EXPECT_EQ(g.weightNodes().size(), 0u); // the sizes input became an attribute, not a weight
}

TEST_P(OpsetForms, SplitWithoutSizesSplitsEvenly) {
  ModelBuilder b(opset());
  b.input("x", {6, 2});
  b.node("Split", {"x"}, {"a", "b", "c"});
  b.output("a").output("b").output("c");
  Graph imported = b.import();
  const Node& node = onlyNode(imported, OpKind::Split);
  EXPECT_EQ(node.attrs.getInts("split"), (Ints{2, 2, 2}));
  EXPECT_EQ(node.attrs.getInt("axis", -7), 0);
}

TEST_P(OpsetForms, SliceWithStartsEndsAxesAndSteps) {
  ModelBuilder b(opset());
  b.input("x", {4, 5});
  auto& slice = b.node("Slice", {"x"}, {"y"});
  const int64_t end = std::numeric_limits<int64_t>::max();
  if (opset() < 10) {
    setAttr(slice, "starts", Ints{1, 0});
    setAttr(slice, "ends", Ints{end, -1});
    setAttr(slice, "axes", Ints{0, 1});
  } else {
    b.ints("starts", {1, 0}).ints("ends", {end, -1}).ints("axes", {0, 1}).ints("steps", {1, 2});
    for (const char* name : {"starts", "ends", "axes", "steps"}) slice.add_input(name);
  }
  b.output("y");
  Graph g = b.import();
  const Node& node = onlyNode(g, OpKind::Slice);
  EXPECT_EQ(node.attrs.getInts("starts"), (Ints{1, 0}));
  EXPECT_EQ(node.attrs.getInts("ends"), (Ints{end, -1}));
  EXPECT_EQ(node.attrs.getInts("axes"), (Ints{0, 1}));
  // Rows 1..3; columns 0..3, every second one from opset 10 on (steps exist there).
  if (opset() < 10) {
    EXPECT_FALSE(node.attrs.has("steps"));
    EXPECT_EQ(node.outputTypes[0], f32({3, 4}));
  } else {
    EXPECT_EQ(node.attrs.getInts("steps"), (Ints{1, 2}));
    EXPECT_EQ(node.outputTypes[0], f32({3, 2}));
  }
  EXPECT_EQ(g.weightNodes().size(), 0u);
}

TEST_P(OpsetForms, PadBecomesFullPadsAndValue) {
  ModelBuilder b(opset());
  b.input("x", {2, 3});
  auto& pad = b.node("Pad", {"x"}, {"y"});
  if (opset() < 11) {
    setAttr(pad, "pads", Ints{0, 1, 0, 2});
    setAttr(pad, "value", 1.5f);
  } else if (opset() < 18) {
    b.ints("pads", {0, 1, 0, 2}).floats("value", {}, {1.5f});
    pad.add_input("pads");
    pad.add_input("value");
  } else {
    // Opset 18 pads only the listed axes.
    b.ints("pads", {1, 2}).floats("value", {}, {1.5f}).ints("axes", {-1});
    for (const char* name : {"pads", "value", "axes"}) pad.add_input(name);
  }
  b.output("y");
  Graph imported = b.import();
  const Node& node = onlyNode(imported, OpKind::Pad);
  EXPECT_EQ(node.attrs.getInts("pads"), (Ints{0, 1, 0, 2}));
  EXPECT_EQ(node.attrs.getFloat("value", 0), 1.5f);
  EXPECT_FALSE(node.attrs.has("mode")); // constant is the canonical default
  EXPECT_EQ(node.outputTypes[0], f32({2, 6}));
}

TEST_P(OpsetForms, UnsqueezeAndSqueezeAxes) {
  ModelBuilder b(opset());
  b.input("x", {3, 4});
  auto& unsqueeze = b.node("Unsqueeze", {"x"}, {"u"});
  auto& squeeze = b.node("Squeeze", {"u"}, {"s"});
  if (opset() < 13) {
    setAttr(unsqueeze, "axes", Ints{0, -1});
    setAttr(squeeze, "axes", Ints{-1});
  } else {
    b.ints("uaxes", {0, -1}).ints("saxes", {-1});
    unsqueeze.add_input("uaxes");
    squeeze.add_input("saxes");
  }
  b.output("s");
  Graph g = b.import();
  const Node& u = onlyNode(g, OpKind::Unsqueeze);
  EXPECT_EQ(u.attrs.getInts("axes"), (Ints{0, 3}));
  EXPECT_EQ(u.outputTypes[0], f32({1, 3, 4, 1}));
  const Node& s = onlyNode(g, OpKind::Squeeze);
  EXPECT_EQ(s.attrs.getInts("axes"), (Ints{3}));
  EXPECT_EQ(s.outputTypes[0], f32({1, 3, 4}));
}

TEST_P(OpsetForms, ReduceMeanAxes) {
  ModelBuilder b(opset());
  b.input("x", {2, 3, 4});
  auto& reduce = b.node("ReduceMean", {"x"}, {"y"});
  setAttr(reduce, "keepdims", int64_t(0));
  if (opset() < 18) {
    setAttr(reduce, "axes", Ints{-2});
  } else {
    b.ints("axes", {-2});
    reduce.add_input("axes");
  }
  b.output("y");
  Graph imported = b.import();
  const Node& node = onlyNode(imported, OpKind::ReduceMean);
  EXPECT_EQ(node.attrs.getInts("axes"), (Ints{1}));
  EXPECT_EQ(node.attrs.getInt("keepdims", 1), 0);
  EXPECT_EQ(node.outputTypes[0], f32({2, 4}));
}

TEST_P(OpsetForms, SoftmaxOverAMiddleAxis) {
  ModelBuilder b(opset());
  b.input("x", {2, 3, 4});
  setAttr(b.node("Softmax", {"x"}, {"y"}, "sm"), "axis", int64_t(1));
  b.output("y", {2, 3, 4});
  Graph g = b.import();
  if (opset() < 13) {
    // Coerced to 2-D at axis 1: a softmax over each [3,4] block.
    EXPECT_EQ(opNames(g), (std::vector<std::string>{"Flatten", "Softmax", "Reshape"}));
    EXPECT_EQ(onlyNode(g, OpKind::Flatten).outputTypes[0], f32({2, 12}));
    EXPECT_EQ(onlyNode(g, OpKind::Softmax).attrs.getInt("axis", -7), 1);
    EXPECT_EQ(onlyNode(g, OpKind::Softmax).name, "sm");
  } else {
    EXPECT_EQ(opNames(g), (std::vector<std::string>{"Softmax"}));
    EXPECT_EQ(onlyNode(g, OpKind::Softmax).attrs.getInt("axis", -7), 1);
  }
  EXPECT_EQ(g.typeOf(g.outputs()[0].value), f32({2, 3, 4}));
}

TEST_P(OpsetForms, SoftmaxOverTheLastAxisIsOneOp) {
  ModelBuilder b(opset());
  b.input("x", {2, 3});
  setAttr(b.node("Softmax", {"x"}, {"y"}), "axis", int64_t(-1));
  b.output("y");
  Graph g = b.import();
  EXPECT_EQ(opNames(g), (std::vector<std::string>{"Softmax"}));
  EXPECT_EQ(onlyNode(g, OpKind::Softmax).attrs.getInt("axis", -7), 1);
}

TEST_P(OpsetForms, ClipBounds) {
  ModelBuilder b(opset());
  b.input("x", {4});
  auto& clip = b.node("Clip", {"x"}, {"y"});
  if (opset() < 11) {
    setAttr(clip, "min", -1.0f);
    setAttr(clip, "max", 2.0f);
  } else {
    b.floats("lo", {}, {-1.0f}).floats("hi", {}, {2.0f});
    clip.add_input("lo");
    clip.add_input("hi");
  }
  b.output("y");
  Graph imported = b.import();
  const Node& node = onlyNode(imported, OpKind::Clip);
  EXPECT_EQ(node.attrs.getFloat("min", 0), -1.0f);
  EXPECT_EQ(node.attrs.getFloat("max", 0), 2.0f);
}

INSTANTIATE_TEST_SUITE_P(Opsets, OpsetForms, testing::Values(9, 11, 13, 18, 21),
                         [](const auto& info) { return "opset" + std::to_string(info.param); });

TEST(OpsetForms18, SplitByNumOutputsMakesTheLastChunkSmaller) {
  for (int64_t opset : {18, 21}) {
    ModelBuilder b(opset);
    b.input("x", {5});
    setAttr(b.node("Split", {"x"}, {"a", "b", "c"}), "num_outputs", int64_t(3));
    b.output("a").output("b").output("c");
    EXPECT_EQ(onlyNode(b.import(), OpKind::Split).attrs.getInts("split"), (Ints{2, 2, 1})) << "opset " << opset;
  }
}

TEST(OpsetForms18, ReduceMeanWithEmptyAxesAndNoopIsIdentity) {
  ModelBuilder b(18);
  b.input("x", {2, 3});
  setAttr(b.node("ReduceMean", {"x"}, {"y"}), "noop_with_empty_axes", int64_t(1));
  b.output("y", {2, 3});
  EXPECT_EQ(opNames(b.import()), (std::vector<std::string>{"Identity"}));

  ModelBuilder all(18);
  all.input("x", {2, 3});
  all.node("ReduceMean", {"x"}, {"y"});
  all.output("y", {1, 1});
  EXPECT_EQ(onlyNode(all.import(), OpKind::ReduceMean).outputTypes[0], f32({1, 1}));
}

TEST(OpsetForms11, ClipWithOnlyAMaximum) {
  ModelBuilder b(11);
  b.input("x", {4});
  b.floats("hi", {}, {6.0f});
  b.node("Clip", {"x", "", "hi"}, {"y"});
  b.output("y");
  Graph imported = b.import();
  const Node& node = onlyNode(imported, OpKind::Clip);
  EXPECT_FALSE(node.attrs.has("min"));
  EXPECT_EQ(node.attrs.getFloat("max", 0), 6.0f);
}

// The coerced Softmax computes what opset 11 defines: a softmax over everything past the axis.
TEST(OpsetForms11, CoercedSoftmaxMatchesTheDefinition) {
  ModelBuilder b(11);
  b.input("x", {2, 2, 3});
  b.node("Softmax", {"x"}, {"y"}); // axis defaults to 1
  b.output("y");
  Graph g = b.import();
  std::vector<float> values = {0.5f, -1.0f, 2.0f, 0.0f, 1.0f, 3.0f, -2.0f, 0.25f, 1.5f, 4.0f, -0.5f, 0.75f};
  std::vector<Tensor> out = runGraph(g, {{"x", Tensor::fromFloats({2, 2, 3}, values)}});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].shape(), (Shape{2, 2, 3}));
  for (int row = 0; row < 2; ++row) {
    double total = 0;
    for (int i = 0; i < 6; ++i) total += std::exp(values[row * 6 + i]);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(out[0].floatAt(row * 6 + i), std::exp(values[row * 6 + i]) / total, 1e-6);
  }
}
