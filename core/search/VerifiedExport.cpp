#include "search/VerifiedExport.h"

#include "onnx/ImportLimits.h"
#include "onnx/OnnxExport.h"
#include "search/FreeDimensionExport.h"
#include "support/Error.h"
#include "support/ReadFile.h"

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
    // Free dimensions the file keeps open are read back at the sizes the original was imported at.
    written = importAtOriginalSizes(readFileBytes(path, static_cast<uintmax_t>(onnx_io::kMaxModelBytes)), path, original);
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
