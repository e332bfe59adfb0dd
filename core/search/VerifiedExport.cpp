#include "search/VerifiedExport.h"

#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <utility>

namespace tessera {

void writeVerifiedResult(const Graph& original, SearchResult& result, const std::string& path, int trials, uint64_t seed,
                         const ModelWriter& write) {
  if (write)
    write(result.best, path);
  else
    onnx_io::exportOnnxFile(result.best, path);
  Graph written;
  try {
    written = onnx_io::importOnnxFile(path);
  } catch (const Error& e) {
    result.verificationRun = true;
    result.verified = false;
    result.maxAbsError = 0;
    result.verifyProblem = std::string("the written model cannot be read back: ") + e.what();
    return;
  }
  // The written graph takes the result's place while it is checked, then the result is whole again.
  std::swap(result.best, written);
  verifySearchResult(original, result, trials, seed);
  std::swap(result.best, written);
}

} // namespace tessera
