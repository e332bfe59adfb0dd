// The registry of benchmark models and their export to ONNX.
#include "generator/BenchmarkModels.h"

#include "generator/Models.h"
#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <array>
#include <filesystem>

namespace tessera {

namespace {

struct BenchmarkModel {
  std::string_view name;
  Graph (*build)();
};

// TASO's models first, then the torchvision ones that TENSAT and PACT'24 added.
constexpr std::array<BenchmarkModel, 9> kModels{{
    {"bert", samples::buildBert},
    {"resnext50", samples::buildResNeXt50},
    {"resnet50", samples::buildResNet50},
    {"nasnet_a", samples::buildNasNetA},
    {"nasrnn", samples::buildNasRnn},
    {"inception_v3", samples::buildInceptionV3},
    {"squeezenet", samples::buildSqueezeNet},
    {"vgg19", samples::buildVgg19},
    {"mobilenet_v2", samples::buildMobileNetV2},
}};

} // namespace

std::vector<std::string> benchmarkModelNames() {
  std::vector<std::string> names;
  for (const BenchmarkModel& model : kModels) names.emplace_back(model.name);
  return names;
}

Graph buildBenchmarkModel(std::string_view name) {
  for (const BenchmarkModel& model : kModels)
    if (model.name == name) return model.build();
  std::string known;
  for (const BenchmarkModel& model : kModels) known += (known.empty() ? "" : ", ") + std::string(model.name);
  throw Error("unknown benchmark model '" + std::string(name) + "' (known: " + known + ")");
}

void writeBenchmarkModels(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw errorInFile(dir, "not a directory");
  for (const BenchmarkModel& model : kModels) {
    std::string path = (std::filesystem::path(dir) / (std::string(model.name) + ".onnx")).string();
    onnx_io::exportOnnxFile(model.build(), path);
  }
}

} // namespace tessera
