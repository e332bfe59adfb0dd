// The registry of benchmark models and their export to ONNX.
#include "generator/BenchmarkModels.h"

#include "generator/Models.h"
#include "generator/tensat/TensatModels.h"
#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <array>
#include <filesystem>

namespace tessera {

namespace {

struct BenchmarkModel {
  std::string_view name;
  Graph (*corrected)();
  Graph (*tensat)();
};

// TASO's models first, then the torchvision ones that TENSAT and PACT'24 added. ResNeXt-50,
// ResNet-50, NASNet-A and NASRNN are built as TENSAT's src/*.rs builds them in both suites.
constexpr std::array<BenchmarkModel, 9> kModels{{
    {"bert", samples::buildBert, samples::buildTensatBert},
    {"resnext50", samples::buildResNeXt50, samples::buildResNeXt50},
    {"resnet50", samples::buildResNet50, samples::buildResNet50},
    {"nasnet_a", samples::buildNasNetA, samples::buildNasNetA},
    {"nasrnn", samples::buildNasRnn, samples::buildNasRnn},
    {"inception_v3", samples::buildInceptionV3, samples::buildTensatInceptionV3},
    {"squeezenet", samples::buildSqueezeNet, samples::buildTensatSqueezeNet},
    {"vgg19", samples::buildVgg19, samples::buildTensatVgg19},
    {"mobilenet_v2", samples::buildMobileNetV2, samples::buildTensatMobileNetV2},
}};

Graph build(const BenchmarkModel& model, BenchmarkSuite suite) {
  return suite == BenchmarkSuite::Tensat ? model.tensat() : model.corrected();
}

} // namespace

std::string_view benchmarkSuiteName(BenchmarkSuite suite) {
  return suite == BenchmarkSuite::Tensat ? "tensat" : "corrected";
}

BenchmarkSuite parseBenchmarkSuite(std::string_view name) {
  if (name == "corrected") return BenchmarkSuite::Corrected;
  if (name == "tensat") return BenchmarkSuite::Tensat;
  throw Error("unknown benchmark suite '" + std::string(name) + "' (known: corrected, tensat)");
}

std::vector<std::string> benchmarkModelNames() {
  std::vector<std::string> names;
  for (const BenchmarkModel& model : kModels) names.emplace_back(model.name);
  return names;
}

Graph buildBenchmarkModel(std::string_view name, BenchmarkSuite suite) {
  for (const BenchmarkModel& model : kModels)
    if (model.name == name) return build(model, suite);
  std::string known;
  for (const BenchmarkModel& model : kModels) known += (known.empty() ? "" : ", ") + std::string(model.name);
  throw Error("unknown benchmark model '" + std::string(name) + "' (known: " + known + ")");
}

void writeBenchmarkModels(const std::string& dir, BenchmarkSuite suite) {
  if (!std::filesystem::is_directory(dir)) throw errorInFile(dir, "not a directory");
  for (const BenchmarkModel& model : kModels) {
    std::string path = (std::filesystem::path(dir) / (std::string(model.name) + ".onnx")).string();
    onnx_io::exportOnnxFile(build(model, suite), path);
  }
}

} // namespace tessera
