// The CUDA backend. Without a usable GPU only the first test runs: the backend says why, and
// nothing in it crashes or starts. On a GPU: each op family's lowering against the reference
// interpreter's kernel, a graph mixing GPU and interpreted ops, the profiler behind
// MeasuredCostModel (a second run measures nothing), latency, and the errors bad graphs get.
#include "CudaDevice.h"
#include "CudaExecutor.h"
#include "CudaOp.h"
#include "CudaProfiler.h"
#include "DeviceGraph.h"
#include "SampleExecution.h"

#include "cost/AnalyticCostModel.h"
#include "cost/CostCache.h"
#include "cost/GraphCost.h"
#include "cost/MeasuredCostModel.h"
#include "interp/TestData.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>

using namespace tessera;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

const std::string& unavailable() {
  static const std::string reason = cuda::cudaUnavailableReason();
  return reason;
}

class CudaGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (!unavailable().empty()) GTEST_SKIP() << "no usable GPU: " << unavailable();
  }
};

struct Operand {
  TensorType type;
  float low = -1.0f, high = 1.0f;
};

// rtol 1e-3, with atol 1e-5 for values near zero; NaN only where the reference has NaN.
void expectClose(const std::vector<Tensor>& got, const std::vector<Tensor>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].type(), want[o].type()) << what;
    for (int64_t i = 0; i < want[o].numel(); ++i) {
      const float w = want[o].floatAt(i), g = got[o].floatAt(i);
      if (std::isnan(w)) {
        ASSERT_TRUE(std::isnan(g)) << what << " output " << o << " element " << i;
        continue;
      }
      ASSERT_NEAR(g, w, 1e-5 + 1e-3 * std::fabs(w)) << what << " output " << o << " element " << i;
    }
  }
}

// Builds the op in a graph (canonical attributes, inferred outputs), checks that it runs on the GPU
// (not interpreted), runs it twice and compares with evaluateNode on the same inputs.
void expectMatchesInterpreter(OpKind kind, const std::vector<Operand>& operands, const Attributes& attrs = {}) {
  Graph graph;
  std::vector<ValueRef> refs;
  TensorMap inputs;
  std::vector<const Tensor*> pointers;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string name = "x" + std::to_string(i);
    refs.push_back({graph.addInput(name, operands[i].type)});
    inputs[name] = randomTensor(operands[i].type, 11, name, operands[i].low, operands[i].high);
  }
  for (size_t i = 0; i < operands.size(); ++i) pointers.push_back(&inputs.at("x" + std::to_string(i)));
  const NodeId id = graph.addNode(kind, refs, attrs, "op");
  for (int port = 0; port < graph.node(id).numOutputs(); ++port) graph.addOutput({id, static_cast<uint32_t>(port)});
  const std::vector<Tensor> expected = evaluateNode(graph.node(id), pointers);
  const std::string what = std::string(opName(kind)) + " " + signatureOf(graph, id).key();

  cuda::CudaContext context;
  std::string why;
  ASSERT_NE(cuda::CudaOp::lower(context, signatureOf(graph, id), &why), nullptr) << what << ": " << why;
  cuda::DeviceGraph compiled(context, graph);
  EXPECT_EQ(compiled.gpuOps(), 1u) << what;
  EXPECT_EQ(compiled.interpretedOps(), 0u) << what;
  compiled.feed(inputs);
  compiled.execute();
  compiled.execute(); // a second run (prepared algorithm, same buffers) gives the same
  expectClose(compiled.outputs(), expected, what);
}

std::string refusal(OpKind kind, const std::vector<TensorType>& inputs, const Attributes& attrs) {
  Graph graph;
  std::vector<ValueRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i) refs.push_back({graph.addInput("x" + std::to_string(i), inputs[i])});
  const NodeId id = graph.addNode(kind, refs, attrs, "op");
  cuda::CudaContext context;
  std::string why;
  return cuda::CudaOp::lower(context, signatureOf(graph, id), &why) ? std::string() : why;
}

// conv+relu -> reshape -> gemm -> erf -> gather (interpreted) -> softmax, with a weight-only
// Transpose feeding the Gemm (computed once, before the first run).
Graph mixedGraph() {
  Graph g;
  const NodeId x = g.addInput("x", f32({2, 3, 8, 8}));
  const NodeId w = g.addWeight("w", randomTensor(f32({4, 3, 3, 3}), 3, "w"));
  const NodeId conv = g.addNode(OpKind::Conv, {{x}, {w}}, {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}}, "conv");
  const NodeId flat = g.addNode(OpKind::Reshape, {{conv}}, {{"shape", Ints{2, 256}}}, "flat");
  const NodeId wt = g.addWeight("wt", randomTensor(f32({10, 256}), 4, "wt"));
  const NodeId transposed = g.addNode(OpKind::Transpose, {{wt}}, {{"perm", Ints{1, 0}}}, "wt_t");
  const NodeId bias = g.addWeight("b", randomTensor(f32({10}), 5, "b"));
  const NodeId gemm = g.addNode(OpKind::Gemm, {{flat}, {transposed}, {bias}}, {}, "gemm");
  const NodeId erf = g.addNode(OpKind::Erf, {{gemm}}, {}, "erf");
  const NodeId indices = g.addWeight("idx", Tensor::fromInts({DType::Int64, {3}}, {4, 0, 9}));
  const NodeId gather = g.addNode(OpKind::Gather, {{erf}, {indices}}, {{"axis", int64_t{1}}}, "gather");
  const NodeId softmax = g.addNode(OpKind::Softmax, {{gather}}, {}, "softmax");
  g.addOutput({softmax}, "probabilities");
  g.addOutput({flat}, "features");
  return g;
}

std::string tempPath(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / ("tessera-cuda-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove(path);
  return path.string();
}

} // namespace

// The one test that runs everywhere: with no usable GPU the backend says why, in one of the forms
// below, and every entry point that needs the device throws tessera::Error instead of crashing.
TEST(CudaDevice, SaysWhyItIsUnavailableOrNamesTheDevice) {
  std::string reason;
  ASSERT_NO_THROW(reason = cuda::cudaUnavailableReason());
  EXPECT_EQ(cuda::cudaUnavailableReason(), reason); // asking again changes nothing
  if (!reason.empty()) {
    const bool known = reason.rfind("no usable NVIDIA driver: ", 0) == 0 || reason.rfind("no CUDA device", 0) == 0 ||
                       reason.find("has compute capability") != std::string::npos || reason.rfind("the GPU cannot be used: ", 0) == 0;
    EXPECT_TRUE(known) << reason;
    EXPECT_GT(reason.size(), std::string("no CUDA device").size() - 1) << reason;
    EXPECT_THROW(cuda::cudaDeviceKey(), Error);
    EXPECT_THROW(cuda::cudaDeviceProfile(), Error);
    EXPECT_THROW(cuda::CudaProfiler("cuda:none"), Error);
    EXPECT_THROW(cuda::CudaExecutor("cuda:none"), Error);
    return;
  }
  const std::string key = cuda::cudaDeviceKey();
  EXPECT_EQ(key.rfind("cuda:", 0), 0u) << key;
  EXPECT_NE(key.find("(sm_"), std::string::npos) << key;
  const DeviceProfile profile = cuda::cudaDeviceProfile();
  EXPECT_GT(profile.peakGflops, 1000.0);
  EXPECT_GT(profile.bandwidthGBs, 100.0);
}

TEST_F(CudaGpu, ConvolutionsWithStridesPadsDilationsGroupsBiasAndActivation) {
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 12, 12})}, {f32({16, 8, 3, 3})}}, {{"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::Conv, {{f32({2, 8, 13, 11})}, {f32({6, 8, 3, 3})}, {f32({6})}},
                           {{"strides", Ints{2, 2}}, {"pads", Ints{1, 0, 2, 1}}, {"activation", int64_t{2}}}); // asymmetric pads
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 4, 15, 15})}, {f32({4, 4, 3, 3})}},
                           {{"dilations", Ints{2, 2}}, {"pads", Ints{2, 2, 2, 2}}, {"activation", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 9, 9})}, {f32({8, 2, 3, 3})}, {f32({8})}},
                           {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{3}}}); // 4 groups
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 8, 9, 9})}, {f32({8, 1, 3, 3})}}, {{"pads", Ints{1, 1, 1, 1}}}); // depthwise
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 16, 14, 14})}, {f32({32, 16, 3, 3})}},
                           {{"strides", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}}); // TensorFlow's SAME
  expectMatchesInterpreter(OpKind::Conv, {{f32({1, 32, 7, 7})}, {f32({64, 32, 1, 1})}, {f32({64})}});
}

TEST_F(CudaGpu, MatMulBatchedAndBroadcastAndGemmTransposes) {
  expectMatchesInterpreter(OpKind::MatMul, {{f32({5, 7})}, {f32({7, 3})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({2, 4, 5, 7})}, {f32({7, 3})}}, {{"activation", int64_t{2}}}); // stacked rows
  expectMatchesInterpreter(OpKind::MatMul, {{f32({2, 4, 5, 7})}, {f32({2, 4, 7, 3})}});                         // strided batched
  expectMatchesInterpreter(OpKind::MatMul, {{f32({1, 5, 7})}, {f32({4, 7, 3})}}, {{"activation", int64_t{1}}}); // A broadcasts
  expectMatchesInterpreter(OpKind::MatMul, {{f32({3, 5, 7})}, {f32({1, 7, 2})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({2, 1, 5, 7})}, {f32({3, 7, 4})}}); // both broadcast: one GEMM per batch
  expectMatchesInterpreter(OpKind::MatMul, {{f32({7})}, {f32({7, 3})}});
  expectMatchesInterpreter(OpKind::MatMul, {{f32({4, 5, 7})}, {f32({7})}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({5, 7})}, {f32({7, 3})}, {f32({3})}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({7, 5})}, {f32({3, 7})}, {f32({5, 3})}}, {{"transA", int64_t{1}}, {"transB", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({7, 5})}, {f32({7, 3})}}, {{"transA", int64_t{1}}, {"alpha", 0.5f}});
  expectMatchesInterpreter(OpKind::Gemm, {{f32({5, 7})}, {f32({3, 7})}, {f32({5, 1})}}, {{"transB", int64_t{1}}, {"beta", 0.25f}});
}

TEST_F(CudaGpu, Normalisations) {
  expectMatchesInterpreter(OpKind::BatchNorm,
                           {{f32({2, 6, 5, 5})}, {f32({6})}, {f32({6})}, {f32({6})}, {f32({6}), 0.5f, 1.5f}}, {{"epsilon", 1e-3f}});
  expectMatchesInterpreter(OpKind::BatchNorm, {{f32({4, 6})}, {f32({6})}, {f32({6})}, {f32({6})}, {f32({6}), 0.5f, 1.5f}});
  expectMatchesInterpreter(OpKind::LayerNorm, {{f32({4, 6, 16})}, {f32({16})}, {f32({16})}});
  expectMatchesInterpreter(OpKind::LayerNorm, {{f32({4, 6, 16})}, {f32({6, 16})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::LRN, {{f32({1, 9, 5, 5})}}, {{"size", int64_t{5}}, {"alpha", 1e-3f}, {"beta", 0.75f}, {"bias", 2.0f}});
  expectMatchesInterpreter(OpKind::LRN, {{f32({2, 8, 4, 4})}}, {{"size", int64_t{4}}, {"alpha", 1e-2f}});
  expectMatchesInterpreter(OpKind::Softmax, {{f32({3, 5, 7})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Softmax, {{f32({3, 5, 7})}});
  EXPECT_NE(refusal(OpKind::LayerNorm, {f32({4, 6, 16}), f32({1, 16})}, {{"axis", int64_t{1}}}), "");
}

TEST_F(CudaGpu, ElementwiseUnaryAndBroadcastingBinary) {
  for (OpKind kind : {OpKind::Relu, OpKind::Sigmoid, OpKind::Tanh, OpKind::Exp, OpKind::Neg, OpKind::Gelu, OpKind::Erf})
    expectMatchesInterpreter(kind, {{f32({3, 17})}});
  expectMatchesInterpreter(OpKind::Sqrt, {{f32({3, 17}), 0.0f, 4.0f}});
  expectMatchesInterpreter(OpKind::Clip, {{f32({3, 17})}}, {{"min", -0.25f}, {"max", 0.5f}});
  expectMatchesInterpreter(OpKind::Clip, {{f32({3, 17}), -8.0f, 8.0f}}, {{"min", 0.0f}, {"max", 6.0f}}); // cuDNN's clipped ReLU
  expectMatchesInterpreter(OpKind::Gelu, {{f32({3, 17})}}, {{"approximate", std::string("tanh")}});
  expectMatchesInterpreter(OpKind::Add, {{f32({2, 3, 4})}, {f32({4})}});
  expectMatchesInterpreter(OpKind::Mul, {{f32({3, 1})}, {f32({2, 3, 4})}}); // the first operand broadcasts
  expectMatchesInterpreter(OpKind::Sub, {{f32({3, 1})}, {f32({1, 4})}});    // both broadcast
  expectMatchesInterpreter(OpKind::Div, {{f32({2, 3, 4})}, {f32({2, 3, 4}), 0.5f, 2.0f}});
  expectMatchesInterpreter(OpKind::Pow, {{f32({2, 3, 4}), 0.5f, 2.0f}, {f32({})}});
  expectMatchesInterpreter(OpKind::ScalarMul, {{f32({2, 3, 4})}, {f32({})}});
  expectMatchesInterpreter(OpKind::Sum, {{f32({2, 5})}, {f32({5})}, {f32({2, 1})}});
}

TEST_F(CudaGpu, PoolingAndReductions) {
  expectMatchesInterpreter(OpKind::MaxPool, {{f32({1, 3, 9, 9})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::MaxPool, {{f32({1, 3, 10, 10})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  expectMatchesInterpreter(OpKind::MaxPool, {{f32({1, 4, 14, 14})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({2, 3, 9, 9})}},
                           {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"count_include_pad", int64_t{1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({2, 3, 9, 9})}}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({1, 2, 10, 10})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  expectMatchesInterpreter(OpKind::AveragePool, {{f32({1, 4, 14, 14})}}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}});
  expectMatchesInterpreter(OpKind::GlobalAveragePool, {{f32({2, 5, 7, 6})}});
  expectMatchesInterpreter(OpKind::GlobalAveragePool, {{f32({2, 5, 7})}});
  expectMatchesInterpreter(OpKind::ReduceMean, {{f32({2, 5, 7})}}, {{"axes", Ints{-1}}});
  expectMatchesInterpreter(OpKind::ReduceMean, {{f32({2, 5, 7})}}, {{"axes", Ints{0, 2}}, {"keepdims", int64_t{0}}});
}

TEST_F(CudaGpu, LayoutOps) {
  expectMatchesInterpreter(OpKind::Concat, {{f32({2, 3, 4})}, {f32({2, 5, 4})}, {f32({2, 1, 4})}}, {{"axis", int64_t{1}}});
  expectMatchesInterpreter(OpKind::Split, {{f32({2, 9, 4})}}, {{"axis", int64_t{1}}, {"split", Ints{2, 3, 4}}});
  expectMatchesInterpreter(OpKind::Transpose, {{f32({2, 3, 4, 5})}}, {{"perm", Ints{0, 2, 3, 1}}});
  expectMatchesInterpreter(OpKind::Slice, {{f32({6, 8})}}, {{"starts", Ints{1, -6}}, {"ends", Ints{5, 100}}, {"axes", Ints{0, 1}}, {"steps", Ints{2, 1}}});
  expectMatchesInterpreter(OpKind::Slice, {{f32({6, 8})}}, {{"starts", Ints{-1}}, {"ends", Ints{-100}}, {"axes", Ints{1}}, {"steps", Ints{-3}}});
  expectMatchesInterpreter(OpKind::Pad, {{f32({2, 3, 4})}}, {{"pads", Ints{0, 1, -1, 0, 2, 2}}, {"value", 0.5f}});
  EXPECT_NE(refusal(OpKind::Gather, {f32({10, 4}), {DType::Int64, {3}}}, {}), "");
  EXPECT_NE(refusal(OpKind::Pad, {f32({2, 3})}, {{"pads", Ints{1, 1, 1, 1}}, {"mode", std::string("reflect")}}), "");
}

TEST_F(CudaGpu, ExecutorMixesGpuAndInterpretedOpsAndMatchesTheInterpreter) {
  const Graph graph = mixedGraph();
  const TensorMap inputs = randomInputs(graph, 9);
  cuda::CudaExecutor executor(cuda::cudaDeviceKey());
  expectClose(executor.run(graph, inputs), runGraph(graph, inputs), "mixed graph");

  cuda::CudaContext context;
  cuda::DeviceGraph compiled(context, graph);
  EXPECT_EQ(compiled.gpuOps(), 4u);         // conv, gemm, erf, softmax (the transpose is precomputed, reshape is a view)
  EXPECT_EQ(compiled.interpretedOps(), 1u); // gather
  for (uint64_t seed : {1, 2}) {
    const TensorMap fresh = randomInputs(graph, seed);
    compiled.feed(fresh);
    compiled.execute();
    expectClose(compiled.outputs(), runGraph(graph, fresh), "mixed graph, seed " + std::to_string(seed));
  }
}

// Integer inputs (token ids) stay on the host: a view of them reaches the interpreted Gather, whose
// floats go on to the GPU, and an integer output comes back from the host.
TEST_F(CudaGpu, TakesIntegerInputsForTheOpsThatReadThem) {
  const Graph g = test::tokenEmbeddingGraph();
  cuda::CudaContext context;
  cuda::DeviceGraph compiled(context, g);
  EXPECT_EQ(compiled.gpuOps(), 1u);         // relu
  EXPECT_EQ(compiled.interpretedOps(), 1u); // gather
  for (const Ints& tokens : {Ints{0, 3, 9, 1, 1, 7}, Ints{5, 2, 8, 0, 4, 6}}) {
    const TensorMap fed = test::tokenIds(tokens);
    compiled.feed(fed);
    compiled.execute();
    const std::vector<Tensor> got = compiled.outputs();
    test::expectMatchesInterpreter(got, runGraph(g, fed), "token embedding");
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(std::vector<int64_t>(got[1].ints().begin(), got[1].ints().end()), tokens);
  }
  // Floats where the ids are expected are refused by type.
  EXPECT_THROW(compiled.feed({{"ids", Tensor::zeros(f32({2, 3}))}}), Error);
}

TEST_F(CudaGpu, LatencyIsAPositiveFiniteMedian) {
  cuda::CudaExecutor executor(cuda::cudaDeviceKey());
  const double ms = executor.measureLatencyMs(mixedGraph(), 10, 20);
  EXPECT_TRUE(std::isfinite(ms));
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 1000.0);
  EXPECT_THROW(executor.measureLatencyMs(mixedGraph(), 0, 0), Error);
}

TEST_F(CudaGpu, BadInputsAndOpaqueOpsAreErrors) {
  cuda::CudaExecutor executor(cuda::cudaDeviceKey());
  const Graph graph = mixedGraph();
  TensorMap wrong;
  wrong["x"] = Tensor::zeros(f32({1, 3, 8, 8}));
  try {
    executor.run(graph, wrong);
    FAIL() << "a mistyped input must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(executor.run(graph, {}), Error);

  Graph opaque;
  const NodeId x = opaque.addInput("x", f32({4}));
  const NodeId op = opaque.addOpaque({"com.example", "Mystery", {}}, {{x}}, {f32({4})}, "mystery");
  opaque.addOutput({op});
  try {
    executor.run(opaque, {{"x", Tensor::zeros(f32({4}))}});
    FAIL() << "an opaque op cannot run";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mystery"), std::string::npos) << e.what();
  }
}

TEST_F(CudaGpu, ProfilerMeasuresOnceAndTheCacheAnswersTheSecondRun) {
  const OpSignature conv{OpKind::Conv, {f32({1, 16, 28, 28}), f32({16, 16, 3, 3})}, {f32({1, 16, 26, 26})}, {}};
  const OpSignature matmul{OpKind::MatMul, {f32({64, 128}), f32({128, 32})}, {f32({64, 32})}, {}};
  const OpSignature gather{OpKind::Gather, {f32({10, 4}), {DType::Int64, {3}}}, {f32({3, 4})}, {}};
  const std::string path = tempPath("cache.sqlite");
  double first = 0;
  {
    MeasuredCostModel model("measured:cuda", std::make_unique<cuda::CudaProfiler>(cuda::cudaDeviceKey()), std::make_shared<CostCache>(path),
                            makeCostModel("analytic:h200"));
    first = model.costMs(conv);
    EXPECT_GT(first, 0.0);
    EXPECT_LT(first, 1000.0);
    EXPECT_GT(model.costMs(matmul), 0.0);
    EXPECT_EQ(model.costMs(conv), first); // answered from memory, not measured again
    EXPECT_GT(model.costMs(gather), 0.0);  // estimated
    EXPECT_EQ(model.stats().measured, 2u);
    EXPECT_EQ(model.stats().estimated, 1u);
    EXPECT_EQ(model.stats().deviceFailure, "");
  }
  MeasuredCostModel again("measured:cuda", std::make_unique<cuda::CudaProfiler>(cuda::cudaDeviceKey()), std::make_shared<CostCache>(path),
                          makeCostModel("analytic:h200"));
  EXPECT_EQ(again.costMs(conv), first);
  again.costMs(matmul);
  EXPECT_EQ(again.stats().measured, 0u);
  EXPECT_EQ(again.stats().cacheHits, 2u);
  std::filesystem::remove(path);

  cuda::CudaProfiler profiler(cuda::cudaDeviceKey());
  EXPECT_FALSE(profiler.canMeasure(gather));
  EXPECT_FALSE(profiler.canMeasure({OpKind::Relu, {{DType::Float16, {8}}}, {{DType::Float16, {8}}}, {}}));
  EXPECT_TRUE(profiler.canMeasure({OpKind::Relu, {f32({8})}, {f32({8})}, {}}));
}
