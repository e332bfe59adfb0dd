// The benchmark models as TENSAT builds them (uwplse/tensat src/*.rs and model/*.model), where
// they differ from the corrected suite in Models.h. samples/README.md lists every difference.
#pragma once

#include "ir/Graph.h"

#include <string_view>

namespace tessera::samples {

Graph buildTensatBert();
Graph buildTensatInceptionV3();
Graph buildTensatSqueezeNet();
Graph buildTensatVgg19();
Graph buildTensatMobileNetV2();

// The text of one of TENSAT's TASO-serialised model files (taso/<file>.model), embedded at build
// time; empty for a file that is not embedded.
std::string_view embeddedTasoModel(std::string_view file);

} // namespace tessera::samples
