#include "run/ResultExport.h"

#include "onnx/ImportLimits.h"
#include "onnx/ModelMetadata.h"
#include "onnx/OnnxExport.h"
#include "search/VerifiedExport.h"
#include "support/ReadFile.h"

#include <filesystem>

namespace tessera {

std::vector<FreeDimensionOutcome> exportResult(const Graph& original, SearchResult& result, const ResultExport& file,
                                               const std::function<void(const std::string&)>& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  const std::filesystem::path parent = std::filesystem::path(file.path).parent_path();
  std::error_code ignored; // a directory that cannot be made fails the write, which names the file
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  FreeDimensionExport written;
  if (!original.info.freeAxes.empty() && !file.modelPath.empty()) {
    say("checking which free dimensions the optimised graph leaves open");
    FreeDimensionCheck check;
    check.seed = file.seed;
    written = exportKeepingFreeDimensions(result.best, original, readFileBytes(file.modelPath, static_cast<uintmax_t>(onnx_io::kMaxModelBytes)),
                                          file.modelPath, check);
    for (const FreeDimensionOutcome& dim : written.dims)
      if (!dim.open) say("warning: " + dim.label + " pinned at " + std::to_string(dim.size) + " in " + file.path + ": " + dim.detail);
  }
  const ModelWriter write = [&](const Graph& graph, const std::string& path) {
    std::string bytes = written.dims.empty() ? onnx_io::exportOnnxBytes(graph) : written.bytes;
    if (!file.metadata.empty()) bytes = onnx_io::withMetadata(bytes, file.metadata);
    onnx_io::writeModelFile(bytes, path);
  };
  if (file.verify)
    writeVerifiedResult(original, result, file.path, file.verifyTrials, file.seed, write);
  else
    write(result.best, file.path);
  return written.dims;
}

} // namespace tessera
