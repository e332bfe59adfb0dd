// The nine models of the TASO / TENSAT / PACT'24 benchmark suite, one builder each (one .cpp per
// model). BenchmarkModels.h is the public registry over them.
#pragma once

#include "ir/Graph.h"

namespace tessera::samples {

Graph buildBert();
Graph buildResNeXt50();
Graph buildResNet50();
Graph buildNasNetA();
Graph buildNasRnn();
Graph buildInceptionV3();
Graph buildSqueezeNet();
Graph buildVgg19();
Graph buildMobileNetV2();

} // namespace tessera::samples
