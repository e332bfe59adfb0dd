// Do no harm for the runtime a result is for: the candidate is timed against the original end to
// end on that runtime, and the original is returned unless the candidate is faster there, whatever
// cost model guided the search. One place for `optimize --deploy`, `bench --e2e`, the explorer's
// run and its Export; and what an exported file's metadata says of the check.
#pragma once

#include "cost/GraphExecutor.h"
#include "run/ResultExport.h"
#include "run/RunPlan.h"
#include "search/DoNoHarm.h"
#include "search/Strategy.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tessera {

// Builds the whole-graph executor of a backend ("cpu", "cuda", "ort"). Throws tessera::Error
// saying why there is none (plugin missing or broken, device unavailable).
using ExecutorFactory = std::function<std::unique_ptr<GraphExecutor>(const std::string& backend)>;

struct DeployCheck {
  std::string runtime;                    // where the graphs were timed (or would have been)
  std::optional<DoNoHarmOutcome> outcome; // the comparison; empty when it could not run
  std::string skipped;                    // why it did not run; empty when it ran
  // The original was returned because the candidate was not faster there (or computed differently).
  bool keptOriginal() const { return outcome && outcome->keptOriginal; }
};

// Times result.best against `original` on `runtime` and puts the original back in result.best
// unless the candidate is faster there. A candidate that failed verification is not timed, nor is
// one where the runtime has no executor: `skipped` says why and `warn` hears it.
DeployCheck checkOnRuntime(const Graph& original, SearchResult& result, const std::string& runtime, const ExecutorFactory& executors,
                           const EndToEndSettings& settings, const std::function<void(const std::string&)>& say,
                           const std::function<void(const std::string&)>& warn);

// The metadata an exported file carries: the cost model that guided the search and, when the file
// was checked for a runtime, that runtime, its device, whether the original was kept, and the
// measured speedup of what the file holds (or why it was not timed).
std::map<std::string, std::string> deployMetadata(const std::string& costSpec, const DeployCheck* check);

// Writes result.best for `runtime` (empty: for no runtime in particular, not timed): checkOnRuntime
// first, then the file (with `file.verify`, read back and verified against the original), its
// metadata from deployMetadata. The explorer's Export does this with the candidate it shows.
// Returns the check (none without a runtime). Throws tessera::Error naming the file when it cannot
// be written.
std::optional<DeployCheck> exportForRuntime(const Graph& original, SearchResult& result, const std::string& costSpec,
                                            const std::string& runtime, const ExecutorFactory& executors, ResultExport file,
                                            const std::function<void(const std::string&)>& say,
                                            const std::function<void(const std::string&)>& warn);

} // namespace tessera
