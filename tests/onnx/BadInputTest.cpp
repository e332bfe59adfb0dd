// Bad files never crash the importer: each gives a tessera::Error that names the file and says
// what is wrong.
#include "ModelBuilder.h"

#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

using namespace tessera;
using namespace tessera::test;

namespace {

const std::string kModels = std::string(TESSERA_SHARED_DIR) + "/models/";

// Imports the file and returns the error message (failing the test if there is none).
std::string fileError(const std::string& path) {
  try {
    onnx_io::importOnnxFile(path);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << path << " imported without error";
  return {};
}

void expectFileError(const std::string& name, const std::string& bytes, const std::string& mentions) {
  std::string message = fileError(writeTempFile(name, bytes));
  EXPECT_NE(message.find(name + ": "), std::string::npos) << message;
  EXPECT_NE(message.find(mentions), std::string::npos) << message;
}

ModelBuilder reluModel(int64_t opset = 13) {
  ModelBuilder b(opset);
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"}, "relu");
  b.output("y");
  return b;
}

} // namespace

TEST(BadInput, MissingFile) {
  std::string message = fileError("/nonexistent-dir/missing.onnx");
  EXPECT_NE(message.find("missing.onnx: cannot open"), std::string::npos) << message;
}

TEST(BadInput, EmptyFile) { expectFileError("empty.onnx", "", "empty"); }

TEST(BadInput, DirectoryInsteadOfFile) {
  std::string dir = writeTempFile("placeholder", "");
  dir = dir.substr(0, dir.rfind('/'));
  EXPECT_NE(fileError(dir).find("directory"), std::string::npos);
}

TEST(BadInput, TruncatedModels) {
  std::string model = readFile(kModels + "light_squeezenet.onnx");
  ASSERT_GT(model.size(), 1000u);
  for (size_t cut : {model.size() / 2, model.size() - 1, size_t(100), size_t(7)}) {
    std::string name = "truncated" + std::to_string(cut) + ".onnx";
    std::string message = fileError(writeTempFile(name, model.substr(0, cut)));
    EXPECT_NE(message.find(name + ": "), std::string::npos) << message;
  }
}

TEST(BadInput, RandomBytes) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    std::string noise(64 + 97 * static_cast<size_t>(trial), '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    std::string name = "noise" + std::to_string(trial) + ".onnx";
    std::string message = fileError(writeTempFile(name, noise));
    EXPECT_NE(message.find(name + ": "), std::string::npos) << message;
  }
}

TEST(BadInput, ContradictingShapes) {
  ModelBuilder b = reluModel();
  b.model.mutable_graph()->clear_output();
  b.output("y", {3, 2});
  expectFileError("contradicting.onnx", b.bytes(), "graph output 'y' is declared as FLOAT[3,2] but is f32[2,3]");
}

TEST(BadInput, DanglingInputName) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  b.node("Add", {"x", "nowhere"}, {"y"}, "add");
  b.output("y");
  expectFileError("dangling.onnx", b.bytes(), "reads tensor 'nowhere'");
}

TEST(BadInput, UnsupportedOpsets) {
  expectFileError("opset0.onnx", reluModel(0).bytes(), "opset 0");
  expectFileError("opset22.onnx", reluModel(22).bytes(), "opset 22");
  ModelBuilder none = reluModel();
  none.model.clear_opset_import();
  expectFileError("noopset.onnx", none.bytes(), "no opset");
}

TEST(BadInput, TwoProducersOfOneTensor) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"});
  b.node("Sigmoid", {"x"}, {"y"});
  b.output("y");
  expectFileError("twice.onnx", b.bytes(), "tensor 'y' is produced twice");

  ModelBuilder shadow(13);
  shadow.input("x", {2, 3});
  shadow.node("Relu", {"x"}, {"x"});
  shadow.output("x");
  expectFileError("shadow.onnx", shadow.bytes(), "tensor 'x'");
}

TEST(BadInput, Cycle) {
  ModelBuilder b(13);
  b.input("x", {2, 3});
  b.node("Add", {"x", "b"}, {"a"}, "first");
  b.node("Relu", {"a"}, {"b"}, "second");
  b.output("b");
  expectFileError("cycle.onnx", b.bytes(), "cycle");
}

TEST(BadInput, BrokenTensors) {
  ModelBuilder count(13);
  count.input("x", {2, 2}).floats("w", {2, 2}, {1, 2, 3});
  count.node("Add", {"x", "w"}, {"y"});
  count.output("y");
  expectFileError("count.onnx", count.bytes(), "initializer 'w' has 3 values in float_data but its shape needs 4");

  ModelBuilder external = count;
  auto* w = external.model.mutable_graph()->mutable_initializer(0);
  w->set_data_location(TensorProto::EXTERNAL);
  auto* entry = w->add_external_data();
  entry->set_key("location");
  entry->set_value("weights.bin");
  expectFileError("external.onnx", external.bytes(), "external");

  ModelBuilder huge(13);
  huge.input("x", {2, 2}).ints("shape", {3}, {1 << 20, 1 << 20, 1 << 20});
  huge.node("ConstantOfShape", {"shape"}, {"w"});
  huge.node("Add", {"x", "w"}, {"y"});
  huge.output("y");
  expectFileError("huge.onnx", huge.bytes(), "2^40");

  ModelBuilder negative(13);
  negative.input("x", {2, -7});
  negative.model.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->set_dim_value(-7);
  negative.node("Relu", {"x"}, {"y"});
  negative.output("y");
  // A negative dim_value is no dimension at all: it reads as unknown, which needs a size.
  expectFileError("negative.onnx", negative.bytes(), "input 'x' [2,?]: axis 1 (unknown size)");
  onnx_io::ShapeBindings shapes;
  shapes.inputShapes["x"] = {2, 5};
  EXPECT_EQ(onnx_io::importOnnxBytes(negative.bytes(), "negative.onnx", shapes).node(0).outputTypes[0].shape, (Shape{2, 5}));
}

TEST(BadInput, UnsupportedTypes) {
  ModelBuilder b(13);
  b.input("x", {2}, TensorProto::UINT16);
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  expectFileError("uint16.onnx", b.bytes(), "UINT16");

  ModelBuilder text(13);
  text.input("x", {2});
  auto& constant = text.node("Constant", {}, {"c"});
  auto* attr = constant.add_attribute();
  attr->set_name("value_string");
  attr->set_type(onnx::AttributeProto::STRING);
  attr->set_s("hello");
  text.node("Add", {"x", "c"}, {"y"});
  text.output("y");
  expectFileError("string.onnx", text.bytes(), "string constants");
}

TEST(BadInput, MalformedNodes) {
  ModelBuilder arity(13);
  arity.input("x", {2, 3});
  arity.node("Relu", {"x", "x"}, {"y"}, "relu");
  arity.output("y");
  expectFileError("arity.onnx", arity.bytes(), "node 'relu' (Relu): has 2 inputs");

  ModelBuilder attrType(13);
  attrType.input("x", {2, 3});
  setAttr(attrType.node("Softmax", {"x"}, {"y"}, "sm"), "axis", std::string("last"));
  attrType.output("y");
  expectFileError("attrtype.onnx", attrType.bytes(), "attribute 'axis' should be INT");

  ModelBuilder gather(13);
  gather.input("x", {2, 3}).ints("ids", {1}, {5});
  gather.node("Shape", {"x"}, {"s"});
  gather.node("Gather", {"s", "ids"}, {"bad"}, "pick");
  gather.node("Reshape", {"x", "bad"}, {"y"});
  gather.output("y");
  expectFileError("gather.onnx", gather.bytes(), "index 5 is out of range");

  ModelBuilder axis(13);
  axis.input("x", {2, 3});
  setAttr(axis.node("Concat", {"x", "x"}, {"y"}, "cat"), "axis", std::numeric_limits<int64_t>::min());
  axis.output("y");
  expectFileError("axis.onnx", axis.bytes(), "node 'cat' (Concat)");

  ModelBuilder reshape(13);
  reshape.input("x", {1 << 20, 1 << 20}).ints("target", {0, 0, int64_t(1) << 31, 512});
  reshape.node("Reshape", {"x", "target"}, {"y"}, "explode");
  reshape.output("y");
  expectFileError("reshape.onnx", reshape.bytes(), "node 'explode' (Reshape): target shape");

  ModelBuilder step(13);
  step.input("x", {4}).ints("s", {0}).ints("e", {4}).ints("a", {0}).ints("st", {std::numeric_limits<int64_t>::max()});
  step.node("Slice", {"x", "s", "e", "a", "st"}, {"y"}, "slice");
  step.output("y");
  expectFileError("step.onnx", step.bytes(), "steps");
}

TEST(BadInput, StructureProblems) {
  ModelBuilder noOutputs = reluModel();
  noOutputs.model.mutable_graph()->clear_output();
  expectFileError("nooutputs.onnx", noOutputs.bytes(), "no outputs");

  ModelBuilder unproduced = reluModel();
  unproduced.output("ghost");
  expectFileError("ghost.onnx", unproduced.bytes(), "graph output 'ghost'");

  ModelBuilder noGraph = reluModel();
  noGraph.model.clear_graph();
  expectFileError("nograph.onnx", noGraph.bytes(), "no graph");
}
