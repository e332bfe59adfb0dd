// Exports that verify: each kind of weight the rewriter derives (a folded batchnorm, merged
// groups, an enlarged kernel, concatenated weights) is written as ops over the original named
// weights, so `verify ORIG OPT` passes on what `optimize --out` wrote, and optimize's own report
// is about that file.
#include "CliRunner.h"

#include "cost/GraphCost.h"
#include "ir/Graph.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace tessera;
using tessera::test::makeTempDir;
using tessera::test::runCli;
using tessera::test::readJson;

namespace {

using Ints = std::vector<int64_t>;
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
Tensor fill(Shape shape, double value) { return Tensor::splat(f32(std::move(shape)), value); }

// conv -> BatchNorm -> relu, twice.
Graph convBatchNorm() {
  Graph g;
  ValueRef value{g.addInput("x", f32({1, 4, 8, 8}))};
  for (int layer = 0; layer < 2; ++layer) {
    const std::string p = "l" + std::to_string(layer) + "_";
    ValueRef w{g.addWeight(p + "w", fill({4, 4, 3, 3}, 0.1))};
    ValueRef conv{g.addNode(OpKind::Conv, {value, w}, {{"pads", Ints{1, 1, 1, 1}}})};
    ValueRef bn{g.addNode(OpKind::BatchNorm,
                          {conv, {g.addWeight(p + "scale", fill({4}, 1.0))}, {g.addWeight(p + "bias", fill({4}, 0.0))},
                           {g.addWeight(p + "mean", fill({4}, 0.0))}, {g.addWeight(p + "var", fill({4}, 1.0))}},
                          {{"epsilon", 1e-5f}})};
    value = {g.addNode(OpKind::Relu, {bn})};
  }
  g.addOutput(value, "y");
  return g;
}

// A grouped conv with many groups (as in ResNeXt and MobileNet), which the merge rules regroup.
Graph groupedConv() {
  Graph g;
  ValueRef x{g.addInput("x", f32({1, 32, 14, 14}))};
  ValueRef w{g.addWeight("gw", fill({32, 4, 3, 3}, 0.1))};
  ValueRef conv{g.addNode(OpKind::Conv, {x, w}, {{"pads", Ints{1, 1, 1, 1}}})};
  g.addOutput(conv, "y");
  return g;
}

// Two convs of one input with different kernels (Inception-style branches): enlarge + concat.
Graph branches() {
  Graph g;
  ValueRef x{g.addInput("x", f32({1, 16, 14, 14}))};
  ValueRef a{g.addNode(OpKind::Conv, {x, {g.addWeight("w1", fill({16, 16, 1, 1}, 0.1))}}, {{"activation", int64_t{2}}})};
  ValueRef b{g.addNode(OpKind::Conv, {x, {g.addWeight("w3", fill({16, 16, 3, 3}, 0.1))}},
                       {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}})};
  g.addOutput({g.addNode(OpKind::Concat, {a, b}, {{"axis", int64_t{1}}})}, "y");
  return g;
}

// A cost table (table:FILE) that prices every conv of `graph` at 10 ms, so that extraction
// prefers the rewritten convs (priced by the analytic fallback) whatever the analytic model
// thinks of the originals: the test is about exporting the rewritten weights, not about costs.
std::string expensiveConvTable(const Graph& graph, const std::string& path) {
  nlohmann::json costs = nlohmann::json::object();
  for (NodeId id = 0; id < graph.size(); ++id)
    if (graph.node(id).kind == OpKind::Conv) costs[signatureOf(graph, id).key()] = 10.0;
  nlohmann::json table{{"format", "tessera-cost-table"}, {"schema_version", 1}, {"device", "test"}, {"costs", costs}};
  std::ofstream(path) << table.dump();
  return path;
}

size_t countKind(const Graph& graph, OpKind kind) {
  size_t n = 0;
  for (const Node& node : graph.nodes()) n += node.kind == kind;
  return n;
}

struct Case {
  const char* name;
  Graph (*build)();
  const char* rule;                    // the rule whose derived weight must be in the file
  std::vector<OpKind> opsOverWeights;  // what that weight reads back as
};

} // namespace

TEST(ExportCli, EveryKindOfDerivedWeightIsWrittenAsOpsAndVerifies) {
  const Case cases[] = {
      {"batchnorm", convBatchNorm, "fuse-conv-batchnorm", {OpKind::Sqrt, OpKind::Div}},
      {"grouped", groupedConv, "predef-merge-gconv-s1-a0", {OpKind::Pad, OpKind::Slice, OpKind::Transpose}},
      {"branches", branches, "predef-enlarge-concat-a2", {OpKind::Pad, OpKind::Concat}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string dir = makeTempDir(std::string("export-") + c.name);
    const std::string original = dir + "/original.onnx", optimized = dir + "/optimized.onnx";
    const Graph graph = c.build();
    onnx_io::exportOnnxFile(graph, original);
    const std::string table = expensiveConvTable(onnx_io::importOnnxFile(original), dir + "/costs.json");
    auto run = runCli("optimize " + original + " --strategy eqsat --cost table:" + table + " --out " + optimized + " --json " + dir +
                      "/report.json");
    ASSERT_EQ(run.exitCode, 0) << run.output;
    nlohmann::json report = readJson(dir + "/report.json");
    EXPECT_TRUE(report["verified"].get<bool>());
    EXPECT_EQ(report["verified_file"], optimized) << "optimize verifies the file it wrote";
    ASSERT_TRUE(report["rules_applied"].contains(c.rule)) << report["rules_applied"].dump();

    Graph written = onnx_io::importOnnxFile(optimized);
    for (OpKind kind : c.opsOverWeights) EXPECT_GT(countKind(written, kind), 0u) << opName(kind) << " in " << optimized;
    auto verify = runCli("verify " + original + " " + optimized + " --trials 2");
    EXPECT_EQ(verify.exitCode, 0) << verify.output;
  }
}
