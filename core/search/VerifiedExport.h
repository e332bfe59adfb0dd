// Writing a search's result as a model file and verifying what was written: the file is read
// back and checked against the original, so a fault in the writer (a weight computed under a
// new name, an op spelled wrongly) fails verification instead of passing on the in-memory graph.
#pragma once

#include "search/Strategy.h"

#include <functional>
#include <string>

namespace tessera {

// Writes `graph` to `path`; throws tessera::Error naming the file when it cannot.
using ModelWriter = std::function<void(const Graph& graph, const std::string& path)>;

// Writes result.best to `path` with `write` (ONNX export when empty), imports the file and
// verifies it against `original` into result's verification fields. A file that cannot be read
// back fails verification with the import error. Throws tessera::Error when writing fails.
void writeVerifiedResult(const Graph& original, SearchResult& result, const std::string& path, int trials, uint64_t seed,
                         const ModelWriter& write = {});

} // namespace tessera
