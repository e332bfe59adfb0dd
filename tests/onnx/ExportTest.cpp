// Export writes opset-17 models that libonnx's checker accepts: every op round-trips through
// import to the same graph, Tessera-only forms are spelled with standard ops that compute the
// same values, names are kept, and opaque ops come back byte for byte.
#include "ModelBuilder.h"

#include "interp/Interpreter.h"
#include "interp/Verify.h"
#include "ir/GraphHash.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <set>

using namespace tessera;
using namespace tessera::test;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

Tensor ramp(Shape shape, float scale = 0.01f) {
  std::vector<float> values(static_cast<size_t>(numelOf(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8);
  return Tensor::fromFloats(std::move(shape), std::move(values));
}

onnx::ModelProto exportProto(const Graph& graph) {
  onnx::ModelProto model;
  EXPECT_TRUE(model.ParseFromString(onnx_io::exportOnnxBytes(graph)));
  return model;
}

std::vector<std::string> protoOps(const onnx::ModelProto& model) {
  std::vector<std::string> ops;
  for (const auto& node : model.graph().node()) ops.push_back(node.op_type());
  return ops;
}

Graph roundTrip(const Graph& graph) { return onnx_io::importOnnxBytes(onnx_io::exportOnnxBytes(graph), "exported.onnx"); }

void expectSameFunction(const Graph& a, const Graph& b, bool ownWeights = false) {
  VerifyOptions options;
  options.trials = 1;
  options.randomizeWeights = !ownWeights;
  VerifyResult result = verifyEquivalent(a, b, options);
  EXPECT_TRUE(result.equivalent) << result.worst;
}

// A graph with every op that has an ONNX spelling, in its canonical IR form.
Graph everyOp() {
  Graph g;
  ValueRef x{g.addInput("x", f32({1, 4, 8, 8}))};
  auto weight = [&](const std::string& name, Tensor value) { return ValueRef{g.addWeight(name, std::move(value))}; };
  auto add = [&](OpKind kind, std::vector<ValueRef> inputs, Attributes attrs = {}) { return ValueRef{g.addNode(kind, inputs, attrs)}; };

  ValueRef conv = add(OpKind::Conv, {x, weight("conv_w", Tensor::splat(f32({8, 4, 3, 3}), 0.05)), weight("conv_b", ramp({8}))},
                      {{"pads", Ints{1, 1, 1, 1}}});
  ValueRef bn = add(OpKind::BatchNorm,
                    {conv, weight("bn_scale", ramp({8}, 0.1f)), weight("bn_bias", ramp({8})), weight("bn_mean", ramp({8})),
                     weight("bn_var", Tensor::splat(f32({8}), 1.0))},
                    {{"epsilon", 1e-3f}});
  ValueRef relu = add(OpKind::Relu, {bn});
  ValueRef lrn = add(OpKind::LRN, {relu}, {{"size", int64_t(3)}, {"alpha", 2e-4f}});
  ValueRef maxPool = add(OpKind::MaxPool, {lrn}, {{"kernel_shape", Ints{2, 2}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t(1)}});
  ValueRef avgPool = add(OpKind::AveragePool, {maxPool},
                         {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"count_include_pad", int64_t(1)}});
  ValueRef global = add(OpKind::GlobalAveragePool, {maxPool});
  ValueRef sum = add(OpKind::Add, {avgPool, global});
  NodeId split = g.addNode(OpKind::Split, {sum}, {{"axis", int64_t(1)}, {"split", Ints{3, 5}}});
  ValueRef cat = add(OpKind::Concat, {{split, 1}, {split, 0}}, {{"axis", int64_t(1)}});
  ValueRef pad = add(OpKind::Pad, {cat}, {{"pads", Ints{0, 0, 1, 1, 0, 0, 1, 1}}, {"mode", std::string("reflect")}});
  ValueRef slice = add(OpKind::Slice, {pad}, {{"starts", Ints{1}}, {"ends", Ints{5}}, {"axes", Ints{2}}, {"steps", Ints{2}}});
  ValueRef transposed = add(OpKind::Transpose, {slice}, {{"perm", Ints{0, 2, 3, 1}}});
  ValueRef reshaped = add(OpKind::Reshape, {transposed}, {{"shape", Ints{2, 6, 8}}});
  ValueRef unsqueezed = add(OpKind::Unsqueeze, {reshaped}, {{"axes", Ints{0}}});
  ValueRef squeezed = add(OpKind::Squeeze, {unsqueezed}, {{"axes", Ints{0}}});
  ValueRef mean = add(OpKind::ReduceMean, {squeezed}, {{"axes", Ints{2}}});
  ValueRef centred = add(OpKind::Sub, {squeezed, mean});
  ValueRef squared = add(OpKind::Pow, {centred, weight("two", Tensor::fromFloats({}, {2.0f}))});
  ValueRef root = add(OpKind::Sqrt, {squared});
  ValueRef norm = add(OpKind::LayerNorm, {centred, weight("ln_gamma", ramp({8}, 0.2f)), weight("ln_beta", ramp({8}))});
  ValueRef clipped = add(OpKind::Clip, {norm}, {{"min", -1.0f}, {"max", 1.0f}});
  ValueRef combined = add(OpKind::Sum, {clipped, root, centred});
  ValueRef softmax = add(OpKind::Softmax, {combined}, {{"axis", int64_t(1)}});
  ValueRef flat = add(OpKind::Flatten, {softmax});
  ValueRef gemm = add(OpKind::Gemm, {flat, weight("fc_w", Tensor::splat(f32({10, 48}), 0.02)), weight("fc_b", ramp({10}))},
                      {{"alpha", 0.5f}, {"transB", int64_t(1)}});
  ValueRef mm = add(OpKind::MatMul, {gemm, weight("mm_w", ramp({10, 10}))});
  ValueRef activations = add(OpKind::Mul, {add(OpKind::Tanh, {mm}), add(OpKind::Sigmoid, {mm})});
  ValueRef other = add(OpKind::Div, {add(OpKind::Erf, {mm}), add(OpKind::Exp, {add(OpKind::Neg, {mm})})});
  ValueRef both = add(OpKind::Dropout, {add(OpKind::Identity, {add(OpKind::Add, {activations, other})})});
  ValueRef rows = add(OpKind::Gather, {both, weight("row_ids", Tensor::fromInts({DType::Int64, {3}}, {0, 1, 0}))});
  g.addOutput(rows, "rows");
  g.addOutput({split, 0}, "first_split");
  return g;
}

} // namespace

TEST(Export, EveryOpRoundTripsAndComputesTheSameFunction) {
  Graph g = everyOp();
  onnx::ModelProto model = exportProto(g);
  EXPECT_EQ(model.opset_import(0).version(), 17);
  Graph again = onnx_io::importOnnxBytes(model.SerializeAsString(), "every-op.onnx");
  EXPECT_TRUE(structurallyEqual(g, again));
  EXPECT_EQ(countKind(again, OpKind::Opaque), 0u);
  expectSameFunction(g, again);
}

TEST(Export, ShapeOperandsBecomeInitializersAndSplatsConstantOfShape) {
  onnx::ModelProto model = exportProto(everyOp());
  std::set<std::string> initializers;
  for (const auto& t : model.graph().initializer()) initializers.insert(t.name());
  EXPECT_TRUE(initializers.count("conv_b"));
  EXPECT_TRUE(initializers.count("two"));
  EXPECT_TRUE(initializers.count("bn_var") == 0); // an 8-element splat
  size_t fills = 0;
  for (const auto& node : model.graph().node()) {
    if (node.op_type() != "ConstantOfShape") continue;
    ++fills;
    EXPECT_TRUE(node.output(0) == "conv_w" || node.output(0) == "bn_var" || node.output(0) == "fc_w") << node.output(0);
  }
  EXPECT_EQ(fills, 3u);
  for (const auto& node : model.graph().node()) {
    bool takesOperands = node.op_type() == "Split" || node.op_type() == "Reshape" || node.op_type() == "Slice" || node.op_type() == "Pad";
    if (takesOperands) {
      EXPECT_GE(node.input_size(), 2) << node.op_type();
    }
  }
}

TEST(Export, FusedActivationsBecomeFollowingOps) {
  Graph g;
  ValueRef x{g.addInput("x", f32({1, 2, 5, 5}))};
  ValueRef w{g.addWeight("w", ramp({3, 2, 3, 3}))};
  ValueRef conv{g.addNode(OpKind::Conv, {x, w}, {{"activation", int64_t(Activation::Relu)}})};
  ValueRef flat{g.addNode(OpKind::Flatten, {conv})};
  ValueRef m{g.addWeight("m", ramp({27, 4}))};
  g.addOutput({g.addNode(OpKind::MatMul, {flat, m}, {{"activation", int64_t(Activation::Tanh)}})}, "y");
  EXPECT_EQ(protoOps(exportProto(g)), (std::vector<std::string>{"Conv", "Relu", "Flatten", "MatMul", "Tanh"}));
  Graph again = roundTrip(g);
  EXPECT_EQ(opNames(again), (std::vector<std::string>{"Conv", "Relu", "Flatten", "MatMul", "Tanh"}));
  expectSameFunction(g, again);
}

TEST(Export, ScalarMulGeluAndEnlargeUseStandardOps) {
  Graph g;
  ValueRef x{g.addInput("x", f32({1, 2, 4, 4}))};
  ValueRef s{g.addWeight("s", Tensor::fromFloats({1, 1, 1, 1, 1}, {0.5f}))};
  ValueRef scaled{g.addNode(OpKind::ScalarMul, {x, s})};
  ValueRef exact{g.addNode(OpKind::Gelu, {scaled})};
  ValueRef approx{g.addNode(OpKind::Gelu, {exact}, {{"approximate", std::string("tanh")}})};
  ValueRef small{g.addWeight("small", ramp({3, 2, 1, 1}, 0.1f))};
  ValueRef big{g.addWeight("big", ramp({3, 2, 3, 3}))};
  ValueRef enlarged{g.addNode(OpKind::Enlarge, {small, big})};
  g.addOutput({g.addNode(OpKind::Conv, {approx, enlarged}, {{"pads", Ints{1, 1, 1, 1}}})}, "y");

  std::vector<std::string> ops = protoOps(exportProto(g));
  for (const char* op : {"Mul", "Erf", "Tanh", "Pad", "Conv"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  Graph again = roundTrip(g);
  EXPECT_EQ(countKind(again, OpKind::Gelu), 0u);
  EXPECT_EQ(countKind(again, OpKind::Enlarge), 0u);
  EXPECT_EQ(again.typeOf(again.outputs()[0].value), f32({1, 3, 4, 4}));
  expectSameFunction(g, again, /*ownWeights=*/true);
}

namespace {
// The float initializers of an exported model: derived weights must not add any.
std::set<std::string> floatInitializers(const onnx::ModelProto& model) {
  std::set<std::string> names;
  for (const auto& t : model.graph().initializer())
    if (t.data_type() == onnx::TensorProto::FLOAT && t.dims_size() > 0) names.insert(t.name());
  return names;
}
} // namespace

// Merged weights are ops over the original weight (no new initializer), so the same random
// weights by name reach both graphs; several group layouts, TASO's g == count case first.
TEST(Export, MergeGroupsIsSpelledWithStandardOpsOverTheOriginalWeight) {
  struct Layout {
    int64_t outChannels, inPerGroup, groups, count;
  };
  for (Layout layout : {Layout{4, 1, 4, 4}, Layout{4, 1, 4, 2}, Layout{8, 2, 4, 2}, Layout{12, 1, 6, 3}}) {
    SCOPED_TRACE("M " + std::to_string(layout.outChannels) + " groups " + std::to_string(layout.groups) + " count " +
                 std::to_string(layout.count));
    Graph g;
    const int64_t channels = layout.inPerGroup * layout.groups;
    ValueRef x{g.addInput("x", f32({1, channels, 5, 5}))};
    ValueRef w{g.addWeight("w", ramp({layout.outChannels, layout.inPerGroup, 3, 3}))};
    NodeId merge = g.addNode(OpKind::MergeGroups, {w}, {{"count", layout.count}, {"groups", layout.groups}}, "merge");
    g.addOutput({g.addNode(OpKind::Conv, {x, {merge, 0}})}, "y");

    onnx::ModelProto model = exportProto(g);
    EXPECT_EQ(floatInitializers(model), (std::set<std::string>{"w"}));
    Graph again = roundTrip(g);
    EXPECT_EQ(countKind(again, OpKind::MergeGroups), 0u);
    const Node& conv = onlyNode(again, OpKind::Conv);
    EXPECT_EQ(again.typeOf(conv.inputs[1]).shape, (Shape{layout.outChannels, layout.count * layout.inPerGroup, 3, 3}));
    expectSameFunction(g, again);                        // random weights by name
    expectSameFunction(g, again, /*ownWeights=*/true);   // and the graph's own
  }
}

// MergeGroups of a run-time tensor has the same spelling; the values match the IR kernel's.
TEST(Export, MergeGroupsOfAComputedTensorIsSpelledOutToo) {
  Graph g;
  ValueRef x{g.addInput("w_in", f32({8, 2, 3, 3}))};
  NodeId merge = g.addNode(OpKind::MergeGroups, {x}, {{"count", int64_t(2)}, {"groups", int64_t(4)}}, "merge_me");
  g.addOutput({merge, 0}, "y");
  Graph again = roundTrip(g);
  EXPECT_EQ(again.typeOf(again.outputs()[0].value), f32({8, 4, 3, 3}));
  expectSameFunction(g, again);
}

// A conv with its batchnorm folded in: the folds are spelled with Add/Sqrt/Div/Reshape/Mul over
// the original weights whether or not an operand is known at run time only, so the exported
// model computes the same function for any weights given by name.
TEST(Export, BatchNormFoldsAreSpelledOutOverTheOriginalWeights) {
  for (bool constantScale : {true, false}) {
    SCOPED_TRACE(constantScale ? "weights only" : "run-time scale");
    Graph g;
    ValueRef x{g.addInput("x", f32({1, 2, 4, 4}))};
    ValueRef scale = constantScale ? ValueRef{g.addWeight("scale", ramp({3}, 0.3f))} : ValueRef{g.addInput("scale", f32({3}))};
    ValueRef bias{g.addWeight("bias", ramp({3}))};
    ValueRef mean{g.addWeight("mean", ramp({3}, 0.05f))};
    ValueRef var{g.addWeight("var", Tensor::fromFloats({3}, {0.5f, 1.0f, 2.0f}))};
    ValueRef convBias{g.addWeight("conv_b", ramp({3}, 0.02f))};
    ValueRef w{g.addWeight("w", ramp({3, 2, 3, 3}))};
    ValueRef foldedW{g.addNode(OpKind::FoldBatchNormWeight, {w, scale, var}, {{"epsilon", 1e-3f}})};
    ValueRef foldedB{g.addNode(OpKind::FoldBatchNormBias, {scale, bias, mean, var, convBias}, {{"epsilon", 1e-3f}})};
    g.addOutput({g.addNode(OpKind::Conv, {x, foldedW, foldedB}, {{"pads", Ints{1, 1, 1, 1}}})}, "y");

    onnx::ModelProto model = exportProto(g);
    std::vector<std::string> ops = protoOps(model);
    EXPECT_NE(std::find(ops.begin(), ops.end(), "Sqrt"), ops.end());
    std::set<std::string> originals{"bias", "mean", "var", "conv_b", "w"};
    if (constantScale) originals.insert("scale");
    EXPECT_EQ(floatInitializers(model), originals);
    Graph again = roundTrip(g);
    EXPECT_EQ(countKind(again, OpKind::Opaque), 0u);
    VerifyOptions options;
    options.trials = 2;
    for (bool ownWeights : {false, true}) {
      options.randomizeWeights = !ownWeights;
      VerifyResult result = verifyEquivalent(g, again, options);
      EXPECT_TRUE(result.equivalent) << (ownWeights ? "own weights: " : "random weights: ") << result.worst;
    }
  }
}

// LrnDenominator is written as a 1x1 Conv over a band weight built from scalars (Expand, Trilu),
// then square roots for beta 3/4 and 1/2 and Pow otherwise: no float initializer of more than one
// element, so `verify` draws no weight the original lacks, and the file computes the IR's values.
TEST(Export, LrnDenominatorIsAChannelConvOverABandBuiltFromScalars) {
  struct Case {
    int64_t size;
    float beta;
    const char* power; // the op that raises the window sum to beta, "" for none
  };
  for (const Case& c : {Case{5, 0.75f, "Sqrt"}, Case{4, 0.5f, "Sqrt"}, Case{2, 1.0f, ""}, Case{3, 0.6f, "Pow"}}) {
    SCOPED_TRACE("size " + std::to_string(c.size) + ", beta " + std::to_string(c.beta));
    Graph g;
    ValueRef x{g.addInput("x", f32({1, 6, 3, 2}))};
    ValueRef squares{g.addNode(OpKind::Mul, {x, x})};
    const Attributes attrs{{"size", c.size}, {"alpha", 0.3f}, {"beta", c.beta}, {"bias", 2.0f}};
    g.addOutput({g.addNode(OpKind::LrnDenominator, {squares}, attrs, "lrn_denominator")}, "y");

    onnx::ModelProto model = exportProto(g);
    std::vector<std::string> ops = protoOps(model);
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "Conv"), 1);
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "Trilu"), 2);
    if (*c.power) {
      EXPECT_NE(std::find(ops.begin(), ops.end(), c.power), ops.end());
    }
    EXPECT_EQ(std::find(ops.begin(), ops.end(), c.beta == 0.6f ? "Sqrt" : "Pow"), ops.end());
    EXPECT_TRUE(floatInitializers(model).empty());
    Graph again = roundTrip(g);
    EXPECT_EQ(countKind(again, OpKind::LrnDenominator), 0u);
    expectSameFunction(g, again);
  }
}

TEST(Export, NamesAreKeptAndMadeUnique) {
  Graph g;
  ValueRef x{g.addInput("features", f32({2, 3}))};
  ValueRef w1{g.addWeight("w", ramp({3, 3}))};
  ValueRef w2{g.addWeight("w", ramp({3, 3}, 0.02f))}; // same name twice: one must be renamed
  NodeId first = g.addNode(OpKind::MatMul, {x, w1}, {}, "first_mm");
  g.mutableNode(first).outputNames[0] = "hidden";
  ValueRef out{g.addNode(OpKind::MatMul, {{first, 0}, w2}, {}, "second_mm")};
  g.addOutput(out, "logits");
  g.addOutput(out, "logits_again"); // the same value under a second name
  g.addOutput(x, "passthrough");    // a graph input as an output under another name

  onnx::ModelProto model = exportProto(g);
  const auto& graph = model.graph();
  ASSERT_EQ(graph.input_size(), 1);
  EXPECT_EQ(graph.input(0).name(), "features");
  ASSERT_EQ(graph.output_size(), 3);
  EXPECT_EQ(graph.output(0).name(), "logits");
  EXPECT_EQ(graph.output(1).name(), "logits_again");
  EXPECT_EQ(graph.output(2).name(), "passthrough");
  EXPECT_EQ(graph.node(0).name(), "first_mm");
  EXPECT_EQ(graph.node(0).output(0), "hidden");
  std::set<std::string> initializers;
  for (const auto& t : graph.initializer()) initializers.insert(t.name());
  EXPECT_EQ(initializers.size(), 2u);
  EXPECT_TRUE(initializers.count("w"));

  Graph again = roundTrip(g);
  ASSERT_EQ(again.outputs().size(), 3u);
  EXPECT_EQ(again.outputs()[1].name, "logits_again");
  EXPECT_EQ(again.typeOf(again.outputs()[2].value), f32({2, 3}));
  expectSameFunction(g, again, /*ownWeights=*/true);
}

TEST(Export, OpaqueOpsAreWrittenBackVerbatim) {
  ModelBuilder b(13);
  b.opsetImport("com.example", 2);
  b.input("x", {2, 3}).floats("w", {3}, {1, 2, 3});
  auto& custom = b.node("Frobnicate", {"x", "", "w"}, {"y"}, "frob");
  custom.set_domain("com.example");
  setAttr(custom, "level", int64_t(7));
  setAttr(custom, "gain", 0.25f);
  setAttr(custom, "mode", std::string("fast"));
  setAttr(custom, "sizes", Ints{1, 2, 3});
  setAttr(custom, "weights", std::vector<float>{0.5f, 1.5f});
  onnx::TensorProto table;
  table.set_data_type(TensorProto::INT64);
  table.add_dims(2);
  table.add_int64_data(4);
  table.add_int64_data(5);
  setAttr(custom, "table", table);
  b.valueInfo("y", {2, 3});
  setAttr(b.node("LpNormalization", {"y"}, {"z"}, "lpnorm"), "p", int64_t(1));
  b.output("z");

  Graph g = b.import();
  EXPECT_EQ(countKind(g, OpKind::Opaque), 2u);
  onnx::ModelProto model = exportProto(g);
  const onnx::NodeProto* written = nullptr;
  for (const auto& node : model.graph().node())
    if (node.op_type() == "Frobnicate") written = &node;
  ASSERT_NE(written, nullptr);
  EXPECT_EQ(written->domain(), "com.example");
  EXPECT_EQ(written->name(), "frob");
  ASSERT_EQ(written->input_size(), 3);
  EXPECT_EQ(written->input(1), "");
  ASSERT_EQ(written->attribute_size(), custom.attribute_size());
  for (int i = 0; i < custom.attribute_size(); ++i)
    EXPECT_EQ(written->attribute(i).SerializeAsString(), custom.attribute(i).SerializeAsString()) << custom.attribute(i).name();
  bool imported = false;
  for (const auto& opset : model.opset_import()) imported = imported || (opset.domain() == "com.example" && opset.version() == 2);
  EXPECT_TRUE(imported);

  Graph again = onnx_io::importOnnxBytes(model.SerializeAsString(), "opaque.onnx");
  EXPECT_TRUE(structurallyEqual(g, again));
}

// Resize before opset 11 takes its scales as the second input, where opset 17 expects the roi;
// written verbatim it would silently mean something else, so export refuses it (a Resize Tessera
// keeps opaque at opset 13, tf_crop_and_resize, is written back as is).
TEST(Export, OpaqueOpsWhoseMeaningChangedAreRefused) {
  for (int64_t opset : {10, 13}) {
    ModelBuilder b(opset);
    b.input("x", {1, 1, 2, 2}).floats("scales", {4}, {1, 1, 2, 2});
    if (opset == 10) {
      b.node("Resize", {"x", "scales"}, {"y"}, "upsample");
    } else {
      b.floats("roi", {8}, {0, 0, 0, 0, 1, 1, 1, 1});
      setAttr(b.node("Resize", {"x", "roi", "scales"}, {"y"}, "upsample"), "coordinate_transformation_mode", std::string("tf_crop_and_resize"));
    }
    b.output("y");
    Graph g = b.import();
    ASSERT_EQ(countKind(g, OpKind::Opaque), 1u);
    if (opset == 13) {
      EXPECT_TRUE(structurallyEqual(g, roundTrip(g)));
      continue;
    }
    try {
      onnx_io::exportOnnxBytes(g);
      ADD_FAILURE() << "export succeeded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("node 'upsample' (Resize): comes from opset 10"), std::string::npos) << e.what();
    }
  }
}

// Opset 9's Upsample is deprecated by opset 17: the checker rejects the written model, and that
// is a tessera::Error naming the file and the node, not a crash or a broken file.
TEST(Export, CheckerFailuresAreErrors) {
  ModelBuilder b(9);
  b.input("x", {1, 1, 2, 2}).floats("scales", {4}, {1, 1, 2, 2});
  b.node("Upsample", {"x", "scales"}, {"y"}, "up");
  b.output("y");
  Graph g = b.import();
  EXPECT_EQ(onlyNode(g, OpKind::Opaque).outputTypes[0], f32({1, 1, 4, 4}));
  std::string path = writeTempFile("upsample.onnx", "");
  try {
    onnx_io::exportOnnxFile(g, path);
    FAIL() << "export succeeded";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("upsample.onnx: the exported model fails the ONNX checker"), std::string::npos) << message;
    EXPECT_NE(message.find("Upsample"), std::string::npos) << message;
  }
}
