// Inception-v3, SqueezeNet, VGG-19 and MobileNet-v2 as TENSAT reads them: from the TASO exports
// it ships (taso/*.model), not from builders.
#include "generator/tensat/TasoModelFile.h"
#include "generator/tensat/TensatModels.h"

#include "support/Error.h"

namespace tessera::samples {

namespace {

Graph readEmbedded(std::string_view modelName, std::string_view file) {
  std::string_view text = embeddedTasoModel(file);
  if (text.empty()) throw Error("TENSAT model file '" + std::string(file) + ".model' is not embedded in this build");
  return readTasoModel(modelName, text);
}

} // namespace

Graph buildTensatInceptionV3() { return readEmbedded("inception_v3", "inceptionv3"); }
Graph buildTensatSqueezeNet() { return readEmbedded("squeezenet", "squeezenet"); }
Graph buildTensatVgg19() { return readEmbedded("vgg19", "vgg"); }
Graph buildTensatMobileNetV2() { return readEmbedded("mobilenet_v2", "mobilenetv2"); }

} // namespace tessera::samples
