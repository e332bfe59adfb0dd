// Sizes for a model's open input axes: --dim binds a dim_param wherever it appears, --input-shape
// binds a whole input; an axis left open, or a binding that fits no input, is an error naming it.
#include "ModelBuilder.h"

#include "onnx/OnnxImport.h"
#include "onnx/ShapeBindings.h"
#include "support/Error.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::test;
using onnx_io::ShapeBindings;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// x[batch, 3, H, W] and the weight-free path y = relu(x) + relu(z), z[batch, 3, H, W].
ModelBuilder imageModel() {
  ModelBuilder b(13);
  b.input("x", {-1, 3, -1, -1}).input("z", {-1, 3, -1, -1});
  for (int i : {0, 1}) {
    auto* dims = b.model.mutable_graph()->mutable_input(i)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
    (*dims)[0].set_dim_param("batch");
    (*dims)[2].set_dim_param("H");
    (*dims)[3].set_dim_param("W");
  }
  b.floats("bias", {3, 1, 1}, {0.1f, 0.2f, 0.3f});
  b.node("Relu", {"x"}, {"rx"});
  b.node("Relu", {"z"}, {"rz"});
  b.node("Add", {"rx", "rz"}, {"s"});
  b.node("Add", {"s", "bias"}, {"y"});
  b.output("y", {-1, 3, -1, -1});
  auto* out = b.model.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
  (*out)[0].set_dim_param("batch");
  (*out)[2].clear_dim_param(); // an output size left unknown
  (*out)[3].set_dim_param("W");
  return b;
}

std::string importError(const ModelBuilder& b, const ShapeBindings& shapes) {
  try {
    onnx_io::importOnnxBytes(b.bytes(), "image.onnx", shapes);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "import succeeded";
  return {};
}

ShapeBindings dims(std::map<std::string, int64_t> values) { return {{}, std::move(values)}; }

#define EXPECT_MENTIONS(message, part) EXPECT_NE((message).find(part), std::string::npos) << (message)

} // namespace

TEST(ShapeBindings, AnOpenDimensionWithNoValueIsAnErrorNamingEachAndTheOptions) {
  std::string message = importError(imageModel(), {});
  EXPECT_EQ(message.rfind("image.onnx: ", 0), 0u) << message;
  EXPECT_MENTIONS(message, "input 'x' [batch,3,H,W]: axis 0 'batch', axis 2 'H', axis 3 'W'");
  EXPECT_MENTIONS(message, "input 'z'");
  EXPECT_MENTIONS(message, "--dim NAME=VALUE");
  EXPECT_MENTIONS(message, "--input-shape NAME=AxBxC");
  // Partly bound: only what is still open is named.
  message = importError(imageModel(), dims({{"batch", 2}, {"H", 8}}));
  EXPECT_MENTIONS(message, "input 'x' [batch,3,H,W]: axis 3 'W'");
  EXPECT_EQ(message.find("axis 0 'batch'"), std::string::npos) << message;
}

TEST(ShapeBindings, DimBindsADimParamOnEveryInputThatHasIt) {
  Graph g = onnx_io::importOnnxBytes(imageModel().bytes(), "image.onnx", dims({{"batch", 2}, {"H", 8}, {"W", 5}}));
  for (NodeId id : g.inputNodes()) EXPECT_EQ(g.node(id).outputTypes[0], f32({2, 3, 8, 5})) << g.node(id).name;
  EXPECT_EQ(g.typeOf(g.outputs()[0].value), f32({2, 3, 8, 5}));
  // The free axes and what they were bound to, inputs first, then the output's open axes.
  ASSERT_EQ(g.info.freeAxes.size(), 9u);
  EXPECT_EQ(g.info.freeAxes[0].tensor, "x");
  EXPECT_EQ(g.info.freeAxes[0].param, "batch");
  EXPECT_EQ(g.info.freeAxes[0].size, 2);
  EXPECT_FALSE(g.info.freeAxes[0].output);
  const FreeAxis& unknownOut = g.info.freeAxes[7];
  EXPECT_TRUE(unknownOut.output);
  EXPECT_EQ(unknownOut.axis, 2);
  EXPECT_EQ(unknownOut.param, "");
  EXPECT_EQ(unknownOut.size, 8);
}

TEST(ShapeBindings, InputShapeBindsAWholeInputAndAgreesWithDim) {
  ShapeBindings shapes = dims({{"batch", 1}, {"H", 4}, {"W", 4}});
  shapes.inputShapes["x"] = {1, 3, 4, 4};
  Graph g = onnx_io::importOnnxBytes(imageModel().bytes(), "image.onnx", shapes);
  EXPECT_EQ(g.node(g.inputNodes()[0]).outputTypes[0], f32({1, 3, 4, 4}));
  // A whole shape that contradicts a --dim value is refused, naming both.
  shapes.inputShapes["x"] = {2, 3, 4, 4};
  std::string message = importError(imageModel(), shapes);
  EXPECT_MENTIONS(message, "--input-shape x=2x3x4x4");
  EXPECT_MENTIONS(message, "--dim batch=1");
}

TEST(ShapeBindings, UnknownAxesAreBoundByInputShape) {
  ModelBuilder b(13);
  b.input("tokens", {-1, -1});
  auto* dim = b.model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1);
  dim->clear_dim_param(); // neither a value nor a name: unknown
  b.node("Relu", {"tokens"}, {"y"});
  b.output("y");
  std::string message = importError(b, dims({{"N", 2}}));
  EXPECT_MENTIONS(message, "input 'tokens' [N,?]: axis 1 (unknown size)");
  ShapeBindings shapes;
  shapes.inputShapes["tokens"] = {2, 7};
  Graph g = onnx_io::importOnnxBytes(b.bytes(), "tokens.onnx", shapes);
  EXPECT_EQ(g.node(g.inputNodes()[0]).outputTypes[0], f32({2, 7}));
  ASSERT_EQ(g.info.freeAxes.size(), 2u);
  EXPECT_EQ(onnx_io::freeAxisLabel(g.info.freeAxes[1]), "tokens[1]");
}

TEST(ShapeBindings, BindingsThatFitNoInputAreErrors) {
  ShapeBindings wrongRank = dims({{"H", 4}, {"W", 4}, {"batch", 1}});
  wrongRank.inputShapes["x"] = {1, 3, 4};
  EXPECT_MENTIONS(importError(imageModel(), wrongRank), "--input-shape x=1x3x4: gives rank 3 but input 'x' [batch,3,H,W] has rank 4");

  ShapeBindings noSuchInput = dims({{"H", 4}, {"W", 4}, {"batch", 1}});
  noSuchInput.inputShapes["images"] = {1, 3, 4, 4};
  std::string message = importError(imageModel(), noSuchInput);
  EXPECT_MENTIONS(message, "--input-shape images=1x3x4x4: the model has no graph input 'images' (its inputs: x, z)");

  ShapeBindings weight = dims({{"H", 4}, {"W", 4}, {"batch", 1}});
  weight.inputShapes["bias"] = {3, 1, 1};
  EXPECT_MENTIONS(importError(imageModel(), weight), "no graph input 'bias'");

  ShapeBindings staticClash = dims({{"H", 4}, {"W", 4}, {"batch", 1}});
  staticClash.inputShapes["x"] = {1, 4, 4, 4};
  EXPECT_MENTIONS(importError(imageModel(), staticClash), "gives axis 1 size 4 but input 'x' [batch,3,H,W] fixes it at 3");

  message = importError(imageModel(), dims({{"N", 1}, {"H", 4}, {"W", 4}}));
  EXPECT_MENTIONS(message, "--dim N=1: no input of the model has a symbolic dimension 'N' (its symbolic dimensions: H, W, batch)");
}

TEST(ShapeBindings, ParsesOptionTextAndRefusesMalformedText) {
  ShapeBindings shapes;
  onnx_io::parseInputShapeBinding("x=1x3x640x640", shapes);
  onnx_io::parseInputShapeBinding("a=b=7", shapes); // the last '=' splits: input names may hold '='
  onnx_io::parseDimBinding("p2o.DynamicDimension.0=1", shapes);
  EXPECT_EQ(shapes.inputShapes.at("x"), (Shape{1, 3, 640, 640}));
  EXPECT_EQ(shapes.inputShapes.at("a=b"), (Shape{7}));
  EXPECT_EQ(shapes.dims.at("p2o.DynamicDimension.0"), 1);
  EXPECT_EQ(onnx_io::describeBindings(shapes), "--input-shape a=b=7 --input-shape x=1x3x640x640 --dim p2o.DynamicDimension.0=1");
  for (const char* bad : {"x", "x=", "=1x3", "x=1x0", "x=1xx3", "x=1x-3", "x=3.5", "x=1x3x"}) {
    ShapeBindings ignored;
    EXPECT_THROW(onnx_io::parseInputShapeBinding(bad, ignored), Error) << bad;
  }
  for (const char* bad : {"N", "N=", "=1", "N=0", "N=-1", "N=one", "N=1x2"}) {
    ShapeBindings ignored;
    EXPECT_THROW(onnx_io::parseDimBinding(bad, ignored), Error) << bad;
  }
  try {
    onnx_io::parseDimBinding("N=2", shapes);
    onnx_io::parseDimBinding("N=3", shapes);
    ADD_FAILURE() << "a dimension given twice was accepted";
  } catch (const Error& e) {
    EXPECT_MENTIONS(std::string(e.what()), "'N' is given twice");
  }
}

TEST(ShapeBindings, BindableInputsListTheDeclaredInputsWithoutImporting) {
  std::vector<onnx_io::DeclaredInput> inputs = onnx_io::bindableInputsOfBytes(imageModel().bytes(), "image.onnx");
  ASSERT_EQ(inputs.size(), 2u); // the initializer is not one
  EXPECT_EQ(inputs[0].name, "x");
  EXPECT_TRUE(inputs[0].isOpen());
  EXPECT_EQ(inputs[0].dims, (std::vector<int64_t>{-1, 3, -1, -1}));
  EXPECT_EQ(inputs[0].params, (std::vector<std::string>{"batch", "", "H", "W"}));
  EXPECT_EQ(onnx_io::axesLeftOpen(inputs, dims({{"batch", 1}})).size(), 4u); // H and W of both inputs
  EXPECT_THROW(onnx_io::bindableInputsOfBytes("not a model", "junk.onnx"), Error);
}
