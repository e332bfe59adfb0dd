// What the user chose in the run panel and where the run is recorded. A run is the same request the
// CLI makes (run/RunRequest.h): the session records it through core's RunRecording, every parameter
// included.
#pragma once

#include "run/RunChoices.h"
#include "run/RunRecording.h"
#include "run/RunRequest.h"

#include <string>
#include <vector>

namespace tessera::gui {

using RunSettings = RunRequest;

// The explorer's defaults: core's, the CLI's too (run/RunPlan.h documents them); the run panel
// starts from them and then remembers the user's own.
RunSettings defaultRunSettings();

// Where a run is recorded: the worker opens `sessionPath` itself (one connection per thread).
struct RunDestination {
  std::string sessionPath; // empty: the run is not recorded
  RecordedModel model;     // the session's model by id, or the file to find or add
};

// The strategies this build runs, from core (run/RunChoices.h), with the optional ones registered.
using StrategyInfo = RunChoice;
std::vector<StrategyInfo> strategies();
// Makes the optional strategies this build has (xrlflow, with libtorch) known to core's
// makeStrategy; the runner does it before its first run. Registering twice is harmless.
void registerBuiltStrategies();
bool isKnownStrategy(const std::string& name);
// "greedy, taso, eqsat, mcts or xrlflow": the names of strategies(), for help texts and errors.
std::string strategyListText();

} // namespace tessera::gui
