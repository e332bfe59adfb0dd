// Control flow kept opaque (issue #31): If, Loop and Scan import as opaque nodes whose subgraphs
// export unchanged, the outer values their subgraphs read become inputs, the interpreter runs
// them (checked against ONNX's node tests), bad subgraphs get one clear error, and the graph
// around an If optimises and verifies.
#include "ModelBuilder.h"

#include "cost/CostModel.h"
#include "interp/Interpreter.h"
#include "interp/Verify.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

using namespace tessera;
using namespace tessera::test;
namespace fs = std::filesystem;

namespace {

const fs::path kNodeTests = "/usr/share/libonnx-testdata/data/node";

onnx::ValueInfoProto valueInfo(const std::string& name, std::vector<int64_t> dims, int32_t elemType = TensorProto::FLOAT) {
  onnx::ValueInfoProto info;
  info.set_name(name);
  auto* tensor = info.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elemType);
  auto* shape = tensor->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  return info;
}

onnx::NodeProto& addNode(onnx::GraphProto& graph, const std::string& op, std::vector<std::string> inputs, std::vector<std::string> outputs) {
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type(op);
  for (auto& i : inputs) node.add_input(i);
  for (auto& o : outputs) node.add_output(o);
  return node;
}

void setGraph(onnx::NodeProto& node, const std::string& name, const onnx::GraphProto& graph) {
  onnx::AttributeProto& attr = *node.add_attribute();
  attr.set_name(name);
  attr.set_type(onnx::AttributeProto::GRAPH);
  *attr.mutable_g() = graph;
}

// x[2,3] -> a = Relu(x); If(cond) { then: a + w (w an outer initializer), else: Neg(a) } -> Sigmoid -> y.
// The branches read `a` and `w` from the enclosing graph by name.
ModelBuilder ifModel(bool declareIfOutput = false) {
  ModelBuilder b(17);
  b.input("x", {2, 3}).input("cond", {}, TensorProto::BOOL);
  b.floats("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.node("Relu", {"x"}, {"a"}, "relu");
  onnx::GraphProto thenBranch;
  thenBranch.set_name("then");
  addNode(thenBranch, "Add", {"a", "w"}, {"then_out"});
  *thenBranch.add_output() = valueInfo("then_out", {2, 3});
  onnx::GraphProto elseBranch;
  elseBranch.set_name("else");
  addNode(elseBranch, "Neg", {"a"}, {"else_out"});
  *elseBranch.add_output() = valueInfo("else_out", {2, 3});
  onnx::NodeProto& node = b.node("If", {"cond"}, {"branch"}, "choose");
  setGraph(node, "then_branch", thenBranch);
  setGraph(node, "else_branch", elseBranch);
  if (declareIfOutput) b.valueInfo("branch", {2, 3});
  b.node("Sigmoid", {"branch"}, {"y"}, "sigmoid");
  b.output("y", {2, 3});
  return b;
}

Tensor boolScalar(bool value) { return Tensor::fromInts({DType::Bool, {}}, {value ? 1 : 0}); }
Tensor input23() { return Tensor::fromFloats({2, 3}, {-1, 0.5f, 2, -3, 4, 0.25f}); }

const Node& onlyOpaque(const Graph& graph) { return onlyNode(graph, OpKind::Opaque); }

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

const onnx::NodeProto* findNode(const onnx::GraphProto& graph, const std::string& opType) {
  for (const auto& node : graph.node())
    if (node.op_type() == opType) return &node;
  return nullptr;
}

std::string attributeBytes(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attr : node.attribute())
    if (attr.name() == name) return attr.SerializeAsString();
  return {};
}

// Runs a backend node test's model on its first data set; returns the outputs and the expected ones.
std::pair<std::vector<Tensor>, std::vector<Tensor>> runNodeTest(const std::string& test, const onnx_io::BoundInputs& bound = {}) {
  const fs::path dir = kNodeTests / test;
  const fs::path data = dir / "test_data_set_0";
  onnx::ModelProto model;
  EXPECT_TRUE(model.ParseFromString(readFile((dir / "model.onnx").string())));
  TensorMap inputs;
  int i = 0;
  for (const auto& input : model.graph().input()) {
    if (bound.count(input.name())) {
      ++i;
      continue;
    }
    inputs[input.name()] = onnx_io::readTensorProtoFile((data / ("input_" + std::to_string(i++) + ".pb")).string());
  }
  Graph graph = onnx_io::importOnnxFile((dir / "model.onnx").string(), bound);
  std::vector<Tensor> expected;
  for (int o = 0; fs::exists(data / ("output_" + std::to_string(o) + ".pb")); ++o)
    expected.push_back(onnx_io::readTensorProtoFile((data / ("output_" + std::to_string(o) + ".pb")).string()));
  return {runGraph(graph, inputs), expected};
}

void expectClose(const Tensor& expected, const Tensor& actual) {
  ASSERT_EQ(actual.shape(), expected.shape());
  for (int64_t i = 0; i < expected.numel(); ++i) EXPECT_NEAR(actual.valueAt(i), expected.valueAt(i), 1e-5) << "element " << i;
}

} // namespace

TEST(ControlFlowImport, IfIsOneOpaqueNodeWhoseCapturedOuterValuesAreInputs) {
  Graph graph = ifModel().import();
  const Node& node = onlyOpaque(graph);
  EXPECT_EQ(node.opaque->opType, "If");
  ASSERT_EQ(node.opaque->capturedNames, (std::vector<std::string>{"a", "w"}));
  ASSERT_EQ(node.inputs.size(), 3u); // cond, then a and w
  EXPECT_EQ(graph.node(node.inputs[0].node).name, "cond");
  EXPECT_EQ(graph.node(node.inputs[1].node).kind, OpKind::Relu);
  EXPECT_EQ(graph.node(node.inputs[2].node).kind, OpKind::Weight);
  EXPECT_EQ(graph.node(node.inputs[2].node).name, "w");
  // Typed from its branches: nothing declares the If's output.
  ASSERT_EQ(node.outputTypes.size(), 1u);
  EXPECT_EQ(node.outputTypes[0], (TensorType{DType::Float32, {2, 3}}));
  // Dead-code elimination keeps what only the subgraphs read.
  Graph compact = graph.compacted();
  EXPECT_EQ(countKind(compact, OpKind::Relu), 1u);
}

TEST(ControlFlowInterpreter, IfRunsTheBranchTheConditionPicks) {
  Graph graph = ifModel().import();
  const Tensor x = input23();
  const std::vector<float> w = {1, 2, 3, 4, 5, 6};
  for (bool cond : {true, false}) {
    std::vector<Tensor> out = runGraph(graph, {{"x", x}, {"cond", boolScalar(cond)}});
    ASSERT_EQ(out.size(), 1u);
    for (int64_t i = 0; i < 6; ++i) {
      float a = std::max(0.0f, x.floatAt(i));
      EXPECT_NEAR(out[0].floatAt(i), sigmoid(cond ? a + w[static_cast<size_t>(i)] : -a), 1e-6) << "cond " << cond << " element " << i;
    }
  }
}

TEST(ControlFlowExport, SubgraphsComeBackByteIdenticalAndTheModelRunsTheSame) {
  ModelBuilder b = ifModel();
  Graph graph = b.import();
  const std::string exported = onnx_io::exportOnnxBytes(graph); // the ONNX checker passed
  onnx::ModelProto model;
  ASSERT_TRUE(model.ParseFromString(exported));
  const onnx::NodeProto* original = findNode(b.model.graph(), "If");
  const onnx::NodeProto* written = findNode(model.graph(), "If");
  ASSERT_TRUE(original && written);
  for (const char* branch : {"then_branch", "else_branch"}) {
    EXPECT_FALSE(attributeBytes(*original, branch).empty());
    EXPECT_EQ(attributeBytes(*written, branch), attributeBytes(*original, branch)) << branch;
  }
  ASSERT_EQ(written->input_size(), 1); // captured values are not ONNX inputs
  Graph again = onnx_io::importOnnxBytes(exported, "exported.onnx");
  for (bool cond : {true, false}) {
    TensorMap inputs = {{"x", input23()}, {"cond", boolScalar(cond)}};
    expectClose(runGraph(graph, inputs)[0], runGraph(again, inputs)[0]);
  }
}

TEST(ControlFlowExport, ARenamedCapturedValueIsLinkedToTheNameTheSubgraphReads) {
  Graph graph = ifModel().import();
  // Export names the Relu's output "a_renamed": the branches still read "a".
  const NodeId relu = onlyOpaque(graph).inputs[1].node;
  graph.mutableNode(relu).outputNames[0] = "a_renamed";
  const std::string exported = onnx_io::exportOnnxBytes(graph);
  onnx::ModelProto model;
  ASSERT_TRUE(model.ParseFromString(exported));
  const onnx::NodeProto* link = nullptr;
  for (const auto& node : model.graph().node())
    if (node.op_type() == "Identity" && node.output(0) == "a") link = &node;
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->input(0), "a_renamed");
  Graph again = onnx_io::importOnnxBytes(exported, "exported.onnx");
  TensorMap inputs = {{"x", input23()}, {"cond", boolScalar(true)}};
  expectClose(runGraph(graph, inputs)[0], runGraph(again, inputs)[0]);
}

TEST(ControlFlowImport, NestedSubgraphsCaptureWhatTheirInnerGraphsRead) {
  ModelBuilder b(17);
  b.input("x", {4}).input("c1", {}, TensorProto::BOOL).input("c2", {}, TensorProto::BOOL);
  onnx::GraphProto innerThen, innerElse, outerThen, outerElse;
  innerThen.set_name("inner_then");
  innerElse.set_name("inner_else");
  outerThen.set_name("outer_then");
  outerElse.set_name("outer_else");
  addNode(innerThen, "Relu", {"x"}, {"it"});
  *innerThen.add_output() = valueInfo("it", {4});
  addNode(innerElse, "Abs", {"x"}, {"ie"});
  *innerElse.add_output() = valueInfo("ie", {4});
  onnx::NodeProto& inner = addNode(outerThen, "If", {"c2"}, {"inner_out"});
  setGraph(inner, "then_branch", innerThen);
  setGraph(inner, "else_branch", innerElse);
  *outerThen.add_output() = valueInfo("inner_out", {4});
  addNode(outerElse, "Neg", {"x"}, {"oe"});
  *outerElse.add_output() = valueInfo("oe", {4});
  onnx::NodeProto& outer = b.node("If", {"c1"}, {"y"}, "outer");
  setGraph(outer, "then_branch", outerThen);
  setGraph(outer, "else_branch", outerElse);
  b.output("y", {4});
  Graph graph = b.import();
  const Node& node = onlyOpaque(graph);
  EXPECT_EQ(node.opaque->capturedNames, (std::vector<std::string>{"c2", "x"}));
  const Tensor x = Tensor::fromFloats({4}, {-2, -1, 1, 2});
  auto run = [&](bool c1, bool c2) {
    return runGraph(graph, {{"x", x}, {"c1", boolScalar(c1)}, {"c2", boolScalar(c2)}})[0];
  };
  EXPECT_EQ(run(true, true).floatAt(0), 0.0f);   // Relu
  EXPECT_EQ(run(true, false).floatAt(0), 2.0f);  // Abs
  EXPECT_EQ(run(false, true).floatAt(0), 2.0f);  // Neg
  Graph again = onnx_io::importOnnxBytes(onnx_io::exportOnnxBytes(graph), "exported.onnx");
  EXPECT_EQ(runGraph(again, {{"x", x}, {"c1", boolScalar(true)}, {"c2", boolScalar(false)}})[0].floatAt(1), 1.0f);
}

TEST(ControlFlowImport, ASubgraphReadingANameDefinedNowhereIsOneClearError) {
  ModelBuilder b = ifModel();
  onnx::NodeProto* node = b.model.mutable_graph()->mutable_node(1);
  ASSERT_EQ(node->op_type(), "If");
  node->mutable_attribute(0)->mutable_g()->mutable_node(0)->set_input(1, "missing");
  try {
    b.import("bad_if.onnx");
    FAIL() << "imported a subgraph that reads an undefined name";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("bad_if.onnx"), std::string::npos) << message;
    EXPECT_NE(message.find("node 'choose' (If)"), std::string::npos) << message;
    EXPECT_NE(message.find("'missing'"), std::string::npos) << message;
  }
}

TEST(ControlFlowImport, BranchesOfDifferentShapesWithoutADeclarationAreAClearError) {
  ModelBuilder b = ifModel();
  onnx::GraphProto& elseBranch = *b.model.mutable_graph()->mutable_node(1)->mutable_attribute(1)->mutable_g();
  elseBranch.clear_node();
  elseBranch.clear_output();
  addNode(elseBranch, "ReduceSum", {"a"}, {"else_out"});
  *elseBranch.add_output() = valueInfo("else_out", {1, 1});
  try {
    b.import("bad_if.onnx");
    FAIL() << "typed an If whose branches disagree";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("node 'choose' (If)"), std::string::npos) << message;
    EXPECT_NE(message.find("cannot be inferred"), std::string::npos) << message;
    EXPECT_NE(message.find("[2,3]"), std::string::npos) << message;
  }
}

TEST(ControlFlowImport, ASubgraphOutputThatNothingProducesIsOneClearError) {
  ModelBuilder b = ifModel(true);
  onnx::GraphProto& thenBranch = *b.model.mutable_graph()->mutable_node(1)->mutable_attribute(0)->mutable_g();
  thenBranch.mutable_output(0)->set_name("not_produced");
  try {
    b.import("broken.onnx");
    FAIL() << "imported a branch whose output is produced by nothing";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("broken.onnx: node 'choose' (If)"), std::string::npos) << message;
    EXPECT_NE(message.find("'not_produced'"), std::string::npos) << message;
  }
}

TEST(ControlFlowInterpreter, ABranchThatDoesNotFitTheShapesIsNamedWhenItRuns) {
  // The else branch reshapes to [3,2]: fine at import on its own, but its output disagrees with the
  // If's declared [2,3] only when it runs.
  ModelBuilder b = ifModel(true);
  onnx::GraphProto& elseBranch = *b.model.mutable_graph()->mutable_node(1)->mutable_attribute(1)->mutable_g();
  elseBranch.clear_node();
  elseBranch.clear_output();
  onnx::TensorProto shape;
  shape.set_name("shape32");
  shape.set_data_type(TensorProto::INT64);
  shape.add_dims(2);
  shape.add_int64_data(3);
  shape.add_int64_data(2);
  *elseBranch.add_initializer() = shape;
  addNode(elseBranch, "Reshape", {"a", "shape32"}, {"else_out"});
  *elseBranch.add_output() = valueInfo("else_out", {3, 2});
  Graph graph = b.import("mixed.onnx"); // typed by its declaration
  EXPECT_EQ(runGraph(graph, {{"x", input23()}, {"cond", boolScalar(true)}})[0].shape(), (Shape{2, 3}));
  try {
    runGraph(graph, {{"x", input23()}, {"cond", boolScalar(false)}});
    FAIL() << "ran a branch whose output does not fit the node";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("node 'choose' (If)"), std::string::npos) << message;
    EXPECT_NE(message.find("f32[3,2], but the node declares f32[2,3]"), std::string::npos) << message;
  }
}

TEST(ControlFlowNodeTests, IfLoopAndScanMatchOnnxExpectedOutputs) {
  if (!fs::exists(kNodeTests / "test_if")) GTEST_SKIP() << "libonnx-testdata is not installed";
  for (const char* test : {"test_if", "test_loop11", "test_scan9_sum"}) {
    SCOPED_TRACE(test);
    auto [outputs, expected] = runNodeTest(test);
    ASSERT_EQ(outputs.size(), expected.size());
    for (size_t i = 0; i < outputs.size(); ++i) expectClose(expected[i], outputs[i]);
  }
}

TEST(ControlFlowNodeTests, ScanExportsWithItsBodyUnchangedAndRunsTheSame) {
  if (!fs::exists(kNodeTests / "test_scan9_sum")) GTEST_SKIP() << "libonnx-testdata is not installed";
  const std::string path = (kNodeTests / "test_scan9_sum" / "model.onnx").string();
  Graph graph = onnx_io::importOnnxFile(path);
  onnx::ModelProto original, written;
  ASSERT_TRUE(original.ParseFromString(readFile(path)));
  const std::string exported = onnx_io::exportOnnxBytes(graph);
  ASSERT_TRUE(written.ParseFromString(exported));
  EXPECT_EQ(attributeBytes(*findNode(written.graph(), "Scan"), "body"), attributeBytes(*findNode(original.graph(), "Scan"), "body"));
  TensorMap inputs = {{"initial", Tensor::fromFloats({2}, {1, 2})}, {"x", Tensor::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6})}};
  Graph again = onnx_io::importOnnxBytes(exported, "exported.onnx");
  std::vector<Tensor> a = runGraph(graph, inputs), b = runGraph(again, inputs);
  ASSERT_EQ(a.size(), 2u);
  for (size_t i = 0; i < a.size(); ++i) expectClose(a[i], b[i]);
  EXPECT_EQ(a[0].floatAt(0), 10.0f); // 1 + 1 + 3 + 5
}

TEST(ControlFlowOptimise, TheGraphAroundAnIfOptimisesVerifiesAndExports) {
  // Two MatMuls sharing an input around the If: the greedy search merges them, the If stays.
  ModelBuilder b = ifModel();
  b.floats("m1", {3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  b.floats("m2", {3, 3}, {0, 1, 0, 1, 0, 0, 0, 0, 1});
  b.node("MatMul", {"y", "m1"}, {"p"}, "mm1");
  b.node("MatMul", {"y", "m2"}, {"q"}, "mm2");
  b.node("Add", {"p", "q"}, {"z"}, "sum");
  b.model.mutable_graph()->clear_output();
  b.output("z", {2, 3});
  Graph original = b.import();
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  std::unique_ptr<CostModel> cost = makeCostModel("analytic:h200");
  Control control;
  EventStream events;
  SearchOptions options;
  options.timeLimitSeconds = 20;
  SearchInput input{original, list, *cost, control, events, options};
  SearchResult result = makeStrategy("greedy")->run(input);
  verifySearchResult(original, result, 2, 1);
  EXPECT_TRUE(result.verificationRun);
  EXPECT_TRUE(result.verified) << result.verifyProblem;
  EXPECT_EQ(countKind(result.best, OpKind::Opaque), 1u);
  // The candidate exports and imports back to the same function.
  Graph again = onnx_io::importOnnxBytes(onnx_io::exportOnnxBytes(result.best), "optimised.onnx");
  VerifyOptions verify;
  verify.trials = 1;
  EXPECT_TRUE(verifyEquivalent(original, again, verify).equivalent);
}

TEST(ControlFlowImport, AnIfWithAConstantConditionBecomesItsTakenBranch) {
  for (bool cond : {true, false}) {
    Graph graph = onnx_io::importOnnxBytes(ifModel().bytes(), "bound.onnx", onnx_io::BoundInputs{{"cond", boolScalar(cond)}});
    EXPECT_EQ(countKind(graph, OpKind::Opaque), 0u);
    EXPECT_EQ(countKind(graph, cond ? OpKind::Add : OpKind::Neg), 1u);
    Graph opaque = ifModel().import();
    const Tensor x = input23();
    expectClose(runGraph(opaque, {{"x", x}, {"cond", boolScalar(cond)}})[0], runGraph(graph, {{"x", x}})[0]);
  }
}

TEST(ControlFlowImport, SileroVadWithItsSampleRateBoundIsOneGraphOfOrdinaryOps) {
  const fs::path model = fs::path(TESSERA_SOURCE_DIR) / "samples/real/silero_vad_v5.onnx";
  if (!fs::exists(model)) GTEST_SKIP() << "samples/real/silero_vad_v5.onnx is not fetched";
  onnx_io::ShapeBindings shapes;
  shapes.inputShapes = {{"input", {1, 512}}, {"state", {2, 1, 128}}};
  // sr unbound: the whole network is one If (its two sample rates), typed from the 16 kHz branch.
  Graph opaque = onnx_io::importOnnxFile(model.string(), shapes);
  EXPECT_EQ(countKind(opaque, OpKind::Opaque), 1u);
  // sr = 16000: the If (and the shape tests nested in it) inline, leaving the ops of one network.
  Graph inlined = onnx_io::importOnnxFile(model.string(), shapes, {{"sr", Tensor::fromInts({DType::Int64, {}}, {16000})}});
  // No control flow is left, and nothing opaque: the LSTM and the 1-D convolutions import too.
  EXPECT_EQ(countKind(inlined, OpKind::Opaque), 0u);
  EXPECT_EQ(countKind(inlined, OpKind::LSTM), 1u);
  EXPECT_GT(inlined.opCount(), 20u);
  ASSERT_EQ(inlined.outputs().size(), 2u);
  EXPECT_EQ(inlined.typeOf(inlined.outputs()[0].value), (TensorType{DType::Float32, {1, 1}}));
  EXPECT_EQ(inlined.typeOf(inlined.outputs()[1].value), (TensorType{DType::Float32, {2, 1, 128}}));
}

TEST(ControlFlowExport, ASubgraphInAFormOpset17RefusesIsOneClearError) {
  // test_loop11's body (opset 11) gives Unsqueeze an axes attribute, an input since opset 13.
  const fs::path path = kNodeTests / "test_loop11" / "model.onnx";
  if (!fs::exists(path)) GTEST_SKIP() << "libonnx-testdata is not installed";
  Graph graph = onnx_io::importOnnxFile(path.string());
  try {
    onnx_io::exportOnnxBytes(graph);
    FAIL() << "exported an opset-11 loop body at opset 17";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("(Loop): its subgraph body was written for opset 11"), std::string::npos) << message;
    EXPECT_NE(message.find("Unsqueeze"), std::string::npos) << message;
  }
}
