// What the user chose in the run panel and where the run is recorded. A run is the same request the
// CLI makes (run/RunRequest.h): the session records it through core's RunRecording, every parameter
// included.
#pragma once

#include "run/RunRecording.h"
#include "run/RunRequest.h"

#include <string>
#include <vector>

namespace tessera::gui {

using RunSettings = RunRequest;

// The explorer's defaults: the CLI's, with a shorter time and iteration budget for a person watching.
RunSettings defaultRunSettings();

// Where a run is recorded: the worker opens `sessionPath` itself (one connection per thread).
struct RunDestination {
  std::string sessionPath; // empty: the run is not recorded
  RecordedModel model;     // the session's model by id, or the file to find or add
};

// Every strategy the design names, in menu order. Whether one runs in this build is learnt by
// running it: a strategy that is not built yet fails with its own message.
struct StrategyInfo {
  std::string name;
  std::string description;
};
const std::vector<StrategyInfo>& strategies();
// Makes the optional strategies this build has (xrlflow, with libtorch) known to core's
// makeStrategy; the runner does it before its first run. Registering twice is harmless.
void registerBuiltStrategies();
bool isKnownStrategy(const std::string& name);

} // namespace tessera::gui
