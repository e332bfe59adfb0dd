// The benchmark suite of TASO, TENSAT and PACT'24 by name: build any of the nine models as a
// Graph, or write them all as ONNX files (splat weights as ConstantOfShape, each well under 1 MB).
// Two suites share the names: the corrected one (samples/*.onnx) and TENSAT's own graphs, which
// TENSAT and PACT'24 report on (samples/tensat/*.onnx); samples/README.md lists the differences.
#pragma once

#include "ir/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

enum class BenchmarkSuite { Corrected, Tensat };

// "corrected" or "tensat"; parseBenchmarkSuite throws tessera::Error naming the known suites.
std::string_view benchmarkSuiteName(BenchmarkSuite suite);
BenchmarkSuite parseBenchmarkSuite(std::string_view name);

// bert, resnext50, resnet50, nasnet_a, nasrnn, inception_v3, squeezenet, vgg19, mobilenet_v2.
std::vector<std::string> benchmarkModelNames();

// Throws tessera::Error naming the model and the known names when `name` is not one of them.
Graph buildBenchmarkModel(std::string_view name, BenchmarkSuite suite = BenchmarkSuite::Corrected);

// Writes <dir>/<name>.onnx for every model; the directory must exist. Throws tessera::Error
// naming the file when one cannot be written.
void writeBenchmarkModels(const std::string& dir, BenchmarkSuite suite = BenchmarkSuite::Corrected);

} // namespace tessera
