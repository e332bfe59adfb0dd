// The CPU executor on small graphs: oneDNN and interpreted ops mixed, views, precomputed weight
// subgraphs, latency, and the errors a bad graph or input gets.
#include "CompiledGraph.h"
#include "CpuExecutor.h"
#include "SampleExecution.h"

#include "interp/TestData.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// conv+relu -> reshape -> gemm -> erf (interpreted) -> gather (interpreted) -> softmax, with a
// weight-only Transpose feeding the Gemm.
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

void expectClose(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].type(), want[o].type());
    for (int64_t i = 0; i < want[o].numel(); ++i)
      ASSERT_NEAR(got[o].floatAt(i), want[o].floatAt(i), 1e-5 + 1e-4 * std::fabs(want[o].floatAt(i))) << "output " << o << " at " << i;
  }
}

} // namespace

TEST(CpuExecutor, MixesOneDnnAndInterpretedOpsAndMatchesTheInterpreter) {
  const Graph graph = mixedGraph();
  const TensorMap inputs = randomInputs(graph, 9);
  cpu::CpuExecutor executor("cpu:test");
  expectClose(executor.run(graph, inputs), runGraph(graph, inputs));

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  cpu::CompiledGraph compiled(engine, graph);
  EXPECT_EQ(compiled.oneDnnOps(), 3u);      // conv, gemm, softmax (the transpose is precomputed, reshape is a view)
  EXPECT_EQ(compiled.interpretedOps(), 2u); // erf, gather
  // Repeated runs on new inputs reuse the prepared weights and give fresh results.
  dnnl::stream stream(engine);
  for (uint64_t seed : {1, 2}) {
    const TensorMap fresh = randomInputs(graph, seed);
    compiled.feed(fresh);
    compiled.execute(stream);
    expectClose(compiled.outputs(), runGraph(graph, fresh));
  }
}

TEST(CpuExecutor, MeasuresAMedianLatency) {
  cpu::CpuExecutor executor("cpu:test");
  const double ms = executor.measureLatencyMs(mixedGraph(), 2, 5);
  EXPECT_GT(ms, 0.0);
  EXPECT_LT(ms, 1000.0);
  EXPECT_THROW(executor.measureLatencyMs(mixedGraph(), 0, 0), Error);
}

TEST(CpuExecutor, BadInputsAndOpaqueOpsAreErrors) {
  cpu::CpuExecutor executor("cpu:test");
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

// Token ids reach the executor as int64 (BERT's input_ids): they feed the interpreted Gather, and
// each run reads the ids it was fed.
TEST(CpuExecutor, TakesIntegerInputsForTheOpsThatReadThem) {
  // A view of the ids (as GPT-2's mask is unsqueezed) reaches the Gather relabelled.
  const Graph g = test::tokenEmbeddingGraph();
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  cpu::CompiledGraph compiled(engine, g);
  for (const Ints& tokens : {Ints{0, 3, 9, 1, 1, 7}, Ints{5, 2, 8, 0, 4, 6}}) {
    const TensorMap fed = test::tokenIds(tokens);
    compiled.feed(fed);
    compiled.execute(stream);
    test::expectMatchesInterpreter(compiled.outputs(), runGraph(g, fed), "token embedding");
  }
  // Integer ids where floats are expected are still refused by type.
  EXPECT_THROW(compiled.feed({{"ids", Tensor::zeros(f32({2, 3}))}}), Error);
}

// A split into contiguous pieces (batch 1, channels; then a row vector's columns) runs as slices of
// its input: no step, and every reader (oneDNN at an offset, the interpreter, a view, a split of a
// piece, the caller) sees the piece's values. A split along an inner axis is still copied.
TEST(CpuExecutor, ContiguousSplitsAreSlicesOfTheirInput) {
  Graph g;
  const NodeId x = g.addInput("x", f32({1, 6, 5, 5}));
  const NodeId channels = g.addNode(OpKind::Split, {{x}}, {{"axis", int64_t{1}}, {"split", Ints{2, 4}}}, "channels");
  const NodeId w = g.addWeight("w", randomTensor(f32({3, 4, 3, 3}), 7, "w"));
  const NodeId conv = g.addNode(OpKind::Conv, {{channels, 1}, {w}}, {{"pads", Ints{1, 1, 1, 1}}}, "conv_of_second_piece");
  const NodeId halves = g.addNode(OpKind::Split, {{channels, 1}}, {{"axis", int64_t{1}}, {"split", Ints{1, 3}}}, "halves");
  const NodeId erf = g.addNode(OpKind::Erf, {{halves, 1}}, {}, "erf_of_a_piece_of_a_piece");
  const NodeId flat = g.addNode(OpKind::Reshape, {{conv}}, {{"shape", Ints{1, 75}}}, "flat");
  const NodeId columns = g.addNode(OpKind::Split, {{flat}}, {{"axis", int64_t{1}}, {"split", Ints{25, 50}}}, "columns");
  const NodeId inner = g.addNode(OpKind::Split, {{x}}, {{"axis", int64_t{2}}, {"split", Ints{2, 3}}}, "rows_copied");
  g.addOutput({channels, 0}, "first_channels");
  g.addOutput({erf}, "erf");
  g.addOutput({g.addNode(OpKind::Relu, {{columns, 1}}, {}, "relu")}, "relu");
  g.addOutput({inner, 1}, "rows");

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  cpu::CompiledGraph compiled(engine, g);
  EXPECT_EQ(compiled.oneDnnOps() + compiled.interpretedOps(), 4u); // conv, erf, relu, the inner split
  for (uint64_t seed : {3, 4}) {
    const TensorMap inputs = randomInputs(g, seed);
    compiled.feed(inputs);
    compiled.execute(stream);
    expectClose(compiled.outputs(), runGraph(g, inputs));
  }
}
