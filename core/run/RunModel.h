// One run of a model, the same from every entry point: `optimize`, `bench`, the explorer and the
// teaching sample only parse input and present output. runModel does each step in one fixed order:
// the rules (pins and vetoes checked), the cost model, the strategy's search and extraction,
// verification, do no harm, the export, and the recording, which always ends with a finish or
// with why the run failed.
#pragma once

#include "cost/GraphExecutor.h"
#include "run/CostResolution.h"
#include "run/DeployCheck.h"
#include "run/RunPlan.h"
#include "search/DoNoHarm.h"
#include "search/FreeDimensionExport.h"
#include "search/Strategy.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

class Control;
class EventSink;
class SharedCostModels;


// What the program brings that core does not have: its plugins' measured cost models and
// executors (empty: no plugin support, and kNoPluginSupport says so), and where warnings go.
struct RunBackends {
  std::shared_ptr<SharedCostModels> costs; // null: resolved per run, without measured models
  ExecutorFactory executor;
  std::function<void(const std::string&)> warn;
};

// The run once it is set up, before the search starts.
struct RunStarted {
  int64_t modelId = 0; // in the session; 0 when the run is not recorded
  int64_t runId = 0;
  std::string costSpec; // the model's, after any fallback
  double originalCostMs = 0;
  size_t rules = 0;
};

struct RunObserver {
  std::function<void(const std::string& line)> progress; // one line per phase, for people
  std::function<void(const RunStarted&)> started;
};

struct RunOutcome {
  SearchResult result; // what the run returns: after do no harm, verified as written when exported
  std::shared_ptr<CostModel> cost;
  std::string costFallbackNote; // why the cost spec asked for was not used; empty when it was
  // Do no harm on the runtime the result is for: where it timed (or would have), what it found, or
  // why it did not run. Empty when no check applies (no measured backend and no deploy runtime, or
  // the check turned off).
  std::optional<DeployCheck> deployCheck;
  std::vector<FreeDimensionOutcome> freeDims; // the export's, per free dimension of the model
  size_t rulesUsed = 0;
  std::string rulesHash;
  int64_t modelId = 0; // 0 when not recorded
  int64_t runId = 0;
  std::vector<int64_t> candidateIds; // the session's id of each of result.candidates
  std::string recordingError; // a session that could not be written (plan.recordingRequired false)
};

// Runs `plan` on `original`. `control` is the caller's (the explorer pauses, steps and stops
// through it); the plan's pins and vetoes are checked and applied to it. `sink` (may be null)
// receives the run's events besides the session. Throws tessera::Error for a plan that cannot run
// (unknown strategy, bad parameters, unknown rule names, an unreadable rule file or session),
// before any session row is begun, and for a failure on the way, after marking the run failed.
RunOutcome runModel(const Graph& original, const RunPlan& plan, const RunBackends& backends, Control& control, EventSink* sink,
                    const RunObserver& observer = {});

} // namespace tessera
