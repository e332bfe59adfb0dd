// Writing a run's result as an ONNX file: the model's free dimensions kept open where the
// optimised graph computes the same at other sizes of them (search/FreeDimensionExport.h), the
// file read back and verified against the original unless verification is off.
#pragma once

#include "search/FreeDimensionExport.h"
#include "search/Strategy.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera {

struct ResultExport {
  std::string path;
  std::string modelPath; // the original's file, read again for its free dimensions; may be empty
  bool verify = true;
  int verifyTrials = 1;
  uint64_t seed = 1;
  std::map<std::string, std::string> metadata; // written into the file's metadata_props
};

// Writes result.best to `file.path` (creating its directory) and, with `file.verify`, fills the
// result's verification from the file read back. Returns the outcome per free dimension. Throws
// tessera::Error naming the file when it cannot be written.
std::vector<FreeDimensionOutcome> exportResult(const Graph& original, SearchResult& result, const ResultExport& file,
                                               const std::function<void(const std::string&)>& progress);

} // namespace tessera
