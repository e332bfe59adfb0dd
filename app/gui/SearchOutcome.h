// What a GUI run gives back: core's run outcome (run/RunModel.h) as the views need it.
#pragma once

#include "RunSettings.h"

#include "GraphSnapshot.h"

#include "ir/Graph.h"
#include "run/DeployCheck.h"
#include "search/Strategy.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tessera::gui {

struct SearchOutcome {
  RunSettings settings;
  std::shared_ptr<const Graph> original;
  std::shared_ptr<const Graph> optimized; // the best graph (the original's copy when nothing beat it)
  // `optimized` priced by the run's cost model on the worker: a measured model may time new ops for
  // seconds, which the UI thread must not.
  views::GraphSnapshot best;
  // Everything the strategy returned, verification included; `result.best` has moved to `optimized`.
  SearchResult result;
  double seconds = 0;           // search, extraction and verification
  int64_t modelId = 0;          // in the session; 0 when the run was not recorded
  int64_t runId = 0;
  std::vector<int64_t> candidateIds; // the session's id of each of result.candidates
  std::string recordingError;   // why the session could not record the run (the run itself is fine)
  std::string costFallbackNote; // why the cost model asked for was not used; empty when it was
  // Do no harm with a measured cost model (RunOutcome::deployCheck): what the device said, or why it was not asked.
  std::optional<DeployCheck> deployCheck;
  std::thread::id workerThread; // where it ran: never the UI thread
};

} // namespace tessera::gui
