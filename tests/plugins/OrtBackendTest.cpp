// The ONNX Runtime backend (measured:ort) without Qt: locating its install, the worker, the op
// profiler on one-op models, and the executor against the reference interpreter. Needs npm's
// onnxruntime-node, which .ci/install-deps.sh installs; without it the tests that run ORT skip and
// say what is missing.
#include "OrtDevice.h"
#include "OrtExecutor.h"
#include "OrtInstall.h"
#include "OrtProfiler.h"
#include "SampleExecution.h"
#include "SingleOpGraph.h"

#include "interp/TestData.h"
#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessera;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Skips the calling test, naming what is missing, when ONNX Runtime cannot run here.
#define REQUIRE_ORT(install)                                                        \
  const ort::OrtInstall install = ort::findOrtInstall();                            \
  if (!install.usable()) GTEST_SKIP() << "ONNX Runtime unavailable: " << install.problem

// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

// conv+relu -> reshape -> gemm -> softmax, and a second output straight from the reshape.
Graph smallGraph() {
  Graph g;
  const NodeId x = g.addInput("x", f32({2, 3, 8, 8}));
  const NodeId w = g.addWeight("w", randomTensor(f32({4, 3, 3, 3}), 3, "w"));
  const NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}}, "conv");
  const NodeId flat = g.addNode(OpKind::Reshape, {{conv}}, {{"shape", Ints{2, 256}}}, "flat");
  const NodeId wt = g.addWeight("wt", randomTensor(f32({256, 10}), 4, "wt"));
  const NodeId bias = g.addWeight("b", randomTensor(f32({10}), 5, "b"));
  const NodeId gemm = g.addNode(OpKind::Gemm, {{flat}, {wt}, {bias}}, {}, "gemm");
  const NodeId softmax = g.addNode(OpKind::Softmax, {{gemm}}, {}, "softmax");
  g.addOutput({softmax}, "probabilities");
  g.addOutput({flat}, "features");
  return g;
}

} // namespace

TEST(OrtInstall, AMissingPackageIsNamedWithWhereItWasLookedFor) {
  const std::filesystem::path empty = std::filesystem::temp_directory_path() / "tessera-ort-test-empty-prefix";
  std::filesystem::create_directories(empty);
  ScopedEnv prefix("TESSERA_ORT_PREFIX", empty.string());
  const ort::OrtInstall install = ort::findOrtInstall();
  EXPECT_FALSE(install.usable());
  // Without Node.js the first problem is Node.js itself; with it, the package.
  if (!install.node.empty()) {
    EXPECT_NE(install.problem.find("onnxruntime-node is not installed in " + empty.string()), std::string::npos) << install.problem;
    EXPECT_NE(install.problem.find("install-deps"), std::string::npos) << install.problem;
  }
  try {
    ort::OrtWorker worker(install);
    FAIL() << "a worker started without onnxruntime-node";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ONNX Runtime is unavailable"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(empty);
}

TEST(OrtWorker, AWorkerThatCannotLoadOnnxRuntimeSaysWhat) {
  REQUIRE_ORT(install);
  // A prefix that looks installed but whose package has no code: the worker exits at start.
  const std::filesystem::path fake = std::filesystem::temp_directory_path() / "tessera-ort-test-fake-prefix";
  const std::filesystem::path bin = fake / "node_modules/onnxruntime-node/bin/napi-v6/linux/x64";
  std::filesystem::create_directories(bin);
  std::ofstream(fake / "node_modules/onnxruntime-node/package.json") << R"({"name": "onnxruntime-node", "main": "missing.js"})";
  std::ofstream(bin / "libonnxruntime.so.1") << "not a library";
  ort::OrtInstall broken = install;
  broken.prefix = fake.string();
  try {
    ort::OrtWorker worker(broken);
    FAIL() << "a worker started over a broken onnxruntime-node";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("onnxruntime-node cannot be loaded from " + fake.string()), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(fake);
}

TEST(OrtProfiler, TimesOneOpModelsAndRefusesWhatItCannotBuild) {
  REQUIRE_ORT(install);
  ort::OrtWorker probe(install);
  ort::OrtProfiler profiler(install, ort::ortDeviceKey(probe.version(), install));
  EXPECT_EQ(profiler.device().rfind("ort:onnxruntime " + probe.version() + " on ", 0), 0u) << profiler.device();
  EXPECT_NE(profiler.device().find(ort::kOrtPricing), std::string::npos) << profiler.device();

  const OpSignature conv{OpKind::Conv, {f32({1, 16, 28, 28}), f32({32, 16, 3, 3})}, {f32({1, 32, 28, 28})}, {{"pads", Ints{1, 1, 1, 1}}}};
  ASSERT_TRUE(profiler.canMeasure(conv));
  const double convMs = profiler.measureMs(conv);
  EXPECT_GT(convMs, 0.0);
  EXPECT_LT(convMs, 1000.0);
  // A conv with four times the output channels does about four times the work.
  const OpSignature wider{OpKind::Conv, {f32({1, 16, 28, 28}), f32({128, 16, 3, 3})}, {f32({1, 128, 28, 28})}, {{"pads", Ints{1, 1, 1, 1}}}};
  ASSERT_TRUE(profiler.canMeasure(wider));
  EXPECT_GT(profiler.measureMs(wider), convMs);

  // Integer operands are not timed as float kernels; output types the op does not infer are refused.
  const OpSignature gather{OpKind::Gather, {f32({10, 4}), {DType::Int64, {3}}}, {f32({3, 4})}, {{"axis", int64_t{0}}}};
  EXPECT_FALSE(profiler.canMeasure(gather));
  const OpSignature inconsistent{OpKind::Relu, {f32({4})}, {f32({5})}, {}};
  EXPECT_FALSE(profiler.canMeasure(inconsistent));
  EXPECT_THROW(profiler.measureMs(inconsistent), Error);
}

// ORT fuses Conv then Relu at load whether or not Tessera fused them (the export writes both the
// same), so a fused conv is timed as its conv and its activation apart, as an unfused graph is.
TEST(OrtProfiler, AFusedConvIsTimedAsTheConvAndActivationItIsWrittenAs) {
  const OpSignature conv{OpKind::Conv, {f32({1, 16, 28, 28}), f32({32, 16, 3, 3})}, {f32({1, 32, 28, 28})}, {{"pads", Ints{1, 1, 1, 1}}}};
  OpSignature fused = conv;
  fused.attrs.set("activation", int64_t{2});
  const std::vector<OpSignature> parts = ort::timedAs(fused);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].key(), conv.key());
  EXPECT_EQ(parts[1].kind, OpKind::Relu);
  EXPECT_EQ(parts[1].inputs, conv.outputs);
  EXPECT_EQ(parts[1].outputs, conv.outputs);
  fused.attrs.set("activation", int64_t{1});
  EXPECT_EQ(ort::timedAs(fused).at(1).kind, OpKind::Sigmoid);
  ASSERT_EQ(ort::timedAs(conv).size(), 1u);
  EXPECT_EQ(ort::timedAs(conv)[0].key(), conv.key());
  // Other ops keep their activation: the one-op model runs it as the whole graph would.
  const OpSignature matmul{OpKind::MatMul, {f32({8, 16}), f32({16, 4})}, {f32({8, 4})}, {{"activation", int64_t{2}}}};
  EXPECT_EQ(ort::timedAs(matmul).size(), 1u);

  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  ASSERT_TRUE(profiler.canMeasure(fused));
  EXPECT_GT(profiler.measureMs(fused), 0.0);
}

// ORT copies a Split's outputs (it has no views), so a split is timed rather than estimated as free:
// the merges that end in one would otherwise look cheaper in ORT than they run. The e-graph prices
// one output at a time; that output is timed as the Slice copying its window.
TEST(OrtProfiler, TimesASplitAndEachOfItsOutputs) {
  const TensorType input = f32({1, 96, 28, 28});
  const OpSignature whole{OpKind::Split, {input}, {f32({1, 32, 28, 28}), f32({1, 64, 28, 28})}, {{"axis", int64_t{1}}, {"split", Ints{32, 64}}}};
  EXPECT_EQ(ort::timedAs(whole).at(0).key(), whole.key());
  OpSignature second = whole;
  second.outputs = {f32({1, 64, 28, 28})};
  const std::vector<OpSignature> parts = ort::timedAs(second);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].kind, OpKind::Slice);
  EXPECT_EQ(parts[0].attrs.getInts("starts"), Ints{32});
  EXPECT_EQ(parts[0].attrs.getInts("ends"), Ints{96});
  EXPECT_EQ(parts[0].attrs.getInts("axes"), Ints{1});
  EXPECT_EQ(parts[0].outputs, second.outputs);
  OpSignature negativeAxis = second;
  negativeAxis.attrs.set("axis", int64_t{-3});
  EXPECT_EQ(ort::timedAs(negativeAxis).at(0).key(), parts[0].key());

  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  ASSERT_TRUE(profiler.canMeasure(whole)) << whole.key();
  ASSERT_TRUE(profiler.canMeasure(second)) << second.key();
  EXPECT_GT(profiler.measureMs(whole), 0.0);
  EXPECT_GT(profiler.measureMs(second), 0.0);
}

// ORT runs a lone conv in its blocked layout with a reorder on each side; inside a model, a chain
// of convs pays none between them, so the profiler prices the conv's own nodes only. A MatMul never
// runs blocked.
TEST(OrtProfiler, AConvIsTimedWithoutTheReordersOfItsOneOpModel) {
  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tessera-ort-reorders-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const OpSignature conv{OpKind::Conv, {f32({1, 64, 56, 56}), f32({64, 64, 1, 1})}, {f32({1, 64, 56, 56})}, {}};
  const OpSignature matmul{OpKind::MatMul, {f32({64, 64}), f32({64, 64})}, {f32({64, 64})}, {}};
  onnx_io::exportOnnxFile(ort::singleOpGraph(conv), (dir / "conv.onnx").string());
  onnx_io::exportOnnxFile(ort::singleOpGraph(matmul), (dir / "matmul.onnx").string());
  const ort::ModelTiming convTiming = profiler.timeModel((dir / "conv.onnx").string());
  EXPECT_GT(convTiming.reordersMs, 0.0);
  EXPECT_GT(convTiming.opsMs, 0.0);
  EXPECT_LT(convTiming.opsMs, convTiming.allMs);
  EXPECT_EQ(profiler.timeModel((dir / "matmul.onnx").string()).reordersMs, 0.0);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(profiler.canMeasure(conv));
  EXPECT_GT(profiler.measureMs(conv), 0.0);
}

// A split of a 4-D tensor along its channels breaks ORT's blocked chain: each output pays the
// reorders of its window, timed as those around a 1x1 MaxPool over it. Other splits pay none.
TEST(OrtProfiler, AChannelSplitPaysTheReordersAroundIt) {
  const TensorType input = f32({1, 96, 28, 28});
  OpSignature second{OpKind::Split, {input}, {f32({1, 64, 28, 28})}, {{"axis", int64_t{1}}, {"split", Ints{32, 64}}}};
  EXPECT_EQ(ort::nchwcBordersOf(second), std::vector<TensorType>{f32({1, 64, 28, 28})});
  const OpSignature whole{OpKind::Split, {input}, {f32({1, 32, 28, 28}), f32({1, 64, 28, 28})}, {{"axis", int64_t{1}}, {"split", Ints{32, 64}}}};
  EXPECT_EQ(ort::nchwcBordersOf(whole), whole.outputs);
  OpSignature rows{OpKind::Split, {input}, {f32({1, 96, 14, 28})}, {{"axis", int64_t{2}}, {"split", Ints{14, 14}}}};
  EXPECT_TRUE(ort::nchwcBordersOf(rows).empty());
  const OpSignature matrix{OpKind::Split, {f32({96, 28})}, {f32({64, 28})}, {{"axis", int64_t{0}}, {"split", Ints{32, 64}}}};
  EXPECT_TRUE(ort::nchwcBordersOf(matrix).empty());
  const OpSignature probe = ort::reorderProbe(f32({1, 64, 28, 28}));
  EXPECT_EQ(probe.kind, OpKind::MaxPool);
  EXPECT_EQ(probe.inputs, probe.outputs);
  EXPECT_EQ(probe.attrs.getInts("kernel_shape"), (Ints{1, 1}));

  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  const std::filesystem::path file = std::filesystem::temp_directory_path() / ("tessera-ort-probe-" + std::to_string(getpid()) + ".onnx");
  onnx_io::exportOnnxFile(ort::singleOpGraph(probe), file.string());
  EXPECT_GT(profiler.timeModel(file.string()).reordersMs, 0.0);
  std::filesystem::remove(file);
  ASSERT_TRUE(profiler.canMeasure(second));
  EXPECT_GT(profiler.measureMs(second), 0.0);
  ASSERT_TRUE(profiler.canMeasure(whole));
  EXPECT_GT(profiler.measureMs(whole), 0.0);
}

// ORT folds a BatchNormalization into the Conv before it at load (graphCost then prices it at
// nothing); not through an activation Tessera fused into the conv, and nothing else.
TEST(OrtProfiler, FoldsABatchNormIntoTheConvBeforeIt) {
  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  const TensorType map = f32({1, 8, 4, 4}), channels = f32({8});
  const OpSignature conv{OpKind::Conv, {f32({1, 4, 4, 4}), f32({8, 4, 1, 1})}, {map}, {}};
  const OpSignature bn{OpKind::BatchNorm, {map, channels, channels, channels, channels}, {map}, {}};
  EXPECT_TRUE(profiler.foldedIntoProducer(conv, bn));
  OpSignature fused = conv;
  fused.attrs.set("activation", int64_t{2});
  EXPECT_FALSE(profiler.foldedIntoProducer(fused, bn));
  EXPECT_FALSE(profiler.foldedIntoProducer(OpSignature{OpKind::Relu, {map}, {map}, {}}, bn));
  EXPECT_FALSE(profiler.foldedIntoProducer(conv, OpSignature{OpKind::Relu, {map}, {map}, {}}));
}

TEST(OrtProfiler, CalibratesARooflineInOnnxRuntime) {
  REQUIRE_ORT(install);
  ort::OrtProfiler profiler(install, "ort:test");
  const DeviceProfile profile = ort::calibrateOrtProfile(profiler);
  EXPECT_GT(profile.peakGflops, 0.1);
  EXPECT_GT(profile.bandwidthGBs, 0.1);
  EXPECT_GT(profile.launchOverheadUs, 0.0);
}

TEST(OrtExecutor, RunsAGraphLikeTheInterpreterAndTimesIt) {
  REQUIRE_ORT(install);
  ort::OrtExecutor executor(install, "ort:test");
  const Graph graph = smallGraph();
  const TensorMap inputs = randomInputs(graph, 9);
  test::expectMatchesInterpreter(executor.run(graph, inputs), runGraph(graph, inputs), "small graph in ONNX Runtime");
  // Other inputs to the same graph reuse its session and still give the interpreter's outputs.
  const TensorMap others = randomInputs(graph, 10);
  test::expectMatchesInterpreter(executor.run(graph, others), runGraph(graph, others), "small graph, second inputs");
  const double ms = executor.measureLatencyMs(graph, 2, 5);
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 1000.0);
  EXPECT_THROW(executor.measureLatencyMs(graph, 0, 0), Error);
}

// LRN as the rule lrn-as-channel-conv spells it, x / LrnDenominator(x * x): ORT runs the export
// (a 1x1 conv over a band built from scalars, then square roots) as the interpreter computes LRN,
// and the profiler can price LrnDenominator on its own.
TEST(OrtExecutor, RunsLrnSpelledAsAChannelConvLikeTheInterpreter) {
  REQUIRE_ORT(install);
  const Attributes attrs{{"size", int64_t{5}}, {"alpha", 0.5f}, {"beta", 0.75f}, {"bias", 2.0f}};
  Graph g;
  const ValueRef x{g.addInput("x", f32({1, 12, 7, 5}))};
  const ValueRef squares{g.addNode(OpKind::Mul, {x, x}, {}, "squares")};
  const ValueRef denominator{g.addNode(OpKind::LrnDenominator, {squares}, attrs, "denominator")};
  g.addOutput({g.addNode(OpKind::Div, {x, denominator}, {}, "normalised")}, "y");
  Graph lrn;
  lrn.addOutput({lrn.addNode(OpKind::LRN, {{lrn.addInput("x", f32({1, 12, 7, 5}))}}, attrs, "lrn")}, "y");

  ort::OrtExecutor executor(install, "ort:test");
  const TensorMap inputs = randomInputs(g, 21);
  test::expectMatchesInterpreter(executor.run(g, inputs), runGraph(lrn, inputs), "LRN as a channel conv in ONNX Runtime");

  ort::OrtProfiler profiler(install, "ort:test");
  const OpSignature op{OpKind::LrnDenominator, {f32({1, 12, 7, 5})}, {f32({1, 12, 7, 5})}, attrs};
  ASSERT_TRUE(profiler.canMeasure(op));
  EXPECT_GT(profiler.measureMs(op), 0.0);
}

// What the real-model rules write (HardSwish, HardSigmoid, LayerNormalization over the last axis,
// both Gelus, a conv whose weights are scaled by a scalar and whose bias absorbs a kernel sum):
// exported, ONNX Runtime runs it as the interpreter computes it.
TEST(OrtExecutor, RunsWhatTheRealModelRulesWriteLikeTheInterpreter) {
  REQUIRE_ORT(install);
  Graph g;
  const ValueRef x{g.addInput("x", f32({1, 4, 6, 6}))};
  const ValueRef w{g.addWeight("w", randomTensor(f32({6, 4, 1, 1}), 3, "w"))};
  const ValueRef b{g.addWeight("b", randomTensor(f32({6}), 4, "b"))};
  const ValueRef s{g.addWeight("s", Tensor::fromFloats({1}, {0.75f}))};
  const ValueRef scaled{g.addNode(OpKind::Mul, {w, s}, {}, "scaled_w")};
  const ValueRef kernelSum{g.addNode(OpKind::ReduceSum, {w}, {{"axes", Ints{1, 2, 3}}, {"keepdims", int64_t{0}}}, "kernel_sum")};
  const ValueRef shift{g.addNode(OpKind::Mul, {kernelSum, s}, {}, "shift")};
  const ValueRef bias{g.addNode(OpKind::Add, {b, shift}, {}, "bias")};
  const ValueRef conv{g.addNode(OpKind::Conv, {x, scaled, bias}, {}, "conv")};
  const ValueRef swish{g.addNode(OpKind::HardSwish, {conv}, {}, "hardswish")};
  const ValueRef gate{g.addNode(OpKind::HardSigmoid, {swish}, {{"alpha", 1.0f / 6.0f}, {"beta", 0.5f}}, "hardsigmoid")};
  const ValueRef gamma{g.addWeight("gamma", randomTensor(f32({6}), 5, "gamma"))};
  const ValueRef beta{g.addWeight("beta", randomTensor(f32({6}), 6, "beta"))};
  const ValueRef norm{g.addNode(OpKind::LayerNorm, {gate, gamma, beta}, {{"axis", int64_t{-1}}, {"epsilon", 1e-5f}}, "layernorm")};
  const ValueRef exact{g.addNode(OpKind::Gelu, {norm}, {}, "gelu")};
  g.addOutput({g.addNode(OpKind::Gelu, {exact}, {{"approximate", std::string("tanh")}}, "gelu_tanh")}, "y");

  ort::OrtExecutor executor(install, "ort:test");
  const TensorMap inputs = randomInputs(g, 22);
  test::expectMatchesInterpreter(executor.run(g, inputs), runGraph(g, inputs), "the real-model rules' ops in ONNX Runtime");
}

TEST(OrtExecutor, RunsASampleModelLikeTheInterpreter) {
  REQUIRE_ORT(install);
  ort::OrtExecutor executor(install, "ort:test");
  const test::SampleRun sample = test::sampleRun("squeezenet");
  test::expectMatchesInterpreter(executor.run(sample.graph, sample.inputs), sample.want, "squeezenet in ONNX Runtime");
}

// GPT-2's block takes int64 token ids and an attention mask; they reach ONNX Runtime as int64.
TEST(OrtExecutor, RunsATransformerWithTokenIdsLikeTheInterpreter) {
  REQUIRE_ORT(install);
  ort::OrtExecutor executor(install, "ort:test");
  const test::SampleRun sample = test::sampleRun("transformers/gpt2_block");
  test::expectMatchesInterpreter(executor.run(sample.graph, sample.inputs), sample.want, "gpt2_block in ONNX Runtime");
}

TEST(OrtExecutor, BadInputsAndMalformedModelsGetErrorsAndTheWorkerGoesOn) {
  REQUIRE_ORT(install);
  ort::OrtExecutor executor(install, "ort:test");
  const Graph graph = smallGraph();
  EXPECT_THROW(executor.run(graph, {}), Error);
  TensorMap wrongShape{{"x", randomTensor(f32({1, 3, 8, 8}), 1, "x")}};
  EXPECT_THROW(executor.run(graph, wrongShape), Error);

  const std::filesystem::path malformed = std::filesystem::temp_directory_path() / "tessera-ort-test-malformed.onnx";
  std::ofstream(malformed, std::ios::binary) << "this is not a protobuf";
  try {
    executor.compareFiles(malformed.string(), malformed.string(), 1, 1);
    FAIL() << "a malformed model was timed";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(malformed.string()), std::string::npos) << message;
    EXPECT_NE(message.find("ONNX Runtime cannot load the model"), std::string::npos) << message;
  }
  std::filesystem::remove(malformed);
  // The worker survived and still runs graphs.
  const TensorMap inputs = randomInputs(graph, 3);
  test::expectMatchesInterpreter(executor.run(graph, inputs), runGraph(graph, inputs), "after a malformed model");
}

TEST(OrtExecutor, ComparesTwoModelFilesInterleaved) {
  REQUIRE_ORT(install);
  ort::OrtExecutor executor(install, "ort:test");
  const std::string model = std::string(TESSERA_SOURCE_DIR) + "/samples/squeezenet.onnx";
  const auto [first, second] = executor.compareFiles(model, model, 1, 3);
  EXPECT_EQ(first.size(), 3u);
  EXPECT_EQ(second.size(), 3u);
  for (double ms : first) EXPECT_GT(ms, 0.0);
}
