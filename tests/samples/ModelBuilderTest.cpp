// ModelBuilder: TASO's SAME/VALID pads (and their agreement with the rule matcher's reading of
// them), fan-in splat weights and the ops each helper creates.
#include "generator/ModelBuilder.h"

#include "ir/GraphStats.h"
#include "rewrite/TensatVocabulary.h"
#include "support/Error.h"

#include <gtest/gtest.h>

namespace tessera::samples {
namespace {

TEST(WindowPads, SameCentresTheWindowWithTheExtraPadAtTheEnd) {
  // 224 / 2 -> 112 outputs; a 7x7 window needs (112-1)*2 + 7 - 224 = 5 rows: 2 before, 3 after.
  EXPECT_EQ(windowPads(Padding::Same, {1, 3, 224, 224}, 7, 2), (std::vector<int64_t>{2, 2, 3, 3}));
  // 3x3 stride 1 pads 1 all round; a 1x3 kernel pads only the width.
  EXPECT_EQ(windowPads(Padding::Same, {1, 8, 17, 17}, 3, 1), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(windowPads(Padding::Same, {1, 8, 17, 17}, Window{1, 3}, 1), (std::vector<int64_t>{0, 1, 0, 1}));
  // 3x3 stride 2 on an even 112: 56 outputs need (56-1)*2 + 3 - 112 = 1 row, at the end.
  EXPECT_EQ(windowPads(Padding::Same, {1, 8, 112, 112}, 3, 2), (std::vector<int64_t>{0, 0, 1, 1}));
  // On an odd 7: 4 outputs need (4-1)*2 + 3 - 7 = 2 rows, one each side.
  EXPECT_EQ(windowPads(Padding::Same, {1, 8, 7, 7}, 3, 2), (std::vector<int64_t>{1, 1, 1, 1}));
  // A 1x1 stride-2 window needs none.
  EXPECT_EQ(windowPads(Padding::Same, {1, 8, 56, 56}, 1, 2), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(windowPads(Padding::Valid, {1, 8, 56, 56}, 3, 2), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(WindowPads, AgreeWithTheRuleMatchersReadingOfTensatPadding) {
  for (int64_t size : {7, 8, 13, 17, 35, 56, 112, 149, 224, 299})
    for (int64_t kernel : {1, 2, 3, 5, 7})
      for (int64_t stride : {1, 2}) {
        if (kernel > size) continue;
        Shape input{1, 4, size, size};
        Shape weight{4, 4, kernel, kernel};
        SCOPED_TRACE("size " + std::to_string(size) + " kernel " + std::to_string(kernel) + " stride " + std::to_string(stride));
        EXPECT_EQ(windowPads(Padding::Same, input, kernel, stride), tensatConvPads(0, input, weight, stride, stride));
        EXPECT_EQ(windowPads(Padding::Valid, input, kernel, stride), tensatConvPads(1, input, weight, stride, stride));
      }
}

TEST(ModelBuilder, ConvCreatesAGroupedWeightOfOneOverFanIn) {
  ModelBuilder b("test");
  ValueRef x = b.input("x", {1, 64, 56, 56});
  ValueRef y = b.conv("block.conv", x, 128, 3, 2, Padding::Same, 32);
  b.output(y, "y");
  Graph g = b.finish();
  EXPECT_EQ(g.typeOf(y).shape, (Shape{1, 128, 28, 28}));
  const Node& conv = g.node(y.node);
  EXPECT_EQ(conv.kind, OpKind::Conv);
  EXPECT_EQ(conv.name, "block.conv");
  EXPECT_EQ(conv.attrs.getInts("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(conv.attrs.getInts("pads"), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_FALSE(conv.attrs.has("activation"));
  ASSERT_EQ(conv.inputs.size(), 2u); // no bias
  const Node& w = g.node(conv.inputs[1].node);
  EXPECT_EQ(w.name, "block.conv.weight");
  ASSERT_TRUE(w.weight);
  EXPECT_TRUE(w.weight->isSplat());
  EXPECT_EQ(w.weight->shape(), (Shape{128, 2, 3, 3}));     // 64 channels in 32 groups
  EXPECT_FLOAT_EQ(w.weight->floatAt(0), 1.0f / (2 * 3 * 3)); // fan-in of one output
}

TEST(ModelBuilder, LinearIsAMatMulWithAKByNWeight) {
  ModelBuilder b("test");
  ValueRef x = b.input("x", {4, 6});
  ValueRef y = b.linear("fc", x, 10);
  ValueRef z = b.linear("fc2", y, 3, 0.25);
  b.output(z, "z");
  Graph g = b.finish();
  EXPECT_EQ(g.typeOf(z).shape, (Shape{4, 3}));
  const Node& fc = g.node(y.node);
  EXPECT_EQ(fc.kind, OpKind::MatMul);
  const Tensor& w = *g.node(fc.inputs[1].node).weight;
  EXPECT_EQ(w.shape(), (Shape{6, 10}));
  EXPECT_FLOAT_EQ(w.floatAt(0), 1.0f / 6);
  EXPECT_FLOAT_EQ(g.node(g.node(z.node).inputs[1].node).weight->floatAt(0), 0.25f);
}

TEST(ModelBuilder, PoolsCarryKernelStridesAndPads) {
  ModelBuilder b("test");
  ValueRef x = b.input("x", {1, 64, 112, 112});
  ValueRef m = b.maxPool("maxpool", x, 3, 2, Padding::Same);
  ValueRef a = b.averagePool("avgpool", m, 3, 1, Padding::Same);
  ValueRef v = b.averagePool("global", a, 56, 1, Padding::Valid);
  b.output(v, "v");
  Graph g = b.finish();
  EXPECT_EQ(g.typeOf(m).shape, (Shape{1, 64, 56, 56}));
  EXPECT_EQ(g.typeOf(a).shape, (Shape{1, 64, 56, 56}));
  EXPECT_EQ(g.typeOf(v).shape, (Shape{1, 64, 1, 1}));
  EXPECT_EQ(g.node(m.node).attrs.getInts("pads"), (std::vector<int64_t>{0, 0, 1, 1}));
  EXPECT_EQ(g.node(a.node).attrs.getInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(g.node(a.node).attrs.getInts("kernel_shape"), (std::vector<int64_t>{3, 3}));
  EXPECT_FALSE(g.node(a.node).attrs.has("count_include_pad"));
}

TEST(ModelBuilder, ShapeErrorsNameTheNode) {
  ModelBuilder b("test");
  ValueRef x = b.input("x", {1, 6, 8, 8});
  ValueRef y = b.input("y", {1, 4, 8, 8});
  try {
    b.add("sum", x, y);
    FAIL() << "adding [1,6,8,8] and [1,4,8,8] must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'sum'"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace tessera::samples
