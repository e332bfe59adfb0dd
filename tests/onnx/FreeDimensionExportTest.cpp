// Exported models keep the original's free dimensions open where the graph computes the same at
// another size of them, and pin them, saying why, where it does not.
#include "ModelBuilder.h"

#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "search/FreeDimensionExport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::test;

namespace {

// x[N, 6] -> Reshape to [0, 2, 3] (0 copies N) -> y[N, 2, 3], and z[B, 4] -> Relu -> w[B, 4].
// The IR has static shapes: import folds Reshape's target to [N, 2, 3] at the bound N, so the
// imported graph bakes N and only B can stay open.
ModelBuilder bakedBatchModel() {
  ModelBuilder b(13);
  b.input("x", {-1, 6}).input("z", {-1, 4});
  (*b.model.mutable_graph()->mutable_input(1)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())[0].set_dim_param("B");
  b.ints("target", {0, 2, 3});
  b.node("Reshape", {"x", "target"}, {"y"});
  b.node("Relu", {"z"}, {"w"});
  b.output("y", {-1, 2, 3}).output("w", {-1, 4});
  (*b.model.mutable_graph()->mutable_output(1)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())[0].set_dim_param("B");
  return b;
}

const onnx::TensorShapeProto_Dimension& dimOf(const onnx::ValueInfoProto& info, int axis) {
  return info.type().tensor_type().shape().dim(axis);
}

const FreeDimensionOutcome& outcomeOf(const FreeDimensionExport& exported, const std::string& label) {
  for (const FreeDimensionOutcome& dim : exported.dims)
    if (dim.label == label) return dim;
  throw std::runtime_error("no outcome for " + label);
}

} // namespace

TEST(FreeDimensionExport, KeepsWhatTheGraphAllowsAndPinsWhatItBakes) {
  const std::string bytes = bakedBatchModel().bytes();
  Graph original = onnx_io::importOnnxBytes(bytes, "baked.onnx", onnx_io::ShapeBindings{{}, {{"N", 1}, {"B", 3}}});
  FreeDimensionExport exported = exportKeepingFreeDimensions(original, original, bytes, "baked.onnx");

  ASSERT_EQ(exported.dims.size(), 2u);
  const FreeDimensionOutcome& n = outcomeOf(exported, "N");
  EXPECT_FALSE(n.open);
  EXPECT_EQ(n.size, 1);
  EXPECT_EQ(n.triedSize, 2);
  // The reshape's target was a constant from import on: no rewrite is to blame.
  EXPECT_NE(n.detail.find("Tessera's import already fixes it"), std::string::npos) << n.detail;
  EXPECT_NE(n.detail.find("with N=2"), std::string::npos) << n.detail;
  const FreeDimensionOutcome& b = outcomeOf(exported, "B");
  EXPECT_TRUE(b.open) << b.detail;
  EXPECT_TRUE(b.ran);
  EXPECT_EQ(b.detail, "verified against the original with B=6");

  // The file: N written at its size, B as the dim_param, on the input and on the output it moves.
  onnx::ModelProto model;
  ASSERT_TRUE(model.ParseFromString(exported.bytes));
  const auto& inputs = model.graph().input();
  ASSERT_EQ(inputs.size(), 2);
  EXPECT_EQ(dimOf(inputs[0], 0).dim_value(), 1);
  EXPECT_EQ(dimOf(inputs[1], 0).dim_param(), "B");
  EXPECT_EQ(dimOf(model.graph().output(0), 0).dim_value(), 1);
  EXPECT_EQ(dimOf(model.graph().output(1), 0).dim_param(), "B");

  // It imports at any B, and not without one.
  Graph wide = onnx_io::importOnnxBytes(exported.bytes, "exported.onnx", onnx_io::ShapeBindings{{}, {{"B", 7}}});
  EXPECT_EQ(wide.typeOf(wide.outputs()[1].value).shape, (Shape{7, 4}));
  EXPECT_THROW(onnx_io::importOnnxBytes(exported.bytes, "exported.onnx"), Error);
  // At the original's sizes it imports again for verification.
  Graph same = importAtOriginalSizes(exported.bytes, "exported.onnx", original);
  EXPECT_EQ(same.typeOf(same.outputs()[1].value).shape, (Shape{3, 4}));
}

TEST(FreeDimensionExport, AGraphWithoutFreeDimensionsExportsAsBefore) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"});
  b.output("y", {2, 3});
  Graph g = b.import();
  FreeDimensionExport exported = exportKeepingFreeDimensions(g, g, b.bytes(), "static.onnx");
  EXPECT_TRUE(exported.dims.empty());
  EXPECT_EQ(exported.bytes, onnx_io::exportOnnxBytes(g));
}

TEST(FreeDimensionExport, TooLargeToRunIsCheckedByImportAndSaysSo) {
  const std::string bytes = bakedBatchModel().bytes();
  Graph original = onnx_io::importOnnxBytes(bytes, "baked.onnx", onnx_io::ShapeBindings{{}, {{"N", 1}, {"B", 3}}});
  FreeDimensionCheck check;
  check.maxElementsToRun = 4;
  FreeDimensionExport exported = exportKeepingFreeDimensions(original, original, bytes, "baked.onnx", check);
  const FreeDimensionOutcome& b = outcomeOf(exported, "B");
  EXPECT_TRUE(b.open);
  EXPECT_FALSE(b.ran);
  EXPECT_NE(b.detail.find("not run"), std::string::npos) << b.detail;
  EXPECT_FALSE(outcomeOf(exported, "N").open); // still found by import alone
}

TEST(FreeDimensionExport, ARewriteThatBakesASizePinsItAndSaysSo) {
  ModelBuilder b(13);
  b.input("x", {-1, 3});
  b.node("Relu", {"x"}, {"y"});
  b.output("y", {-1, 3});
  const std::string bytes = b.bytes();
  Graph original = onnx_io::importOnnxBytes(bytes, "relu.onnx", onnx_io::ShapeBindings{{}, {{"N", 4}}});
  // What a rewrite through a flattening reshape leaves: the batch of 4 written into constants.
  Graph optimized;
  optimized.info = original.info;
  NodeId x = optimized.addInput("x", {DType::Float32, {4, 3}});
  NodeId flat = optimized.addNode(OpKind::Reshape, {{x}}, {{"shape", std::vector<int64_t>{12}}});
  NodeId relu = optimized.addNode(OpKind::Relu, {{flat}});
  optimized.addOutput({optimized.addNode(OpKind::Reshape, {{relu}}, {{"shape", std::vector<int64_t>{4, 3}}})}, "y");

  FreeDimensionExport exported = exportKeepingFreeDimensions(optimized, original, bytes, "relu.onnx");
  const FreeDimensionOutcome& n = outcomeOf(exported, "N");
  EXPECT_FALSE(n.open);
  EXPECT_NE(n.detail.find("the optimised graph depends on its size: with N=8"), std::string::npos) << n.detail;
  // The original itself stays open.
  EXPECT_TRUE(outcomeOf(exportKeepingFreeDimensions(original, original, bytes, "relu.onnx"), "N").open);
}
