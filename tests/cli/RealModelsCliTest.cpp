// The real model-zoo networks in ../shared/models and the nine bundled samples, through the CLI:
// `run --dummy-input` reproduces the expected outputs, and export(import(m)) computes the same function.
#include "CliRunner.h"

#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "onnx/TensorProtoIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace tessera;
using tessera::test::makeTempDir;
using tessera::test::runCli;

namespace {

const std::string kModels = std::string(TESSERA_SHARED_DIR) + "/models";
const std::string kSamples = std::string(TESSERA_SOURCE_DIR) + "/samples";

std::vector<std::string> sharedModels() {
  std::vector<std::string> names;
  // A missing folder lists nothing (SharedModels.AreThere then fails and says where it looked);
  // throwing here would abort test discovery and with it the build.
  std::error_code missing;
  for (const auto& entry : std::filesystem::directory_iterator(kModels, missing))
    if (entry.path().extension() == ".onnx" &&
        std::filesystem::exists(kModels + "/" + entry.path().stem().string() + "_output_0.pb")) // models with expected outputs
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

const std::vector<std::string> kSampleNames = {"bert",         "resnext50",  "resnet50", "nasnet_a",    "nasrnn",
                                               "inception_v3", "squeezenet", "vgg19",    "mobilenet_v2"};

class SharedModel : public testing::TestWithParam<std::string> {};
class Sample : public testing::TestWithParam<std::string> {};

} // namespace

TEST(SharedModels, AreThere) { EXPECT_GE(sharedModels().size(), 4u) << kModels; }

TEST_P(SharedModel, DummyInputReproducesExpectedOutput) {
  std::string dir = makeTempDir("zoo");
  auto result = runCli("run " + kModels + "/" + GetParam() + ".onnx --dummy-input --output-dir " + dir);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  Tensor actual = onnx_io::readTensorProtoFile(dir + "/output_0.pb");
  Tensor expected = onnx_io::readTensorProtoFile(kModels + "/" + GetParam() + "_output_0.pb");
  ASSERT_EQ(actual.shape(), expected.shape());
  int64_t bad = 0;
  double worst = 0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double a = actual.valueAt(i), e = expected.valueAt(i);
    double err = std::abs(a - e);
    worst = std::max(worst, err);
    if (!(err <= 1e-7 + 1e-3 * std::abs(e))) ++bad;
  }
  EXPECT_EQ(bad, 0) << "worst abs error " << worst;
}

TEST_P(SharedModel, ExportOfImportComputesTheSameFunction) {
  std::string dir = makeTempDir("zoo-roundtrip");
  std::string original = kModels + "/" + GetParam() + ".onnx";
  onnx_io::exportOnnxFile(onnx_io::importOnnxFile(original), dir + "/exported.onnx");
  auto result = runCli("verify " + original + " " + dir + "/exported.onnx --trials 1");
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

INSTANTIATE_TEST_SUITE_P(Zoo, SharedModel, testing::ValuesIn(sharedModels()), [](const auto& info) { return info.param; });

TEST_P(Sample, InfoRunAndRoundTrip) {
  std::string model = kSamples + "/" + GetParam() + ".onnx";
  std::string dir = makeTempDir("sample");
  auto info = runCli("info " + model);
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_NE(info.output.find("opaque     0"), std::string::npos) << info.output;

  auto run = runCli("run " + model + " --dummy-input --output-dir " + dir);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/output_0.pb"));

  onnx_io::exportOnnxFile(onnx_io::importOnnxFile(model), dir + "/exported.onnx");
  auto verify = runCli("verify " + model + " " + dir + "/exported.onnx --trials 1");
  EXPECT_EQ(verify.exitCode, 0) << verify.output;
}

INSTANTIATE_TEST_SUITE_P(Benchmarks, Sample, testing::ValuesIn(kSampleNames), [](const auto& info) { return info.param; });
