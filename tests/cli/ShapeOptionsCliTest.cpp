// --input-shape and --dim through tessera-cli: a real model with symbolic dimensions is refused
// without them (naming each), opens with them, `info` reports what they were bound to, bad values
// are one clear error each with nothing written, and `optimize --out` keeps the dimensions the
// optimised graph does not depend on and pins, with the reason, those it does.
#include "CliRunner.h"

#include "../onnx/ModelBuilder.h"
#include "onnx/TensorProtoIO.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace tessera;
using tessera::test::expectCleanError;
using tessera::test::makeTempDir;
using tessera::test::readJson;
using tessera::test::runCli;

namespace {

// ppocr_mobile_v2_cls: x [p2o.DynamicDimension.0, 3, .1, .2], the PaddleOCR text-direction classifier.
const std::string kClassifier = std::string(TESSERA_SOURCE_DIR) + "/samples/real/ppocr_mobile_v2_cls.onnx";
const std::string kClassifierDims = " --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=48 --dim p2o.DynamicDimension.2=192";

// x[N, 6] -> Reshape [0, 2, 3] -> y, z[B, 4] -> Relu -> w: import bakes N into the reshape.
std::string writeBakedBatchModel(const std::string& dir) {
  tessera::test::ModelBuilder b(13);
  b.input("x", {-1, 6}).input("z", {-1, 4});
  (*b.model.mutable_graph()->mutable_input(1)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())[0].set_dim_param("B");
  b.ints("target", {0, 2, 3});
  b.node("Reshape", {"x", "target"}, {"y"});
  b.node("Relu", {"z"}, {"w"});
  b.output("y").output("w");
  const std::string path = dir + "/baked.onnx";
  std::ofstream(path, std::ios::binary) << b.bytes();
  return path;
}

} // namespace

TEST(ShapeOptionsCli, ARealModelWithoutSizesIsAnErrorNamingEachDimension) {
  auto result = runCli("info " + kClassifier);
  expectCleanError(result, "ppocr_mobile_v2_cls.onnx");
  EXPECT_NE(result.output.find("axis 0 'p2o.DynamicDimension.0'"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("axis 3 'p2o.DynamicDimension.2'"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("--dim NAME=VALUE"), std::string::npos) << result.output;
}

TEST(ShapeOptionsCli, InfoShowsTheBoundDimensionsInTextAndJson) {
  const std::string dir = makeTempDir("shape-info");
  for (const std::string& options : {kClassifierDims, std::string(" --input-shape x=1x3x48x192")}) {
    auto result = runCli("info " + kClassifier + options + " --json " + dir + "/info.json");
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("free dim   input  x axis 2 'p2o.DynamicDimension.1' = 48"), std::string::npos) << result.output;
    nlohmann::json report = readJson(dir + "/info.json");
    EXPECT_EQ(report["inputs"][0]["shape"], nlohmann::json({1, 3, 48, 192}));
    EXPECT_EQ(report["outputs"][0]["shape"], nlohmann::json({1, 2}));
    ASSERT_GE(report["free_axes"].size(), 3u);
    EXPECT_EQ(report["free_axes"][2]["dim_param"], "p2o.DynamicDimension.2");
    EXPECT_EQ(report["free_axes"][2]["size"], 192);
    EXPECT_GT(report["ops"].get<int>(), 50);
  }
}

TEST(ShapeOptionsCli, BadSizesAreOneClearErrorEachAndWriteNothing) {
  const std::string dir = makeTempDir("shape-bad");
  const std::string json = dir + "/info.json";
  struct Case {
    std::string options, mentions;
  };
  for (const Case& c : std::vector<Case>{
           {" --input-shape images=1x3x48x192", "the model has no graph input 'images' (its inputs: x)"},
           {" --input-shape x=1x3x48", "gives rank 3 but input 'x'"},
           {kClassifierDims + " --dim batch=1", "--dim batch=1: no input of the model has a symbolic dimension 'batch'"},
           {" --dim p2o.DynamicDimension.0=two", "'two' is not a positive integer size"},
       }) {
    auto result = runCli("info " + kClassifier + c.options + " --json " + json);
    expectCleanError(result, c.mentions);
    EXPECT_FALSE(std::filesystem::exists(json)) << c.options;
  }
  // The same options on other commands that load a model (one parser serves them all).
  expectCleanError(runCli("optimize " + kClassifier + " --strategy greedy --out " + dir + "/o.onnx"), "--dim NAME=VALUE");
  EXPECT_FALSE(std::filesystem::exists(dir + "/o.onnx"));
  expectCleanError(runCli("bench --models " + kClassifier + " --strategies greedy --dim nothing=1"),
                   "none of the models has a symbolic dimension 'nothing'");
}

// Two models whose inputs share a name but not a size (the PPOCR recogniser and classifier both
// take x): a binding scoped to one model ("MODEL:NAME=...") applies to that model alone and wins
// over an unscoped one, so one command (rl train, bench) can take both at their own shapes.
TEST(ShapeOptionsCli, ABindingScopedToAModelAppliesToThatModelOnly) {
  const std::string dir = makeTempDir("shape-scoped");
  const std::string recogniser = std::string(TESSERA_SOURCE_DIR) + "/samples/real/ppocr_v4_rec.onnx";
  const std::string bench = " --strategies greedy --cost analytic:h200 --no-verify --json ";
  auto scoped = runCli("bench --models " + recogniser + " " + kClassifier + bench + dir + "/scoped.json" +
                       " --input-shape x=1x3x48x192 --input-shape ppocr_v4_rec:x=1x3x48x320");
  ASSERT_EQ(scoped.exitCode, 0) << scoped.output;
  // The suite's documented shapes: the recogniser at 48x320, the classifier at 48x192.
  auto documented = runCli("bench --suite real --models ppocr_v4_rec ppocr_mobile_v2_cls" + bench + dir + "/documented.json");
  ASSERT_EQ(documented.exitCode, 0) << documented.output;
  const nlohmann::json a = readJson(dir + "/scoped.json"), b = readJson(dir + "/documented.json");
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_DOUBLE_EQ(a[i]["original_cost_ms"].get<double>(), b[i]["original_cost_ms"].get<double>()) << i;
  // Without the scope, the recogniser takes the classifier's size.
  auto unscoped = runCli("bench --models " + recogniser + bench + dir + "/unscoped.json --input-shape x=1x3x48x192");
  ASSERT_EQ(unscoped.exitCode, 0) << unscoped.output;
  EXPECT_LT(readJson(dir + "/unscoped.json")[0]["original_cost_ms"].get<double>(), a[0]["original_cost_ms"].get<double>());

  // A scoped name must fit its own model, named in the error.
  expectCleanError(runCli("bench --models " + recogniser + " " + kClassifier + bench + dir + "/bad.json" +
                          " --input-shape x=1x3x48x192 --input-shape ppocr_v4_rec:images=1x3x48x320"),
                   "ppocr_v4_rec.onnx has no graph input 'images'");
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.json"));
}

TEST(ShapeOptionsCli, OptimizeKeepsTheDimensionsItCanAndPinsTheOthersWithAReason) {
  const std::string dir = makeTempDir("shape-optimize");
  const std::string model = writeBakedBatchModel(dir);
  auto result = runCli("optimize " + model + " --strategy greedy --dim N=1 --dim B=3 --out " + dir + "/opt.onnx --json " + dir + "/r.json");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("warning: N pinned at 1"), std::string::npos) << result.output;
  nlohmann::json report = readJson(dir + "/r.json");
  EXPECT_TRUE(report["verified"].get<bool>());
  ASSERT_EQ(report["pinned_dims"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["pinned_dims"][0]["name"], "N");
  EXPECT_NE(report["pinned_dims"][0]["reason"].get<std::string>().find("import already fixes it"), std::string::npos);
  ASSERT_EQ(report["free_dims"].size(), 2u);
  EXPECT_TRUE(report["free_dims"][1]["open"].get<bool>()) << report.dump(2);

  // The written model still takes any B (and N no more); verify binds each model what it has.
  auto info = runCli("info " + dir + "/opt.onnx --dim B=5 --json " + dir + "/i.json");
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_EQ(readJson(dir + "/i.json")["inputs"][1]["shape"], nlohmann::json({5, 4}));
  auto verify = runCli("verify " + model + " " + dir + "/opt.onnx --dim N=1 --dim B=5");
  EXPECT_EQ(verify.exitCode, 0) << verify.output;
  expectCleanError(runCli("info " + dir + "/opt.onnx --dim N=1 --dim B=5"), "no input of the model has a symbolic dimension 'N'");
}

TEST(ShapeOptionsCli, RunTakesAnOpenInputsShapeFromItsInputFile) {
  const std::string dir = makeTempDir("shape-run");
  const std::string model = writeBakedBatchModel(dir);
  onnx_io::writeTensorProtoFile(Tensor::fromFloats({2, 6}, std::vector<float>(12, 0.5f)), "x", dir + "/x.pb");
  onnx_io::writeTensorProtoFile(Tensor::fromFloats({5, 4}, std::vector<float>(20, -1.0f)), "z", dir + "/z.pb");
  auto result = runCli("run " + model + " --input x=" + dir + "/x.pb --input z=" + dir + "/z.pb --output-dir " + dir + "/out");
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(onnx_io::readTensorProtoFile(dir + "/out/output_0.pb").shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(onnx_io::readTensorProtoFile(dir + "/out/output_1.pb").shape(), (Shape{5, 4}));
}
