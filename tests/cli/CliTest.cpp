// tessera-cli as a user meets it: commands, reports, and clear one-line errors on bad input.
#include "CliRunner.h"

#include "ir/Graph.h"
#include "onnx/OnnxExport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>

using namespace tessera;
using tessera::test::makeTempDir;
using tessera::test::runCli;
using tessera::test::readJson;
using tessera::test::expectCleanError;

namespace {

const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";

std::string writeBytes(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// y = relu(x @ w1) @ w2, or with w2 transposed-in-place when `wrong` (same names and shapes).
Graph twoLayerModel(bool wrong) {
  Graph g;
  NodeId x = g.addInput("x", f32({2, 8}));
  NodeId w1 = g.addWeight("w1", Tensor::splat(f32({8, 8}), 0.1));
  NodeId w2 = g.addWeight("w2", Tensor::splat(f32({8, 8}), 0.1));
  NodeId h = g.addNode(OpKind::Relu, {{g.addNode(OpKind::MatMul, {{x}, {w1}})}});
  ValueRef second = {w2};
  if (wrong) second = {g.addNode(OpKind::Transpose, {{w2}}, {{"perm", std::vector<int64_t>{1, 0}}})};
  g.addOutput({g.addNode(OpKind::MatMul, {{h}, second})}, "y");
  return g;
}

} // namespace

TEST(Cli, WithoutCommandPrintsUsageAndFails) {
  auto result = runCli("");
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.output.find("info"), std::string::npos) << result.output;
}

TEST(Cli, InfoListsOpsAndWritesJson) {
  std::string dir = makeTempDir("info");
  auto result = runCli("info " + kSamples + "/squeezenet.onnx --json " + dir + "/info.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("Conv"), std::string::npos) << result.output;
  nlohmann::json report = readJson(dir + "/info.json");
  EXPECT_GT(report["ops"].get<int>(), 20);
  EXPECT_GT(report["ops_by_kind"]["Conv"].get<int>(), 20);
  EXPECT_GT(report["parameters"].get<int64_t>(), 100000);
  EXPECT_EQ(report["inputs"].size(), 1u);
  EXPECT_EQ(report["opaque_ops"].size(), 0u);
}

TEST(Cli, BadModelFilesGiveOneLineErrorsNamingTheFile) {
  std::string dir = makeTempDir("bad");
  expectCleanError(runCli("info " + dir + "/missing.onnx"), "missing.onnx");
  expectCleanError(runCli("info " + writeBytes(dir, "empty.onnx", "")), "empty.onnx");

  std::mt19937 rng(7);
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  expectCleanError(runCli("info " + writeBytes(dir, "noise.onnx", noise)), "noise.onnx");

  std::ifstream in(kSamples + "/resnet50.onnx", std::ios::binary);
  std::string model((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(model.size(), 1000u);
  expectCleanError(runCli("info " + writeBytes(dir, "truncated.onnx", model.substr(0, model.size() / 2))), "truncated.onnx");
  expectCleanError(runCli("run " + writeBytes(dir, "truncated2.onnx", model.substr(0, 100)) + " --dummy-input --output-dir " + dir),
                   "truncated2.onnx");
}

TEST(Cli, RunFeedsIntegerInputsIndicesInRange) {
  std::string dir = makeTempDir("intinput");
  Graph g;
  NodeId table = g.addWeight("table", Tensor::splat(f32({10, 4}), 1.0));
  NodeId ids = g.addInput("ids", {DType::Int64, {30}});
  g.addOutput({g.addNode(OpKind::Gather, {{table}, {ids}})}, "rows");
  onnx_io::exportOnnxFile(g, dir + "/gather.onnx");
  // Dummy ids 0..29 would leave the table; they wrap into its 10 rows.
  auto result = runCli("run " + dir + "/gather.onnx --dummy-input --output-dir " + dir);
  EXPECT_EQ(result.exitCode, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/output_0.pb"));
}

TEST(Cli, RunNeedsAnInputSource) {
  auto result = runCli("run " + kSamples + "/squeezenet.onnx --output-dir /tmp");
  EXPECT_NE(result.exitCode, 0);
  EXPECT_NE(result.output.find("--dummy-input"), std::string::npos) << result.output;
}

TEST(Cli, VerifyAcceptsEquivalentAndCatchesTransposedWeights) {
  std::string dir = makeTempDir("verify");
  onnx_io::exportOnnxFile(twoLayerModel(false), dir + "/a.onnx");
  onnx_io::exportOnnxFile(twoLayerModel(false), dir + "/b.onnx");
  onnx_io::exportOnnxFile(twoLayerModel(true), dir + "/wrong.onnx");

  auto same = runCli("verify " + dir + "/a.onnx " + dir + "/b.onnx --json " + dir + "/ok.json");
  EXPECT_EQ(same.exitCode, 0) << same.output;
  EXPECT_TRUE(readJson(dir + "/ok.json")["verified"].get<bool>());
  EXPECT_EQ(readJson(dir + "/ok.json")["verify_metric"].get<std::string>().rfind("noise-scaled: ", 0), 0u);
  auto elementwise = runCli("verify " + dir + "/a.onnx " + dir + "/b.onnx --metric elementwise --json " + dir + "/el.json");
  EXPECT_EQ(elementwise.exitCode, 0) << elementwise.output;
  EXPECT_EQ(readJson(dir + "/el.json")["verify_metric"].get<std::string>().rfind("elementwise: ", 0), 0u);
  EXPECT_NE(runCli("verify " + dir + "/a.onnx " + dir + "/b.onnx --metric loose").exitCode, 0);

  // Splat weights are symmetric, so only randomised weights expose the transpose.
  auto wrong = runCli("verify " + dir + "/a.onnx " + dir + "/wrong.onnx --trials 2 --json " + dir + "/bad.json");
  EXPECT_EQ(wrong.exitCode, 1) << wrong.output;
  EXPECT_NE(wrong.output.find("NOT equivalent"), std::string::npos) << wrong.output;
  EXPECT_NE(wrong.output.find("element"), std::string::npos) << wrong.output;
  EXPECT_FALSE(readJson(dir + "/bad.json")["verified"].get<bool>());

  auto ownWeights = runCli("verify " + dir + "/a.onnx " + dir + "/wrong.onnx --own-weights");
  EXPECT_EQ(ownWeights.exitCode, 0) << ownWeights.output;
}

TEST(Cli, SamplesWritesTheNineBenchmarkModels) {
  std::string dir = makeTempDir("samples");
  auto result = runCli("samples --out " + dir);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  for (const char* name : {"bert", "resnext50", "resnet50", "nasnet_a", "nasrnn", "inception_v3", "squeezenet", "vgg19",
                           "mobilenet_v2"}) {
    std::string path = dir + "/" + name + ".onnx";
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    EXPECT_LT(std::filesystem::file_size(path), 1u << 20) << path;
    // The checked-in samples are what the generator writes.
    std::ifstream fresh(path, std::ios::binary), checkedIn(kSamples + "/" + name + ".onnx", std::ios::binary);
    std::string a((std::istreambuf_iterator<char>(fresh)), {}), b((std::istreambuf_iterator<char>(checkedIn)), {});
    EXPECT_EQ(a, b) << name << ": samples/ is stale; regenerate with tessera-cli samples --out samples";
  }
}

TEST(Cli, OptimizeWritesTheReportKeysAndAVerifiedModel) {
  std::string dir = makeTempDir("optimize");
  auto result = runCli("optimize " + kSamples + "/squeezenet.onnx --strategy eqsat --out " + dir + "/opt.onnx --json " + dir +
                       "/report.json --egraph-json " + dir + "/egraph.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  nlohmann::json report = readJson(dir + "/report.json");
  for (const char* key : {"original_cost_ms", "optimized_cost_ms", "speedup_pct", "optimize_seconds", "stop_reason", "enodes",
                          "eclasses", "verified", "max_abs_err", "rules_applied"})
    EXPECT_TRUE(report.contains(key)) << key;
  EXPECT_GT(report["speedup_pct"].get<double>(), 0.0);
  EXPECT_TRUE(report["verified"].get<bool>());
  EXPECT_LT(report["optimized_cost_ms"].get<double>(), report["original_cost_ms"].get<double>());
  EXPECT_FALSE(report["rules_applied"].empty());
  // The written model is what was verified: check it independently.
  auto verify = runCli("verify " + kSamples + "/squeezenet.onnx " + dir + "/opt.onnx --trials 1");
  EXPECT_EQ(verify.exitCode, 0) << verify.output;
  // The dumped e-graph is readable by `extract`.
  auto extract = runCli("extract " + dir + "/egraph.json --method dag --json " + dir + "/extract.json");
  EXPECT_EQ(extract.exitCode, 0) << extract.output;
  EXPECT_TRUE(readJson(dir + "/extract.json").contains("dag_cost"));
}

TEST(Cli, OptimizeRejectsUnknownStrategiesAndCosts) {
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --strategy annealing"), "annealing");
  expectCleanError(runCli("optimize " + kSamples + "/squeezenet.onnx --cost analytic:tpu"), "tpu");
}

TEST(Cli, RulesCheckReportsEveryRule) {
  std::string dir = makeTempDir("rules");
  std::string pack = writeBytes(dir, "small.rules",
                                "comm [elementwise]: (ewadd ?a ?b) => (ewadd ?b ?a)\n"
                                "wrong: (relu (ewadd ?a ?b)) => (ewadd (relu ?a) (relu ?b))\n");
  auto result = runCli("rules check " + pack + " --json " + dir + "/rules.json");
  EXPECT_EQ(result.exitCode, 1) << result.output; // one rule fails
  nlohmann::json report = readJson(dir + "/rules.json");
  ASSERT_EQ(report.size(), 2u);
  EXPECT_EQ(report[0]["name"], "comm");
  EXPECT_EQ(report[0]["labels"], nlohmann::json::array({"elementwise"}));
  EXPECT_TRUE(report[0]["verified"].get<bool>());
  EXPECT_FALSE(report[1]["verified"].get<bool>());

  std::string broken = writeBytes(dir, "broken.rules", "ok: (relu ?x) => ?x\nbad: (relu ?x) => (frob ?x)\n");
  auto error = runCli("rules check " + broken);
  expectCleanError(error, "broken.rules: line 2, column 19: unknown op 'frob'");
}
