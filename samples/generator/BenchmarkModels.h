// The benchmark suite of TASO, TENSAT and PACT'24 by name: build any of the nine models as a
// Graph, or write them all as ONNX files (splat weights as ConstantOfShape, each well under 1 MB).
#pragma once

#include "ir/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

// bert, resnext50, resnet50, nasnet_a, nasrnn, inception_v3, squeezenet, vgg19, mobilenet_v2.
std::vector<std::string> benchmarkModelNames();

// Throws tessera::Error naming the model and the known names when `name` is not one of them.
Graph buildBenchmarkModel(std::string_view name);

// Writes <dir>/<name>.onnx for every model; the directory must exist. Throws tessera::Error
// naming the file when one cannot be written.
void writeBenchmarkModels(const std::string& dir);

} // namespace tessera
