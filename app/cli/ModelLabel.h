// What commands call the models of their command line in progress lines, tables and reports.
#pragma once

#include <string>
#include <vector>

namespace tessera::cli {

// The model file's stem, with its folder where two models of `all` share a stem
// (samples/bert.onnx and samples/tensat/bert.onnx: "samples/bert" and "tensat/bert").
std::string modelLabel(const std::string& path, const std::vector<std::string>& all);

} // namespace tessera::cli
